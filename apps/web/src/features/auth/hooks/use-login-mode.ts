import { ACCESS_REQUEST_PATHS, SIGN_IN_PATH } from '@telehealth/shared';
import { useCallback, useEffect, useState } from 'react';

import type { AccessRequestKind } from '../api/access-requests.ts';

/** What the sign-in page shows: the sign-in form or one of the two request forms. */
export type LoginMode = 'sign-in' | AccessRequestKind;

/** The mode an address shows (anything else the page is served at is sign-in). */
export function modeFromPath(pathname: string): LoginMode {
  if (pathname === ACCESS_REQUEST_PATHS.provider) return 'provider';
  if (pathname === ACCESS_REQUEST_PATHS.patient) return 'patient';
  return 'sign-in';
}

export function pathForMode(mode: LoginMode): string {
  return mode === 'sign-in' ? SIGN_IN_PATH : ACCESS_REQUEST_PATHS[mode];
}

/** Marks a history entry this page added by opening a form from sign-in: Back to Home can then go back. */
const OPENED_FROM_SIGN_IN = 'openedFromSignIn';

function openedFromSignIn(): boolean {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null && OPENED_FROM_SIGN_IN in state;
}

/**
 * The page's mode follows the address: opening a form adds a history entry (same document, no load), and the
 * browser's Back and Forward switch between sign-in and the forms, which stay mounted (decision 048).
 */
export function useLoginMode(): { mode: LoginMode; open: (kind: AccessRequestKind) => void; backToSignIn: () => void } {
  const [mode, setMode] = useState<LoginMode>(() => modeFromPath(window.location.pathname));

  useEffect(() => {
    const onPopState = () => {
      setMode(modeFromPath(window.location.pathname));
    };
    window.addEventListener('popstate', onPopState);
    return () => {
      window.removeEventListener('popstate', onPopState);
    };
  }, []);

  const open = useCallback((kind: AccessRequestKind) => {
    const fromSignIn = modeFromPath(window.location.pathname) === 'sign-in';
    window.history.pushState(fromSignIn ? { [OPENED_FROM_SIGN_IN]: true } : null, '', pathForMode(kind));
    setMode(kind);
  }, []);

  // Back to Home returns to sign-in: a step back when this page opened the form, else a new entry.
  const backToSignIn = useCallback(() => {
    if (openedFromSignIn()) {
      window.history.back();
      return;
    }
    window.history.pushState(null, '', SIGN_IN_PATH);
    setMode('sign-in');
  }, []);

  return { mode, open, backToSignIn };
}
