import { Alert, Button, Group, Modal, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { DisableTwoFactorInputSchema, issueMessage } from '@telehealth/shared';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { describeError } from '../../../lib/errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useDisableTwoFactor } from '../api/two-factor-api.ts';

type Field = 'code' | 'password';

/** Turning two-factor off: the password and a current code (or a recovery code), as the server asks. */
export function DisableTwoFactorModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation(['security', 'auth']);
  const disable = useDisableTwoFactor();
  const [values, setValues] = useState<Record<Field, string>>({ code: '', password: '' });
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});

  const close = () => {
    if (disable.isPending) return;
    setValues({ code: '', password: '' });
    setErrors({});
    disable.reset();
    onClose();
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const parsed = DisableTwoFactorInputSchema.safeParse(values);
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0];
        if ((field === 'code' || field === 'password') && !found[field]) found[field] = errorText(issueMessage(issue));
      }
      setErrors(found);
      return;
    }
    setErrors({});
    disable.mutate(parsed.data, { onSuccess: close });
  };

  const set = (field: Field, value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
  };

  return (
    <Modal opened={opened} onClose={close} title={t('disableHeading')}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="md">
          <Text size="sm">{t('disableBody')}</Text>
          {disable.isError ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(disable.error)}
            </Alert>
          ) : null}
          <PasswordInput
            label={t('auth:password')}
            autoComplete="current-password"
            required
            value={values.password}
            error={errors.password}
            onChange={(event) => {
              set('password', event.currentTarget.value);
            }}
          />
          <TextInput
            label={t('disableCodeLabel')}
            autoComplete="one-time-code"
            required
            value={values.code}
            error={errors.code}
            onChange={(event) => {
              set('code', event.currentTarget.value);
            }}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={close} disabled={disable.isPending}>
              {t('cancel')}
            </Button>
            <Button type="submit" color="red.9" loading={disable.isPending}>
              {t('turnOff')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
