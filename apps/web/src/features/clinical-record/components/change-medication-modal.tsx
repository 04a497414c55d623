import { Modal, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import {
  ChangeMedicationInputSchema,
  MEDICATION_REASON_MAX,
  type MedicationChangeKind,
  type MedicationStatus,
} from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { FormFooter } from '../../../components/form-footer.tsx';
import { useSchemaForm } from '../../../hooks/use-schema-form.ts';
import { useChangeMedication, type Medication } from '../api/medications-api.ts';
import { DoseFields, doseInput, EMPTY_DOSE, type DoseDraft } from './dose-fields.tsx';

/** The changes a medication in each status can take (the server holds the same rule). */
export const CHANGES_FROM: Record<MedicationStatus, readonly MedicationChangeKind[]> = {
  active: ['dose-changed', 'held', 'stopped'],
  held: ['resumed', 'dose-changed', 'stopped'],
  stopped: [],
};

/** The medication's current dose as the form's starting point for a new one. */
function currentDose(medication: Medication): DoseDraft {
  return {
    strength: medication.strength ?? '',
    doseAmount: medication.doseAmount ?? '',
    doseUnit: medication.doseUnit ?? EMPTY_DOSE.doseUnit,
    route: medication.route ?? EMPTY_DOSE.route,
    frequency: medication.frequency ?? EMPTY_DOSE.frequency,
    asNeeded: medication.asNeeded ?? false,
    asNeededReason: medication.asNeededReason ?? '',
  };
}

/**
 * Records one change of a medication, dated (today unless another day is given) with its reason: a new dose, held,
 * resumed or stopped. From a note, `noteId` links the change to it.
 */
export function ChangeMedicationModal({
  medication,
  initialKind,
  noteId = null,
  onClose,
}: {
  medication: Medication;
  initialKind: MedicationChangeKind;
  noteId?: string | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('clinical-record');
  const change = useChangeMedication();
  const [kind, setKind] = useState<MedicationChangeKind>(initialKind);
  const [effectiveDate, setEffectiveDate] = useState('');
  const [reason, setReason] = useState('');
  const [dose, setDose] = useState<DoseDraft>(() => currentDose(medication));
  const name = medication.drugName;
  const { submit, errors, fieldError, failure, pending } = useSchemaForm({
    schema: ChangeMedicationInputSchema,
    read: () => ({
      id: medication.id,
      kind,
      effectiveDate,
      reason,
      noteId,
      dose: kind === 'dose-changed' ? doseInput(dose) : null,
    }),
    mutation: change,
    onDone: onClose,
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('medications.change.title', { name })}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <NativeSelect
            label={t('medications.change.kind')}
            required
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value as MedicationChangeKind)}
            data={CHANGES_FROM[medication.status].map((k) => ({ value: k, label: t(`medications.change.kinds.${k}`) }))}
            error={fieldError('kind')}
          />
          {kind === 'dose-changed' ? (
            <DoseFields dose={dose} onChange={setDose} errors={errors} errorPrefix="dose." />
          ) : null}
          <TextInput
            type="date"
            label={t('medications.change.effectiveDate')}
            description={t('medications.change.effectiveDateHint')}
            value={effectiveDate}
            onChange={(e) => setEffectiveDate(e.currentTarget.value)}
            error={fieldError('effectiveDate')}
          />
          <Textarea
            label={t('medications.change.reason')}
            required
            autosize
            minRows={2}
            maxLength={MEDICATION_REASON_MAX}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={fieldError('reason')}
          />
          {noteId ? (
            <Text size="sm" c="dimmed">
              {t('medications.change.fromNote')}
            </Text>
          ) : null}
          <FormFooter
            failure={failure}
            pending={pending}
            onCancel={onClose}
            cancelLabel={t('cancel')}
            submitLabel={t('medications.change.save')}
          />
        </Stack>
      </form>
    </Modal>
  );
}
