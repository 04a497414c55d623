import type { AppConfig } from '@telehealth/shared';
import { Activity, Component, lazy, Suspense, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { BrandMark } from '../../../components/brand-mark.tsx';
import { CrisisLines } from '../../../components/crisis-lines/index.ts';
import { EmergencyBanner } from '../../../components/emergency-banner/index.ts';
import { LanguageSwitcher } from '../../../components/public-site/language-switcher.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import type { SecondStep, SignInResultData } from '../../../lib/sign-in.ts';
import type { AccessRequestKind } from '../api/access-requests.ts';
import { useLoginMode } from '../hooks/use-login-mode.ts';
import { DemoAccounts } from './demo-accounts.tsx';
import classes from './login-page.module.css';
import { Notice } from './notice.tsx';
import { SignInForm } from './sign-in-form.tsx';
import { TotpCodeStep } from './totp-code-step.tsx';
import { TotpSetupStep } from './totp-setup-step.tsx';

// The request forms are most of the page's code and few visitors open them: loaded (with Mantine, which they
// are built with, and their texts) when one is chosen, and already asked for when the pointer or the keyboard
// reaches its button.
const loadAccessRequestHost = async () => {
  const host = await import('./access-request-host.tsx');
  await host.loadAccessRequestTexts();
  return host;
};
const prefetchAccessRequestHost = () => {
  loadAccessRequestHost().catch(() => undefined);
};

/** Catches a form that failed to load (the network), so the page stays and says what to do. */
class LoadFailureBoundary extends Component<{ fallback: ReactNode; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override render() {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}

const lazyAccessRequestHost = () => lazy(async () => ({ default: (await loadAccessRequestHost()).AccessRequestHost }));

/** A request form, loaded on demand; a failed load offers another try (a new load: React keeps a failed one). */
function AccessRequestForm({ kind, onBack }: { kind: AccessRequestKind; onBack: () => void }) {
  const { t } = useTranslation(['auth', 'errors']);
  const [attempt, setAttempt] = useState(() => ({ key: 0, Host: lazyAccessRequestHost() }));
  const { Host } = attempt;
  const failure = (
    <div className={classes.stack}>
      <Notice tone="error">{t('formLoadFailed')}</Notice>
      <div className={classes.twoColumns}>
        <button
          type="button"
          className={classes.outlineButton}
          onClick={() => {
            setAttempt((previous) => ({ key: previous.key + 1, Host: lazyAccessRequestHost() }));
          }}
        >
          {t('errors:retry')}
        </button>
        <button type="button" className={classes.outlineButton} onClick={onBack}>
          {t('backToHome')}
        </button>
      </div>
    </div>
  );
  return (
    <LoadFailureBoundary key={attempt.key} fallback={failure}>
      <Suspense
        fallback={
          <div className={classes.loading} role="status" aria-label={t('loadingForm')}>
            <span className={classes.spinner} aria-hidden />
          </div>
        }
      >
        <Host kind={kind} onBack={onBack} />
      </Suspense>
    </LoadFailureBoundary>
  );
}

export interface LoginPageProps {
  practiceName: string;
  /** The demo accounts to offer, or null when the server is not in demo mode. */
  demoAccounts: AppConfig['demoAccounts'] | null;
  /**
   * How the previous session ended, when the page was sent here by that: by itself ('expired': idle time-out,
   * or the server ended it) or by signing out.
   */
  sessionEnded: 'expired' | 'signed-out' | null;
  /** The address a password was just set for: filled in, the password field focused. */
  knownEmail: string | null;
  /** The server signed the person in (by the form or a demo account): the page goes on. */
  onSignedIn: (result: SignInResultData) => void;
}

/**
 * /login: sign in, the demo accounts in demo mode, and the way to request access. Each request form has its own
 * address (/request-access/…); a form once opened stays mounted while hidden, so Back and Forward keep what was
 * typed (decision 048). The sign-in form does not: hidden, its fields would still answer to their labels.
 */
export function LoginPage({ practiceName, demoAccounts, sessionEnded, knownEmail, onSignedIn }: LoginPageProps) {
  const { t } = useTranslation(['auth', 'shared', 'screens']);
  const { mode, open, backToSignIn } = useLoginMode();
  const [openedForms, setOpenedForms] = useState<AccessRequestKind[]>(() => (mode === 'sign-in' ? [] : [mode]));
  if (mode !== 'sign-in' && !openedForms.includes(mode)) setOpenedForms([...openedForms, mode]);
  usePageTitle(mode === 'sign-in' ? t('screens:login') : t(`formTitle.${mode}`));
  // After a right password: the code, or setting up two-factor (the server's half-finished sign-in).
  const [secondStep, setSecondStep] = useState<SecondStep | null>(null);
  // What ended a second step and sent the person back to the password (expired, locked).
  const [restartNotice, setRestartNotice] = useState<string | null>(null);
  const brandLabel = t('brandHome', { practiceName });
  const onSecondStep = (step: SecondStep) => {
    setRestartNotice(null);
    setSecondStep(step);
  };
  const onRestart = (message: string | null) => {
    setSecondStep(null);
    setRestartNotice(message);
  };

  return (
    <div className={mode === 'sign-in' ? classes.page : classes.formPage}>
      <aside className={classes.aside} aria-label={t('aside.title')}>
        <a href="/" className={classes.asideBrand} aria-label={brandLabel}>
          <BrandMark size={40} inverted />
          <span>{practiceName}</span>
        </a>
        <div className={classes.asideText}>
          <h2 className={classes.asideTitle}>{t('aside.title')}</h2>
          <p className={classes.asideBody}>{t('aside.body')}</p>
        </div>
        <CrisisLines />
      </aside>

      <main className={classes.main} id="main-content">
        <div className={classes.topRow}>
          <a href="/" className={classes.mobileBrand} aria-label={brandLabel}>
            <BrandMark size={34} />
            <span>{practiceName}</span>
          </a>
          <LanguageSwitcher />
        </div>
        <EmergencyBanner onRequestForm={mode === 'patient'} />
        {mode !== 'sign-in' ? null : secondStep ? (
          <section className={classes.card} aria-labelledby="sign-in-heading">
            {secondStep === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE' ? (
              <TotpCodeStep onSignedIn={onSignedIn} onRestart={onRestart} />
            ) : (
              <TotpSetupStep onSignedIn={onSignedIn} onRestart={onRestart} />
            )}
          </section>
        ) : (
          <section className={classes.card} aria-labelledby="sign-in-heading">
            <div className={classes.stack}>
              <div>
                <h1 className={classes.heading} id="sign-in-heading">
                  {t('heading')}
                </h1>
                <p className={classes.subheading}>{t('subheading')}</p>
              </div>
              {sessionEnded && !restartNotice ? (
                <Notice tone="info" title={t('sessionExpiredTitle')}>
                  {sessionEnded === 'expired' ? t('shared:messages.sessionExpired') : t('signedOutBody')}
                </Notice>
              ) : null}
              {restartNotice ? (
                <Notice tone="error" title={t('shared:messages.loginFailed')}>
                  {restartNotice}
                </Notice>
              ) : null}
              <SignInForm initialEmail={knownEmail} onSignedIn={onSignedIn} onSecondStep={onSecondStep} />
              {demoAccounts ? (
                <DemoAccounts accounts={demoAccounts} onSignedIn={onSignedIn} onSecondStep={onSecondStep} />
              ) : null}
              <p className={classes.divider}>{t('newHere')}</p>
              <div className={classes.twoColumns}>
                {(['provider', 'patient'] as const).map((kind) => (
                  <button
                    key={kind}
                    type="button"
                    className={classes.outlineButton}
                    onClick={() => {
                      open(kind);
                    }}
                    onPointerEnter={prefetchAccessRequestHost}
                    onFocus={prefetchAccessRequestHost}
                  >
                    {kind === 'provider' ? t('requestProvider') : t('requestPatient')}
                  </button>
                ))}
              </div>
            </div>
          </section>
        )}
        {openedForms.map((kind) => (
          <Activity key={kind} mode={kind === mode ? 'visible' : 'hidden'}>
            <div className={classes.wideCard}>
              <AccessRequestForm kind={kind} onBack={backToSignIn} />
            </div>
          </Activity>
        ))}
        {/* The patient form says it in its own crisis information; once per screen is enough. */}
        {mode === 'patient' ? null : (
          <CrisisLines className={mode === 'sign-in' ? classes.crisisBelowNarrow : classes.crisisBelowWide} />
        )}
      </main>
    </div>
  );
}
