import { Alert, Button, Group, Modal, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { EMERGENCY_REASON_MAX, EMERGENCY_REASON_MIN, RequestEmergencyAccessInputSchema } from '@telehealth/shared';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';

import { describeError } from '../../../lib/errors.ts';
import type { CodedMessage } from '@telehealth/shared';

import { fieldErrorsFromZod } from '../../../lib/form-errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useRequestEmergencyAccess, type EmergencyGrant } from '../api/emergency-access-api.ts';

/**
 * The reason dialog of emergency access: for the patient of a chart the provider was refused (`patientId`), or
 * found by exact first name, last name and date of birth. Validated with the server's own schema first.
 */
export function EmergencyAccessDialog({
  opened,
  onClose,
  patientId,
  onGranted,
}: {
  opened: boolean;
  onClose: () => void;
  patientId?: string;
  onGranted?: (grant: EmergencyGrant) => void;
}) {
  const { t } = useTranslation('emergency-access');
  const request = useRequestEmergencyAccess();
  const [values, setValues] = useState({ firstName: '', lastName: '', dateOfBirth: '', reason: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (field: keyof typeof values) => (value: string) => setValues((v) => ({ ...v, [field]: value }));

  const close = () => {
    request.reset();
    setErrors({});
    onClose();
  };

  // Each field's own wording where the dialog has one, chosen by what is wrong; else the schema's message by id.
  const messageFor = (field: string, message: CodedMessage): string => {
    if (field === 'reason') {
      const reason = values.reason.trim();
      if (reason === '') return t('dialog.reasonRequired');
      if (reason.length < EMERGENCY_REASON_MIN) return t('dialog.reasonTooShort', { min: EMERGENCY_REASON_MIN });
      return errorText(message);
    }
    if (!values[field as keyof typeof values].trim()) return t('dialog.identityRequired');
    return errorText(message);
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input = patientId
      ? { patientId, reason: values.reason }
      : {
          firstName: values.firstName,
          lastName: values.lastName,
          dateOfBirth: values.dateOfBirth,
          reason: values.reason,
        };
    const parsed = RequestEmergencyAccessInputSchema.safeParse(input);
    if (!parsed.success) {
      const found = fieldErrorsFromZod(parsed.error);
      setErrors(
        Object.fromEntries(Object.entries(found).map(([field, message]) => [field, messageFor(field, message)])),
      );
      return;
    }
    setErrors({});
    request.mutate(input, {
      onSuccess: (grant) => {
        close();
        onGranted?.(grant);
      },
    });
  };

  return (
    <Modal
      opened={opened}
      onClose={close}
      title={t('dialog.title')}
      closeButtonProps={{ 'aria-label': t('dialog.close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('dialog.intro')}</Text>
          {patientId ? null : (
            <>
              <Text size="sm">{t('dialog.identityIntro')}</Text>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
                <TextInput
                  label={t('dialog.firstName')}
                  required
                  autoComplete="off"
                  value={values.firstName}
                  onChange={(e) => set('firstName')(e.currentTarget.value)}
                  error={errors['firstName']}
                />
                <TextInput
                  label={t('dialog.lastName')}
                  required
                  autoComplete="off"
                  value={values.lastName}
                  onChange={(e) => set('lastName')(e.currentTarget.value)}
                  error={errors['lastName']}
                />
              </SimpleGrid>
              <TextInput
                type="date"
                label={t('dialog.dateOfBirth')}
                required
                value={values.dateOfBirth}
                onChange={(e) => set('dateOfBirth')(e.currentTarget.value)}
                error={errors['dateOfBirth']}
              />
            </>
          )}
          <Textarea
            label={t('dialog.reason')}
            description={t('dialog.reasonHint', { min: EMERGENCY_REASON_MIN })}
            required
            autosize
            minRows={3}
            maxLength={EMERGENCY_REASON_MAX}
            value={values.reason}
            onChange={(e) => set('reason')(e.currentTarget.value)}
            error={errors['reason']}
          />
          {request.error ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(request.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              {t('dialog.cancel')}
            </Button>
            <Button type="submit" color="red" loading={request.isPending}>
              {t('dialog.submit')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
