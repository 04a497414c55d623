import type { AppConfig } from '@telehealth/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import type { SecondStep, SignInResultData } from '../../../lib/sign-in.ts';
import { useSignInAttempt } from '../hooks/use-sign-in-attempt.ts';
import classes from './login-page.module.css';
import { Notice } from './notice.tsx';

export interface DemoAccountsProps {
  accounts: AppConfig['demoAccounts'];
  /** The server signed the person in: the page goes on (the buttons stay busy meanwhile). */
  onSignedIn: (result: SignInResultData) => void;
  /** The account owes a second step (MFA_REQUIRED_ROLES applies to demo accounts too). */
  onSecondStep: (step: SecondStep) => void;
}

/** One-click sign-in as each seeded demo account; rendered only when the server is in demo mode. */
export function DemoAccounts({ accounts, onSignedIn, onSecondStep }: DemoAccountsProps) {
  const { t } = useTranslation(['auth', 'shared']);
  const headingId = useId();
  const { attempt, run, failure } = useSignInAttempt(onSignedIn, onSecondStep);

  if (accounts.length === 0) return null;

  const failureText = failure(t('shared:messages.demoModeOff'));

  return (
    <section className={classes.demo} aria-labelledby={headingId}>
      <div>
        <h2 className={classes.demoTitle} id={headingId}>
          {t('demo.title')}
        </h2>
        <p className={classes.demoText}>{t('demo.description')}</p>
      </div>
      {failureText ? (
        <Notice tone="error" title={t('shared:messages.loginFailed')}>
          {failureText}
        </Notice>
      ) : null}
      <div className={classes.twoColumns}>
        {accounts.map((account) => {
          const pending = attempt.state === 'pending' && attempt.key === account.email;
          return (
            <button
              key={account.email}
              type="button"
              className={classes.demoButton}
              disabled={attempt.state === 'pending'}
              aria-busy={pending}
              onClick={() => {
                run(account.email, (loaded) => loaded.demoSignIn(account.email));
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
