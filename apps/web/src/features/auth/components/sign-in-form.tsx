import { useEffect, useId, useRef, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { IconEye, IconEyeOff } from '../../../components/icons.tsx';
import type { SecondStep, SignInResultData } from '../../../lib/sign-in.ts';
import { useSignInAttempt } from '../hooks/use-sign-in-attempt.ts';
import type { SignInFieldErrors } from '../utils/sign-in-logic.ts';
import classes from './login-page.module.css';
import { Notice } from './notice.tsx';

export interface SignInFormProps {
  /** The address to sign in with, when the page before knows it (a password was just set): filled in, password focused. */
  initialEmail?: string | null | undefined;
  /** The server signed the person in: the page goes on (the form stays busy meanwhile). */
  onSignedIn: (result: SignInResultData) => void;
  /** The password was right and a second step follows (the page shows it instead of the form). */
  onSecondStep: (step: SecondStep) => void;
}

export function SignInForm({ initialEmail, onSignedIn, onSecondStep }: SignInFormProps) {
  const { t } = useTranslation(['auth', 'shared']);
  const id = useId();
  const [values, setValues] = useState({ email: initialEmail ?? '', password: '' });
  const { attempt, run, say, failure } = useSignInAttempt(onSignedIn, onSecondStep);
  const [fieldErrors, setFieldErrors] = useState<SignInFieldErrors>({});
  const [passwordShown, setPasswordShown] = useState(false);
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (initialEmail) passwordRef.current?.focus();
  }, [initialEmail]);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    run('form', (loaded) => {
      const checked = loaded.validateSignIn(values);
      if (!checked.ok) {
        setFieldErrors(checked.errors);
        (checked.errors.email ? emailRef : passwordRef).current?.focus();
        return null;
      }
      setFieldErrors({});
      return loaded.signIn(checked.data);
    });
  };

  const update = (field: keyof SignInFieldErrors, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (fieldErrors[field]) setFieldErrors((current) => ({ ...current, [field]: undefined }));
  };

  const result = attempt.state === 'answered' ? attempt.result : null;
  const failureText = failure(t('shared:messages.invalidCredentials'));
  const pendingStep = result?.nextStep && result.nextStep !== 'DONE' ? result.nextStep : null;
  const emailError = fieldErrors.email ? say(fieldErrors.email, t('email')) : null;
  const passwordError = fieldErrors.password ? say(fieldErrors.password, t('password')) : null;
  const busy = attempt.state === 'pending';

  return (
    <form className={classes.form} onSubmit={onSubmit} noValidate aria-label={t('heading')}>
      {failureText ? (
        <Notice tone="error" title={t('shared:messages.loginFailed')}>
          {failureText}
        </Notice>
      ) : null}
      {pendingStep ? (
        <Notice tone="warning" title={t('additionalSteps')}>
          {t('additionalStepsBody', { step: pendingStep })}
        </Notice>
      ) : null}

      <div className={classes.field}>
        <RequiredLabel htmlFor="sign-in-email">{t('email')}</RequiredLabel>
        <input
          ref={emailRef}
          id="sign-in-email"
          className={classes.input}
          type="email"
          name="email"
          autoComplete="username"
          inputMode="email"
          placeholder={t('emailPlaceholder')}
          required
          aria-invalid={emailError ? true : undefined}
          aria-describedby={emailError ? `${id}-email-error` : undefined}
          value={values.email}
          onChange={(event) => {
            update('email', event.currentTarget.value);
          }}
        />
        {emailError ? (
          <p className={classes.fieldError} id={`${id}-email-error`}>
            {emailError}
          </p>
        ) : null}
      </div>

      <div className={classes.field}>
        <RequiredLabel htmlFor="sign-in-password">{t('password')}</RequiredLabel>
        <div className={classes.inputBox}>
          <input
            ref={passwordRef}
            id="sign-in-password"
            className={classes.passwordInput}
            type={passwordShown ? 'text' : 'password'}
            name="password"
            autoComplete="current-password"
            required
            aria-invalid={passwordError ? true : undefined}
            aria-describedby={passwordError ? `${id}-password-error` : undefined}
            value={values.password}
            onChange={(event) => {
              update('password', event.currentTarget.value);
            }}
          />
          <button
            type="button"
            className={classes.reveal}
            aria-label={t('showPassword')}
            aria-pressed={passwordShown}
            onClick={() => {
              setPasswordShown((shown) => !shown);
            }}
          >
            {passwordShown ? <IconEyeOff /> : <IconEye />}
          </button>
        </div>
        {passwordError ? (
          <p className={classes.fieldError} id={`${id}-password-error`}>
            {passwordError}
          </p>
        ) : null}
      </div>

      <a className={classes.forgot} href="/forgot-password">
        {t('forgotPassword')}
      </a>

      <button type="submit" className={classes.primaryButton} disabled={busy} aria-busy={busy}>
        {busy ? (
          <>
            <span className={classes.spinner} aria-hidden />
            {t('signingIn')}
          </>
        ) : (
          t('signIn')
        )}
      </button>
    </form>
  );
}

/** A required field's label: the star is for the eye; the input's `required` says it to assistive technology. */
function RequiredLabel({ htmlFor, children }: { htmlFor: string; children: string }) {
  return (
    <label className={classes.label} htmlFor={htmlFor}>
      {children}
      <span className={classes.required} aria-hidden>
        *
      </span>
    </label>
  );
}
