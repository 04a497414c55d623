import { Modal, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import {
  AddAllergyInputSchema,
  ALLERGY_CATEGORIES,
  ALLERGY_REACTION_MAX,
  ALLERGY_REMOVAL_REASON_MAX,
  ALLERGY_SEVERITIES,
  ALLERGY_SUBSTANCE_MAX,
  RemoveAllergyInputSchema,
  type AllergySeverity,
} from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { FormFooter } from '../../../components/form-footer.tsx';
import { useSchemaForm } from '../../../hooks/use-schema-form.ts';
import { useAddAllergy, useRemoveAllergy, type Allergy } from '../api/allergies-api.ts';

/** Adds an allergy to the patient's list: the substance, its reaction, severity, category and when it was noted. */
export function AllergyFormModal({ patientId, onClose }: { patientId: string; onClose: () => void }) {
  const { t } = useTranslation('clinical-record');
  const add = useAddAllergy();
  const [substance, setSubstance] = useState('');
  const [reaction, setReaction] = useState('');
  const [severity, setSeverity] = useState<AllergySeverity>('unknown');
  const [category, setCategory] = useState('');
  const [notedDate, setNotedDate] = useState('');
  const { submit, fieldError, failure, pending } = useSchemaForm({
    schema: AddAllergyInputSchema,
    read: () => ({
      patientId,
      substance,
      reaction,
      severity,
      category: category || null,
      notedDate,
    }),
    mutation: add,
    onDone: onClose,
  });
  return (
    <Modal
      opened
      onClose={onClose}
      title={t('allergies.form.addTitle')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <TextInput
            label={t('allergies.form.substance')}
            description={t('allergies.form.substanceHint')}
            required
            data-autofocus
            maxLength={ALLERGY_SUBSTANCE_MAX}
            value={substance}
            onChange={(e) => setSubstance(e.currentTarget.value)}
            error={fieldError('substance')}
          />
          <TextInput
            label={t('allergies.form.reaction')}
            maxLength={ALLERGY_REACTION_MAX}
            value={reaction}
            onChange={(e) => setReaction(e.currentTarget.value)}
            error={fieldError('reaction')}
          />
          <NativeSelect
            label={t('allergies.form.severity')}
            required
            value={severity}
            onChange={(e) => setSeverity(e.currentTarget.value as AllergySeverity)}
            data={ALLERGY_SEVERITIES.map((s) => ({ value: s, label: t(`allergies.severity.${s}`) }))}
            error={fieldError('severity')}
          />
          <NativeSelect
            label={t('allergies.form.category')}
            value={category}
            onChange={(e) => setCategory(e.currentTarget.value)}
            data={[
              { value: '', label: t('allergies.form.noCategory') },
              ...ALLERGY_CATEGORIES.map((c) => ({ value: c, label: t(`allergies.category.${c}`) })),
            ]}
            error={fieldError('category')}
          />
          <TextInput
            type="date"
            label={t('allergies.form.notedDate')}
            value={notedDate}
            onChange={(e) => setNotedDate(e.currentTarget.value)}
            error={fieldError('notedDate')}
          />
          <FormFooter
            failure={failure}
            pending={pending}
            onCancel={onClose}
            cancelLabel={t('cancel')}
            submitLabel={t('allergies.form.addButton')}
          />
        </Stack>
      </form>
    </Modal>
  );
}

/** Removes an allergy from the list, with an optional reason: it stays in the record, marked removed. */
export function RemoveAllergyModal({ allergy, onClose }: { allergy: Allergy; onClose: () => void }) {
  const { t } = useTranslation('clinical-record');
  const remove = useRemoveAllergy();
  const [reason, setReason] = useState('');
  const { submit, fieldError, failure, pending } = useSchemaForm({
    schema: RemoveAllergyInputSchema,
    read: () => ({ id: allergy.id, reason }),
    mutation: remove,
    onDone: onClose,
  });

  return (
    <Modal
      opened
      onClose={onClose}
      title={t('allergies.removeForm.title', { substance: allergy.substance })}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t('allergies.removeForm.explain')}</Text>
          <Textarea
            label={t('allergies.removeForm.reason')}
            autosize
            minRows={2}
            maxLength={ALLERGY_REMOVAL_REASON_MAX}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={fieldError('reason')}
          />
          <FormFooter
            failure={failure}
            pending={pending}
            onCancel={onClose}
            cancelLabel={t('cancel')}
            submitLabel={t('allergies.removeForm.confirm')}
            danger
          />
        </Stack>
      </form>
    </Modal>
  );
}
