import { Alert, Anchor, Button, Stack, Text, TextInput } from '@mantine/core';
import {
  EmailSchema,
  issueMessage,
  PASSWORD_RESET_CODE_LENGTH,
  PASSWORD_RESET_VALID_MINUTES,
  RequestPasswordResetInputSchema,
  type CodedMessage,
} from '@telehealth/shared';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

import { describeError } from '../../../lib/errors.ts';
import { LOGIN_PATH } from '../../../lib/login-handoff.ts';
import { fieldErrorsFromServer } from '../../../lib/form-errors.ts';
import { coded, errorText, isCodedMessage } from '../../../lib/error-text.ts';
import { useRequestPasswordReset, useResetPassword, type ResetPasswordVariables } from '../api/account-setup-api.ts';
import {
  tokenFailureReason,
  tokenFromHash,
  validateNewPassword,
  type NewPasswordErrors,
} from '../utils/account-setup.ts';
import { AccountFrame } from './account-frame.tsx';
import { GoToSignInButton } from './go-to-sign-in-button.tsx';
import { PasswordFields } from './password-fields.tsx';

/** The last step of every reset: the password is changed; sign in again. */
function ResetDone({ email }: { email: string | null }) {
  const { t } = useTranslation('account');
  return (
    <AccountFrame title={t('doneTitle')}>
      <Alert color="teal" variant="light" role="status">
        {errorText(coded('passwordResetMessages.done'))}
      </Alert>
      <GoToSignInButton email={email} />
    </AccountFrame>
  );
}

/** `/forgot-password`: the e-mail, then the 6-digit code with a new password. */
export function ForgotPasswordScreen() {
  const { t, i18n } = useTranslation('account');
  const request = useRequestPasswordReset();
  const [email, setEmail] = useState('');
  const [emailError, setEmailError] = useState<CodedMessage | null>(null);
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [done, setDone] = useState(false);

  if (done) return <ResetDone email={sentTo} />;

  if (sentTo !== null) {
    return (
      <AccountFrame title={t('forgot.codeTitle')}>
        <Alert color="blue" variant="light" role="status">
          {errorText(coded('passwordResetMessages.requested'))}
        </Alert>
        <NewPasswordForm
          proof={(newPassword, code) => ({ email: sentTo, code: code ?? '', newPassword })}
          withCode
          onDone={() => {
            setDone(true);
          }}
        />
        <Anchor
          component="button"
          type="button"
          size="sm"
          onClick={() => {
            setSentTo(null);
            request.reset();
          }}
          style={{ alignSelf: 'flex-start' }}
        >
          {t('forgot.differentEmail')}
        </Anchor>
      </AccountFrame>
    );
  }

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (request.isPending) return;
    const parsed = EmailSchema.safeParse(email);
    if (!parsed.success) {
      setEmailError(issueMessage(parsed.error.issues[0]!));
      document.getElementById('reset-email')?.focus();
      return;
    }
    const locale = RequestPasswordResetInputSchema.shape.locale.safeParse(i18n.language.slice(0, 2));
    request.mutate(
      { email: parsed.data, locale: locale.success ? (locale.data ?? null) : null },
      {
        onSuccess: () => {
          setSentTo(parsed.data);
        },
      },
    );
  };

  return (
    <AccountFrame title={t('forgot.title')}>
      <Text>{t('forgot.intro', { digits: PASSWORD_RESET_CODE_LENGTH, minutes: PASSWORD_RESET_VALID_MINUTES })}</Text>
      <form onSubmit={onSubmit} noValidate aria-label={t('forgot.title')}>
        <Stack gap="md">
          <TextInput
            id="reset-email"
            type="email"
            label={t('forgot.email')}
            autoComplete="email"
            required
            value={email}
            onChange={(event) => {
              setEmail(event.currentTarget.value);
              setEmailError(null);
            }}
            error={emailError ? errorText(emailError, { label: t('forgot.email') }) : undefined}
          />
          {request.isError ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(request.error)}
            </Alert>
          ) : null}
          <Button type="submit" loading={request.isPending}>
            {t('forgot.send')}
          </Button>
          <Anchor href={LOGIN_PATH} size="sm">
            {t('backToSignIn')}
          </Anchor>
        </Stack>
      </form>
    </AccountFrame>
  );
}

