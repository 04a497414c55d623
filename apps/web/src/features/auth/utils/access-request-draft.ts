import { ACCESS_REQUEST_PATHS } from '@telehealth/shared';

import type { AccessRequestKind } from '../api/access-requests.ts';

/**
 * A half-filled request form kept in its own history entry (`history.state`), so a person who leaves the page
 * and comes back with Back finds what they typed (decision 048). Not `localStorage` and not `sessionStorage`: a
 * patient's answers are health information, and the entry's state goes when the tab closes or when the entry
 * leaves the history (a new navigation from an earlier entry); a sent form clears it, and an old one is ignored.
 */
export type DraftValues = Record<string, string | string[] | boolean>;

export interface AccessRequestDraft {
  values: DraftValues;
  /** The person chose a language preference (it then stops following the site's language). */
  languageTouched: boolean;
}

const DRAFT_KEY = 'accessRequestDraft';
/** A draft older than this is not shown again (a shared computer: the next person should not find it). */
export const DRAFT_MAX_AGE_MS = 60 * 60 * 1000;

function currentState(): Record<string, unknown> {
  const state: unknown = window.history.state;
  return typeof state === 'object' && state !== null ? (state as Record<string, unknown>) : {};
}

/** Only while the form's own address is the current entry: never written into another page's entry. */
function isFormEntry(kind: AccessRequestKind): boolean {
  return window.location.pathname === ACCESS_REQUEST_PATHS[kind];
}

export function saveDraft(kind: AccessRequestKind, draft: AccessRequestDraft, now = Date.now()): void {
  if (!isFormEntry(kind)) return;
  window.history.replaceState({ ...currentState(), [DRAFT_KEY]: { kind, ...draft, savedAt: now } }, '');
}

export function clearDraft(kind: AccessRequestKind): void {
  if (!isFormEntry(kind)) return;
  const { [DRAFT_KEY]: _dropped, ...rest } = currentState();
  window.history.replaceState(rest, '');
}

/**
 * The draft of this entry, its values checked against the form's own (`blank`): unknown fields and values of
 * the wrong type are left out.
 */
export function readDraft(kind: AccessRequestKind, blank: DraftValues, now = Date.now()): AccessRequestDraft | null {
  if (!isFormEntry(kind)) return null;
  const stored = currentState()[DRAFT_KEY];
  if (typeof stored !== 'object' || stored === null) return null;
  const draft = stored as { kind?: unknown; values?: unknown; languageTouched?: unknown; savedAt?: unknown };
  if (draft.kind !== kind || typeof draft.savedAt !== 'number' || now - draft.savedAt > DRAFT_MAX_AGE_MS) return null;
  if (typeof draft.values !== 'object' || draft.values === null) return null;
  const saved = draft.values as Record<string, unknown>;
  const values: DraftValues = { ...blank };
  for (const [name, initial] of Object.entries(blank)) {
    const value = saved[name];
    if (Array.isArray(initial)) {
      if (Array.isArray(value) && value.every((item) => typeof item === 'string')) values[name] = value;
    } else if (typeof value === typeof initial) {
      values[name] = value as string | boolean;
    }
  }
  return { values, languageTouched: draft.languageTouched === true };
}
