import type { AppConfig } from '@telehealth/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

import type { SignInResultData } from '../../../lib/sign-in.ts';
import { loadSignInLogic, useSignInLogic } from '../hooks/use-sign-in-logic.ts';
import classes from './login-page.module.css';
import { Notice } from './notice.tsx';

type Attempt =
  | { state: 'idle' }
  | { state: 'pending'; email: string }
  | { state: 'refused'; result: SignInResultData }
  | { state: 'failed'; error: unknown }
  /** The sign-in logic did not arrive (the connection dropped). */
  | { state: 'unavailable' };

export interface DemoAccountsProps {
  accounts: AppConfig['demoAccounts'];
  /** The server signed the person in: the page goes on (the buttons stay busy meanwhile). */
  onSignedIn: (result: SignInResultData) => void;
}

/** One-click sign-in as each seeded demo account; rendered only when the server is in demo mode. */
export function DemoAccounts({ accounts, onSignedIn }: DemoAccountsProps) {
  const { t } = useTranslation(['auth', 'shared']);
  const headingId = useId();
  const logic = useSignInLogic();
  const [attempt, setAttempt] = useState<Attempt>({ state: 'idle' });

  if (accounts.length === 0) return null;

  const signInAs = (email: string) => {
    setAttempt({ state: 'pending', email });
    loadSignInLogic().then(
      (loaded) =>
        loaded.demoSignIn(email).then(
          (result) => {
            if (loaded.isSignedInResult(result)) onSignedIn(result);
            else setAttempt({ state: 'refused', result });
          },
          (error: unknown) => {
            setAttempt({ state: 'failed', error });
          },
        ),
      () => {
        setAttempt({ state: 'unavailable' });
      },
    );
  };

  const say = (message: string) => (logic ? logic.translateMessage(message) : message);
  const failure =
    attempt.state === 'unavailable'
      ? t('signInUnavailable')
      : attempt.state === 'failed'
        ? say(logic ? logic.describeError(attempt.error) : t('shared:messages.unexpected'))
        : attempt.state === 'refused'
          ? attempt.result.error
            ? say(attempt.result.error)
            : t('shared:messages.demoModeOff')
          : null;

  return (
    <section className={classes.demo} aria-labelledby={headingId}>
      <div>
        <h2 className={classes.demoTitle} id={headingId}>
          {t('demo.title')}
        </h2>
        <p className={classes.demoText}>{t('demo.description')}</p>
      </div>
      {failure ? (
        <Notice tone="error" title={t('shared:messages.loginFailed')}>
          {failure}
        </Notice>
      ) : null}
      <div className={classes.twoColumns}>
        {accounts.map((account) => {
          const pending = attempt.state === 'pending' && attempt.email === account.email;
          return (
            <button
              key={account.email}
              type="button"
              className={classes.demoButton}
              disabled={attempt.state === 'pending'}
              aria-busy={pending}
              onClick={() => {
                signInAs(account.email);
              }}
            >
              <span>
                <span className={classes.demoRole}>{t(`shared:roles.${account.role}`)}</span>
                <span className={classes.demoEmail}>{account.email}</span>
              </span>
              {pending ? <span className={classes.spinner} aria-hidden /> : null}
            </button>
          );
        })}
      </div>
    </section>
  );
}
