import { useEffect, useState } from 'react';

import type * as SignInLogicModule from '../utils/sign-in-logic.ts';

export type SignInLogic = typeof SignInLogicModule;

let loading: Promise<SignInLogic> | null = null;

/** The sign-in logic (utils/sign-in-logic.ts), loaded once; a failed load may be tried again. */
export function loadSignInLogic(): Promise<SignInLogic> {
  if (!loading) {
    loading = import('../utils/sign-in-logic.ts');
    loading.catch(() => {
      loading = null;
    });
  }
  return loading;
}

/**
 * The sign-in logic once it has arrived (null before): asked for once the page has painted (it must not hold
 * up the first paint, which is what a visitor on a slow phone waits for), so it is normally there before
 * anyone has typed a password. Submitting waits for it (loadSignInLogic) if it is not.
 */
export function useSignInLogic(): SignInLogic | null {
  const [logic, setLogic] = useState<SignInLogic | null>(null);
  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The task after the next frame: the frame this render is painted in.
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => {
        loadSignInLogic().then(
          (loaded) => {
            if (current) setLogic(loaded);
          },
          () => undefined,
        );
      });
    });
    return () => {
      current = false;
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return logic;
}
