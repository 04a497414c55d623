import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { INVITATION_VALID_HOURS } from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { useCurrentUser } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { LOGIN_PATH } from '../../../lib/login-handoff.ts';
import { fieldErrorsFromServer } from '../../../lib/form-errors.ts';
import { invitationStatusQueryOptions, useAcceptInvitation } from '../api/account-setup-api.ts';
import {
  tokenFailureReason,
  tokenFromHash,
  validateNewPassword,
  type NewPasswordErrors,
} from '../utils/account-setup.ts';
import { AccountFrame } from './account-frame.tsx';
import { GoToSignInButton } from './go-to-sign-in-button.tsx';
import { PasswordFields } from './password-fields.tsx';

type Refusal = 'invalid' | 'expired' | 'used';

/** `/invite#TOKEN`: the invited person sets a first password, then signs in. */
export function InviteScreen() {
  const { t } = useTranslation('account');
  const { hash } = useLocation();
  const token = tokenFromHash(hash);
  const status = useQuery({ ...invitationStatusQueryOptions(token ?? ''), enabled: token !== null });
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [doneEmail, setDoneEmail] = useState<string | null>(null);

  if (doneEmail !== null) {
    return (
      <AccountFrame title={t('invite.doneTitle')}>
        <Text>{t('invite.doneBody', { email: doneEmail })}</Text>
        <GoToSignInButton email={doneEmail} />
      </AccountFrame>
    );
  }

  const state: Refusal | 'valid' | 'pending' | 'error' =
    token === null
      ? 'invalid'
      : (refusal ?? (status.isPending ? 'pending' : status.isError ? 'error' : status.data.status));

  if (state === 'pending') {
    return (
      <AccountFrame title={t('invite.title')}>
        <LoadingLine label={t('invite.checking')} />
      </AccountFrame>
    );
  }
  if (state === 'error') {
    return (
      <AccountFrame title={t('invite.title')}>
        <Alert color="red" variant="light" role="alert">
          {describeError(status.error)}
        </Alert>
      </AccountFrame>
    );
  }
  if (state !== 'valid') return <InvitationRefused reason={state} />;
  return (
    <AcceptForm
      token={token ?? ''}
      email={status.data?.email ?? ''}
      expiresAt={status.data?.expiresAt ?? null}
      onRefused={setRefusal}
      onDone={setDoneEmail}
    />
  );
}

function InvitationRefused({ reason }: { reason: Refusal }) {
  const { t } = useTranslation('account');
  return (
    <AccountFrame title={t(`invite.${reason}Title`)}>
      <Alert color={reason === 'used' ? 'blue' : 'yellow'} variant="light" role="alert">
        <Text size="sm">{t(`invite.${reason}Next`, { hours: INVITATION_VALID_HOURS })}</Text>
      </Alert>
      <Group gap="sm">
        <Button component="a" href={LOGIN_PATH} variant={reason === 'used' ? 'filled' : 'default'}>
          {t('goToSignIn')}
        </Button>
        {reason === 'used' ? (
          <Button component={Link} to="/forgot-password" variant="subtle">
            {t('forgot.title')}
          </Button>
        ) : null}
      </Group>
    </AccountFrame>
  );
}

function AcceptForm({
  token,
  email,
  expiresAt,
  onRefused,
  onDone,
}: {
  token: string;
  email: string;
  expiresAt: string | null;
  onRefused: (reason: Refusal) => void;
  onDone: (email: string) => void;
}) {
  const { t, i18n } = useTranslation('account');
  const { data: user } = useCurrentUser();
  const accept = useAcceptInvitation();
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<NewPasswordErrors>({});
  // The error itself, worded when shown, so the words follow a change of language.
  const [failure, setFailure] = useState<unknown>(null);

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (accept.isPending) return;
    const problems = validateNewPassword(password, confirm, t('passwordsDiffer'));
    setErrors(problems);
    if (problems.password || problems.confirm) {
      document.getElementById(problems.password ? 'new-password' : 'confirm-password')?.focus();
      return;
    }
    setFailure(null);
    accept.mutate(
      { token, password },
      {
        onSuccess: (result) => {
          onDone(result.email);
        },
        onError: (error) => {
          const reason = tokenFailureReason(error);
          if (reason) {
            onRefused(reason);
            return;
          }
          const fieldErrors = fieldErrorsFromServer(error);
          if (fieldErrors?.['password']) setErrors({ password: fieldErrors['password'] });
          else setFailure(error);
        },
      },
    );
  };

  return (
    <AccountFrame title={t('invite.title')}>
      {user ? (
        <Alert color="yellow" variant="light">
          {t('invite.signedIn', { email: user.email })}
        </Alert>
      ) : null}
      <Text>{t('invite.intro', { email })}</Text>
      {expiresAt ? (
        <Text size="sm" c="dimmed">
          {t('invite.expiresAt', {
            date: new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
              new Date(expiresAt),
            ),
          })}
        </Text>
      ) : null}
      <form onSubmit={onSubmit} noValidate aria-label={t('invite.title')}>
        <Stack gap="md">
          {/* The address, for password managers. */}
          <input type="email" name="email" autoComplete="username" value={email} readOnly hidden />
          <PasswordFields
            password={password}
            confirm={confirm}
            onPasswordChange={(value) => {
              setPassword(value);
              setErrors({});
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
              {describeError(failure)}
            </Alert>
          ) : null}
          <Button type="submit" loading={accept.isPending}>
            {t('invite.submit')}
          </Button>
        </Stack>
      </form>
    </AccountFrame>
  );
}
