import { useEffect, useEffectEvent, useId, useRef, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import type { SignInResultData } from '../../../lib/sign-in.ts';
import type * as TwoFactorModule from '../../../lib/two-factor.ts';
import { loadSignInLogic } from '../hooks/use-sign-in-logic.ts';
import classes from './login-page.module.css';
import { Notice } from './notice.tsx';

type TwoFactorLogic = typeof TwoFactorModule;

// The set-up's calls and the QR code library are loaded when this step opens, never with the page.
const loadTwoFactor = (): Promise<TwoFactorLogic> => import('../../../lib/two-factor.ts');

type Phase =
  | { name: 'loading' }
  | { name: 'failed'; message: string }
  /** The key grouped in fours for reading, and the QR code of its otpauth URI. */
  | { name: 'scan'; secret: string; qr: string }
  | { name: 'codes'; codes: string[]; result: SignInResultData };

export interface TotpSetupStepProps {
  onSignedIn: (result: SignInResultData) => void;
  onRestart: (message: string | null) => void;
}

/**
 * CONTINUE_SIGN_IN_WITH_TOTP_SETUP: the practice requires two-factor for this account's role and it has none.
 * The server allows nothing but the set-up (its short-lived cookie); once a code from the app confirms the key,
 * the sign-in is complete and the recovery codes are shown, once, before the page goes on.
 */
export function TotpSetupStep({ onSignedIn, onRestart }: TotpSetupStepProps) {
  const { t } = useTranslation(['auth', 'shared', 'errors']);
  const [phase, setPhase] = useState<Phase>({ name: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const restart = useEffectEvent((message: string) => {
    onRestart(message);
  });

  useEffect(() => {
    let current = true;
    Promise.all([loadTwoFactor(), loadSignInLogic()]).then(
      async ([twoFactor, logic]) => {
        try {
          const setup = await twoFactor.startTotpSetup();
          const qr = await twoFactor.qrCodeDataUrl(setup.otpauthUri);
          if (current) setPhase({ name: 'scan', secret: twoFactor.groupSecret(setup.secret), qr });
        } catch (error) {
          if (!current) return;
          // No set-up challenge any more (it expired, or another tab ended it): the sign-in starts again.
          const code = (error as { code?: unknown }).code;
          if (code === 'UNAUTHENTICATED') restart(logic.errorText(logic.coded('twoFactorMessages.challengeExpired')));
          else setPhase({ name: 'failed', message: logic.describeError(error) });
        }
      },
      () => {
        if (current) setPhase({ name: 'failed', message: t('signInUnavailable') });
      },
    );
    return () => {
      current = false;
    };
  }, [attempt, t]);

  if (phase.name === 'codes') {
    return (
      <RecoveryCodesStep
        codes={phase.codes}
        onContinue={() => {
          onSignedIn(phase.result);
        }}
      />
    );
  }

  return (
    <div className={classes.stack}>
      <div>
        <h1 className={classes.heading} id="sign-in-heading">
          {t('twoFactor.setupHeading')}
        </h1>
        <p className={classes.subheading}>{t('twoFactor.setupRequiredIntro')}</p>
      </div>
      {phase.name === 'loading' ? (
        <div className={classes.loading} role="status" aria-label={t('twoFactor.preparing')}>
          <span className={classes.spinner} aria-hidden />
        </div>
      ) : null}
      {phase.name === 'failed' ? (
        <>
          <Notice tone="error">{phase.message}</Notice>
          <button
            type="button"
            className={classes.outlineButton}
            onClick={() => {
              setPhase({ name: 'loading' });
              setAttempt((n) => n + 1);
            }}
          >
            {t('errors:retry')}
          </button>
        </>
      ) : null}
      {phase.name === 'scan' ? (
        <ScanAndConfirm
          secret={phase.secret}
          qr={phase.qr}
          onConfirmed={(codes, result) => {
            setPhase({ name: 'codes', codes, result });
          }}
          onRestart={onRestart}
        />
      ) : null}
      <button
        type="button"
        className={classes.outlineButton}
        onClick={() => {
          onRestart(null);
        }}
      >
        {t('twoFactor.backToSignIn')}
      </button>
    </div>
  );
}

function ScanAndConfirm({
  secret,
  qr,
  onConfirmed,
  onRestart,
}: {
  secret: string;
  qr: string;
  onConfirmed: (codes: string[], result: SignInResultData) => void;
  onRestart: (message: string | null) => void;
}) {
  const { t } = useTranslation(['auth', 'shared']);
  const id = useId();
  const [code, setCode] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    Promise.all([loadTwoFactor(), loadSignInLogic()]).then(
      ([twoFactor, logic]) => {
        const checked = logic.validateSecondFactor(code, 'totp');
        if (!checked.ok) {
          setBusy(false);
          setFieldError(logic.errorText(checked.error));
          inputRef.current?.focus();
          return;
        }
        setFieldError(null);
        twoFactor.confirmTotpSetup(checked.value).then(
          (confirmation) => {
            const user = confirmation.user;
            if (!user) {
              onRestart(null);
              return;
            }
            onConfirmed(confirmation.recoveryCodes, { success: true, user, error: null, nextStep: 'DONE' });
          },
          (error: unknown) => {
            setBusy(false);
            const errorCode = (error as { code?: unknown }).code;
            const message = logic.describeError(error);
            // Locked (TOO_MANY_REQUESTS) or the challenge is gone: only a new sign-in helps.
            if (errorCode === 'UNAUTHENTICATED' || errorCode === 'TOO_MANY_REQUESTS') {
              onRestart(
                errorCode === 'UNAUTHENTICATED'
                  ? logic.errorText(logic.coded('twoFactorMessages.challengeExpired'))
                  : message,
              );
              return;
            }
            setFailure(message);
            setCode('');
            inputRef.current?.focus();
          },
        );
      },
      () => {
        setBusy(false);
        setFailure(t('signInUnavailable'));
      },
    );
  };

  return (
    <>
      <ol className={classes.steps}>
        <li>{t('twoFactor.scanStep')}</li>
        <li>{t('twoFactor.enterStep')}</li>
      </ol>
      <img className={classes.qr} src={qr} width={200} height={200} alt={t('twoFactor.qrAlt')} />
      <div className={classes.field}>
        <p className={classes.label}>{t('twoFactor.secretLabel')}</p>
        <code className={classes.secret} data-testid="totp-secret">
          {secret}
        </code>
      </div>
      {failure ? <Notice tone="error">{failure}</Notice> : null}
      <form className={classes.form} onSubmit={onSubmit} noValidate aria-label={t('twoFactor.setupHeading')}>
        <div className={classes.field}>
          <label className={classes.label} htmlFor={`${id}-code`}>
            {t('twoFactor.codeLabel')}
          </label>
          <input
            ref={inputRef}
            id={`${id}-code`}
            className={classes.codeInput}
            type="text"
            name="one-time-code"
            autoComplete="one-time-code"
            inputMode="numeric"
            required
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? `${id}-code-error` : undefined}
            value={code}
            onChange={(event) => {
              setCode(event.currentTarget.value);
              if (fieldError) setFieldError(null);
            }}
          />
          {fieldError ? (
            <p className={classes.fieldError} id={`${id}-code-error`}>
              {fieldError}
            </p>
          ) : null}
        </div>
        <button type="submit" className={classes.primaryButton} disabled={busy} aria-busy={busy}>
          {busy ? (
            <>
              <span className={classes.spinner} aria-hidden />
              {t('twoFactor.verifying')}
            </>
          ) : (
            t('twoFactor.confirmSetup')
          )}
        </button>
      </form>
    </>
  );
}

/** The ten recovery codes, shown once: copy, download, and say they are saved before going on. */
function RecoveryCodesStep({ codes, onContinue }: { codes: string[]; onContinue: () => void }) {
  const { t } = useTranslation(['auth']);
  const id = useId();
  const [saved, setSaved] = useState(false);
  const [copied, setCopied] = useState<'yes' | 'failed' | null>(null);
  const [leaving, setLeaving] = useState(false);

  const download = () => {
    void loadTwoFactor().then((twoFactor) => {
      const url = URL.createObjectURL(twoFactor.recoveryCodesFile(codes, t('twoFactor.codesFileHeading')));
      const link = document.createElement('a');
      link.href = url;
      link.download = 'recovery-codes.txt';
      link.click();
      setTimeout(() => {
        URL.revokeObjectURL(url);
      }, 1000);
    });
  };

  return (
    <div className={classes.stack}>
      <div>
        <h1 className={classes.heading} id="sign-in-heading">
          {t('twoFactor.codesHeading')}
        </h1>
        <p className={classes.subheading}>{t('twoFactor.codesIntro')}</p>
      </div>
      <ol className={classes.codes} aria-label={t('twoFactor.codesHeading')} data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
      <div className={classes.twoColumns}>
        <button
          type="button"
          className={classes.outlineButton}
          onClick={() => {
            navigator.clipboard.writeText(codes.join('\n')).then(
              () => {
                setCopied('yes');
              },
              () => {
                setCopied('failed');
              },
            );
          }}
        >
          {t('twoFactor.copyCodes')}
        </button>
        <button type="button" className={classes.outlineButton} onClick={download}>
          {t('twoFactor.downloadCodes')}
        </button>
      </div>
      <p className={classes.statusLine} role="status">
        {copied === 'yes' ? t('twoFactor.copied') : copied === 'failed' ? t('twoFactor.copyFailed') : ''}
      </p>
      <div className={classes.checkboxRow}>
        <input
          id={`${id}-saved`}
          type="checkbox"
          checked={saved}
          onChange={(event) => {
            setSaved(event.currentTarget.checked);
          }}
        />
        <label htmlFor={`${id}-saved`}>{t('twoFactor.savedCodes')}</label>
      </div>
      <button
        type="button"
        className={classes.primaryButton}
        disabled={!saved || leaving}
        aria-busy={leaving}
        onClick={() => {
          setLeaving(true);
          onContinue();
        }}
      >
        {t('twoFactor.continue')}
      </button>
    </div>
  );
}
