import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { IconCheck } from '../../../components/icons.tsx';
import { describeError } from '../../../lib/errors.ts';
import { useDeletePatient } from '../api/delete-patient.ts';
import type { PatientSummary } from '../api/patient-schemas.ts';

export interface DeletePatientModalProps {
  /** The patient to delete; null keeps the dialog closed. */
  patient: PatientSummary | null;
  onClose: () => void;
  onDeleted: (patient: PatientSummary) => void;
}

/** Asks before deleting, in the specification's words; the outcome is a notification, not a browser alert. */
export function DeletePatientModal({ patient, onClose, onDeleted }: DeletePatientModalProps) {
  const { t } = useTranslation(['patients', 'shared']);
  const deletion = useDeletePatient();
  // The closing animation keeps showing the last patient rather than an empty dialog.
  const [lastPatient, setLastPatient] = useState(patient);
  if (patient !== null && patient !== lastPatient) setLastPatient(patient);
  const shown = patient ?? lastPatient;

  const confirm = () => {
    if (!patient) return;
    deletion.mutate(patient.id, {
      onSuccess: () => {
        notifications.show({
          color: 'teal',
          icon: <IconCheck size={18} />,
          message: t('shared:patientMessages.deleted'),
        });
        onDeleted(patient);
      },
      onError: (error) => {
        notifications.show({
          color: 'red',
          autoClose: false,
          message: t('delete.failed', { message: describeError(error) }),
        });
        onClose();
      },
    });
  };

  return (
    <Modal
      opened={patient !== null}
      onClose={() => {
        if (!deletion.isPending) onClose();
      }}
      title={t('delete.title')}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
      centered
      // The safe choice has the focus: Enter must not delete a record.
      trapFocus
      closeButtonProps={{ 'aria-label': t('delete.close') }}
    >
      {shown ? (
        <Stack gap="md">
          <Text>{t('delete.confirmation', { firstName: shown.firstName, lastName: shown.lastName })}</Text>
          <Text size="sm" c="dimmed">
            {t('delete.retention')}
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose} disabled={deletion.isPending} data-autofocus>
              {t('delete.cancel')}
            </Button>
            <Button color="red.9" onClick={confirm} loading={deletion.isPending}>
              {t('delete.confirm')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}