/** `/reset-password#TOKEN`: the link from the e-mail; a new password is all it asks. */
export function ResetPasswordScreen() {
  const { t } = useTranslation('account');
  const { hash } = useLocation();
  const token = tokenFromHash(hash);
  // The address the server answers: the link itself does not say it.
  const [doneFor, setDoneFor] = useState<string | null>(null);
  if (doneFor !== null) return <ResetDone email={doneFor || null} />;
  return (
    <AccountFrame title={t('reset.title')}>
      {token === null ? (
        <>
          <Alert color="yellow" variant="light" role="alert">
            {t('reset.missingToken')}
          </Alert>
          <Button component={Link} to="/forgot-password" style={{ alignSelf: 'flex-start' }}>
            {t('reset.useCode')}
          </Button>
        </>
      ) : (
        <>
          <Text>{t('reset.intro')}</Text>
          <NewPasswordForm
            proof={(newPassword) => ({ token, newPassword })}
            onDone={(email) => {
              setDoneFor(email);
            }}
          />
        </>
      )}
    </AccountFrame>
  );
}

function NewPasswordForm({
  proof,
  withCode = false,
  onDone,
}: {
  proof: (newPassword: string, code: string | null) => ResetPasswordVariables;
  withCode?: boolean;
  onDone: (email: string) => void;
}) {
  const { t } = useTranslation('account');
  const reset = useResetPassword();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<NewPasswordErrors & { code?: CodedMessage }>({});
  // What went wrong, worded when shown (so the words follow a change of language).
  const [failure, setFailure] = useState<{ error: unknown; requestNew: boolean } | null>(null);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (reset.isPending) return;
    const problems: NewPasswordErrors & { code?: CodedMessage } = validateNewPassword(
      password,
      confirm,
      t('passwordsDiffer'),
    );
    if (withCode && !new RegExp(`^\\d{${PASSWORD_RESET_CODE_LENGTH}}$`).test(code.trim())) {
      problems.code = coded('passwordResetMessages.codeFormat');
    }
    setErrors(problems);
    const first = problems.code
      ? 'reset-code'
      : problems.password
        ? 'new-password'
        : problems.confirm
          ? 'confirm-password'
          : null;
    if (first) {
      document.getElementById(first)?.focus();
      return;
    }
    setFailure(null);
    reset.mutate(proof(password, withCode ? code.trim() : null), {
      onSuccess: (result) => {
        onDone(result.email);
      },
      onError: (error) => {
        const reason = tokenFailureReason(error);
        if (reason) {
          setFailure({
            error: coded(reason === 'expired' ? 'passwordResetMessages.expired' : 'passwordResetMessages.invalid'),
            requestNew: true,
          });
          return;
        }
        const fieldErrors = fieldErrorsFromServer(error);
        if (fieldErrors && (fieldErrors['code'] || fieldErrors['newPassword'])) {
          setErrors({
            ...(fieldErrors['code'] ? { code: fieldErrors['code'] } : {}),
            ...(fieldErrors['newPassword'] ? { password: fieldErrors['newPassword'] } : {}),
          });
          return;
        }
        setFailure({ error, requestNew: false });
      },
    });
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('reset.title')}>
      <Stack gap="md">
        {withCode ? (
          <TextInput
            id="reset-code"
            label={t('forgot.code', { digits: PASSWORD_RESET_CODE_LENGTH })}
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={PASSWORD_RESET_CODE_LENGTH}
            required
            value={code}
            onChange={(event) => {
              setCode(event.currentTarget.value);
              setErrors(({ code: _code, ...rest }) => rest);
            }}
            error={errors.code ? errorText(errors.code) : undefined}
          />
        ) : null}
        <PasswordFields
          password={password}
          confirm={confirm}
          onPasswordChange={(value) => {
            setPassword(value);
            setErrors(({ password: _password, confirm: _confirm, ...rest }) => rest);
          }}
          onConfirmChange={(value) => {
            setConfirm(value);
            setErrors(({ confirm: _confirm, ...rest }) => rest);
          }}
          passwordError={errors.password}
          confirmError={errors.confirm}
        />
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            <Stack gap={4}>
              <Text size="sm">
                {isCodedMessage(failure.error) ? errorText(failure.error) : describeError(failure.error)}
              </Text>
              {failure.requestNew ? (
                <Anchor component={Link} to="/forgot-password" size="sm" fw={600}>
                  {t('reset.requestNew')}
                </Anchor>
              ) : null}
            </Stack>
          </Alert>
        ) : null}
        <Button type="submit" loading={reset.isPending}>
          {t('forgot.submit')}
        </Button>
      </Stack>
    </form>
  );
}
