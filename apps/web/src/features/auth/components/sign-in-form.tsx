import { Alert, Anchor, Button, Group, PasswordInput, Stack, TextInput } from '@mantine/core';
import { SignInInputSchema, type SignInInput } from '@telehealth/shared';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { describeError } from '../../../lib/errors.ts';
import { translateMessage } from '../../../lib/translate-message.ts';
import { useSignIn } from '../api/sign-in.ts';

type FieldErrors = Partial<Record<keyof SignInInput, string>>;

/** Checks the form with the shared schema; the first problem of each field is shown at that field. */
export function validateSignIn(values: {
  email: string;
  password: string;
}): { ok: true; data: SignInInput } | { ok: false; errors: FieldErrors } {
  const parsed = SignInInputSchema.safeParse(values);
  if (parsed.success) return { ok: true, data: parsed.data };
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path[0];
    if ((field === 'email' || field === 'password') && !errors[field]) errors[field] = issue.message;
  }
  return { ok: false, errors };
}

export interface SignInFormProps {
  /** The address to sign in with, when the page before knows it (a password was just set): filled in, password focused. */
  initialEmail?: string | null | undefined;
}

export function SignInForm({ initialEmail }: SignInFormProps) {
  const { t } = useTranslation(['auth', 'shared']);
  const [values, setValues] = useState({ email: initialEmail ?? '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<FieldErrors>({});
  const signIn = useSignIn();
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    if (initialEmail) passwordRef.current?.focus();
  }, [initialEmail]);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const result = validateSignIn(values);
    if (!result.ok) {
      setFieldErrors(result.errors);
      const firstInvalid = result.errors.email ? 'email' : 'password';
      document.getElementById(`sign-in-${firstInvalid}`)?.focus();
      return;
    }
    setFieldErrors({});
    signIn.mutate(result.data);
  };

  const update = (field: keyof SignInInput) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    if (fieldErrors[field]) setFieldErrors((current) => ({ ...current, [field]: undefined }));
  };

  // Messages stay in English (the shared schema's, the server's) and are said in the page's language when shown.
  const result = signIn.data;
  const failure = signIn.error
    ? translateMessage(describeError(signIn.error))
    : result && !result.success
      ? result.error
        ? translateMessage(result.error)
        : t('shared:messages.invalidCredentials')
      : null;
  const emailError = fieldErrors.email ? translateMessage(fieldErrors.email, { label: t('email') }) : undefined;
  const passwordError = fieldErrors.password
    ? translateMessage(fieldErrors.password, { label: t('password') })
    : undefined;
  const pendingStep = result?.success && result.nextStep && result.nextStep !== 'DONE' ? result.nextStep : null;

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('heading')}>
      <Stack gap="md">
        {failure ? (
          <Alert color="red" variant="light" title={t('shared:messages.loginFailed')} role="alert">
            {failure}
          </Alert>
        ) : null}
        {pendingStep ? (
          <Alert color="yellow" variant="light" title={t('additionalSteps')} role="alert">
            {t('additionalStepsBody', { step: pendingStep })}
          </Alert>
        ) : null}
        <TextInput
          id="sign-in-email"
          label={t('email')}
          placeholder={t('emailPlaceholder')}
          type="email"
          autoComplete="username"
          inputMode="email"
          required
          size="md"
          value={values.email}
          onChange={(event) => {
            update('email')(event.currentTarget.value);
          }}
          error={emailError}
        />
        <PasswordInput
          ref={passwordRef}
          id="sign-in-password"
          label={t('password')}
          autoComplete="current-password"
          required
          size="md"
          value={values.password}
          onChange={(event) => {
            update('password')(event.currentTarget.value);
          }}
          error={passwordError}
        />
        <Group justify="flex-end" mt={-6}>
          <Anchor component={Link} to="/forgot-password" size="sm" fw={600}>
            {t('forgotPassword')}
          </Anchor>
        </Group>
        <Button
          type="submit"
          size="md"
          fullWidth
          loading={signIn.isPending}
          loaderProps={{ 'aria-label': t('signingIn') }}
        >
          {t('signIn')}
        </Button>
      </Stack>
    </form>
  );
}
