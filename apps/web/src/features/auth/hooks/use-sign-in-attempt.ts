import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CodedMessage } from '@telehealth/shared';

import type { SecondStep, SignInResultData } from '../../../lib/sign-in.ts';
import { loadSignInLogic, useSignInLogic, type SignInLogic } from './use-sign-in-logic.ts';

export type SignInAttempt =
  | { state: 'idle' }
  /** `key` names what is being tried (a demo account's address), so its button can show it. */
  | { state: 'pending'; key: string }
  /** The server answered without signing the person in. */
  | { state: 'answered'; result: SignInResultData }
  | { state: 'failed'; error: unknown }
  /** The sign-in logic did not arrive (the connection dropped). */
  | { state: 'unavailable' };

/**
 * One way of signing in (the form, the demo accounts) on the sign-in page: runs it once the sign-in logic has
 * arrived, goes on when the server signs the person in (the attempt then stays pending while the page leaves)
 * or asks for a second step the page carries out (a code, setting up two-factor), and says what went wrong in
 * the page's language.
 */
export function useSignInAttempt(
  onSignedIn: (result: SignInResultData) => void,
  onSecondStep: (step: SecondStep) => void,
) {
  const { t } = useTranslation(['auth', 'shared']);
  const logic = useSignInLogic();
  const [attempt, setAttempt] = useState<SignInAttempt>({ state: 'idle' });

  /** `send` answers null when it sends nothing (the form's own check found a problem). */
  const run = (key: string, send: (loaded: SignInLogic) => Promise<SignInResultData> | null) => {
    if (attempt.state === 'pending') return;
    setAttempt({ state: 'pending', key });
    loadSignInLogic().then(
      (loaded) => {
        const sent = send(loaded);
        if (!sent) {
          setAttempt({ state: 'idle' });
          return;
        }
        sent.then(
          (result) => {
            const step = loaded.secondStepOf(result);
            if (loaded.isSignedInResult(result)) onSignedIn(result);
            else if (step) {
              setAttempt({ state: 'idle' });
              onSecondStep(step);
            } else setAttempt({ state: 'answered', result });
          },
          (error: unknown) => {
            setAttempt({ state: 'failed', error });
          },
        );
      },
      () => {
        setAttempt({ state: 'unavailable' });
      },
    );
  };

  // The form's own checks give message ids, said in the page's language when shown (there are none before the
  // logic has arrived).
  const say = (message: CodedMessage, label?: string) => (logic ? logic.errorText(message, { label }) : '');

  /** What went wrong, or null; `refusal` when the server refused without saying why. */
  const failure = (refusal: string): string | null => {
    switch (attempt.state) {
      case 'unavailable':
        return t('signInUnavailable');
      case 'failed':
        return logic ? logic.describeError(attempt.error) : t('shared:messages.unexpected');
      case 'answered':
        // A step this page cannot carry out is said by its own notice (the form's).
        if (attempt.result.success || attempt.result.nextStep) return null;
        return logic?.describeSignInError(attempt.result) ?? attempt.result.error ?? refusal;
      default:
        return null;
    }
  };

  return { attempt, run, say, failure };
}
