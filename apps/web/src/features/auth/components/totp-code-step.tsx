import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import type { SignInResultData } from '../../../lib/sign-in.ts';
import { loadSignInLogic } from '../hooks/use-sign-in-logic.ts';
import classes from './login-page.module.css';
import { Notice } from './notice.tsx';

export interface TotpCodeStepProps {
  /** The code was right: the page goes on (the step stays busy meanwhile). */
  onSignedIn: (result: SignInResultData) => void;
  /** Back to the password (asked for, or the sign-in ended: expired, locked), with what to say there. */
  onRestart: (message: string | null) => void;
}

/**
 * The second step of a sign-in (CONFIRM_SIGN_IN_WITH_TOTP_CODE): the 6-digit code of the authenticator app,
 * or a recovery code instead. The server holds the half-finished sign-in (a short-lived cookie), not this page.
 */
export function TotpCodeStep({ onSignedIn, onRestart }: TotpCodeStepProps) {
  const { t } = useTranslation(['auth', 'shared']);
  const [kind, setKind] = useState<'totp' | 'recovery'>('totp');
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const inputId = `second-factor-${kind}`;

  useEffect(() => {
    inputRef.current?.focus();
  }, [kind]);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    loadSignInLogic().then(
      (logic) => {
        const checked = logic.validateSecondFactor(value, kind);
        if (!checked.ok) {
          setBusy(false);
          setFieldError(logic.errorText(checked.error));
          inputRef.current?.focus();
          return;
        }
        setFieldError(null);
        logic.confirmSignIn(checked.value).then(
          (result) => {
            if (logic.isSignedInResult(result)) {
              onSignedIn(result);
              return;
            }
            const message = logic.describeSignInError(result);
            if (result.nextStep === 'CONFIRM_SIGN_IN_WITH_TOTP_CODE') {
              setBusy(false);
              setFailure(message);
              setValue('');
              inputRef.current?.focus();
            } else {
              onRestart(message);
            }
          },
          (error: unknown) => {
            setBusy(false);
            setFailure(logic.describeError(error));
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
    <div className={classes.stack}>
      <div>
        <h1 className={classes.heading} id="sign-in-heading">
          {t('twoFactor.codeHeading')}
        </h1>
        <p className={classes.subheading}>
          {kind === 'totp' ? t('twoFactor.codeIntro') : t('twoFactor.recoveryIntro')}
        </p>
      </div>
      {failure ? (
        <Notice tone="error" title={t('shared:messages.loginFailed')}>
          {failure}
        </Notice>
      ) : null}
      <form className={classes.form} onSubmit={onSubmit} noValidate aria-labelledby="sign-in-heading">
        <div className={classes.field}>
          <label className={classes.label} htmlFor={inputId}>
            {kind === 'totp' ? t('twoFactor.codeLabel') : t('twoFactor.recoveryLabel')}
          </label>
          <input
            ref={inputRef}
            key={kind}
            id={inputId}
            className={kind === 'totp' ? classes.codeInput : classes.input}
            type="text"
            name={kind === 'totp' ? 'one-time-code' : 'recovery-code'}
            autoComplete={kind === 'totp' ? 'one-time-code' : 'off'}
            inputMode={kind === 'totp' ? 'numeric' : 'text'}
            autoCapitalize="none"
            spellCheck={false}
            required
            aria-invalid={fieldError ? true : undefined}
            aria-describedby={fieldError ? `${inputId}-error` : undefined}
            value={value}
            onChange={(event) => {
              setValue(event.currentTarget.value);
              if (fieldError) setFieldError(null);
            }}
          />
          {fieldError ? (
            <p className={classes.fieldError} id={`${inputId}-error`}>
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
            t('twoFactor.verify')
          )}
        </button>
      </form>
      <button
        type="button"
        className={classes.linkButton}
        onClick={() => {
          setKind((current) => (current === 'totp' ? 'recovery' : 'totp'));
          setValue('');
          setFieldError(null);
        }}
      >
        {kind === 'totp' ? t('twoFactor.useRecovery') : t('twoFactor.useApp')}
      </button>
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
