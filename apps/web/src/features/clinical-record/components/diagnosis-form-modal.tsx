import { Alert, Autocomplete, Checkbox, Modal, NativeSelect, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import {
  AddDiagnosisInputSchema,
  DIAGNOSIS_COMMENT_MAX,
  DIAGNOSIS_STATUSES,
  DIAGNOSIS_TITLE_MAX,
  ICD10_CODE_PATTERN,
  normalizeIcd10Code,
  UpdateDiagnosisInputSchema,
  type DiagnosisStatus,
} from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { FormFooter } from '../../../components/form-footer.tsx';
import { useSchemaForm } from '../../../hooks/use-schema-form.ts';
import { useAddDiagnosis, useDiagnosisCodes, useUpdateDiagnosis, type Diagnosis } from '../api/diagnoses-api.ts';

/**
 * Adds a diagnosis (`diagnosis` null) or changes one. The code is picked from the product's ICD-10-CM list as it
 * is typed (by code or by words of the title); a well-formed code that is not in the list may still be entered,
 * with a warning and a title of the provider's own. A change keeps the code and title and writes a new version.
 */
export function DiagnosisFormModal({
  patientId,
  diagnosis,
  onClose,
}: {
  patientId: string;
  diagnosis: Diagnosis | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('clinical-record');
  const add = useAddDiagnosis();
  const update = useUpdateDiagnosis();
  const [code, setCode] = useState('');
  const [title, setTitle] = useState('');
  const [status, setStatus] = useState<DiagnosisStatus>(diagnosis?.status ?? 'active');
  const [onsetDate, setOnsetDate] = useState(diagnosis?.onsetDate ?? '');
  const [primary, setPrimary] = useState(diagnosis?.primary ?? false);
  const [comment, setComment] = useState(diagnosis?.comment ?? '');
  const [debounced] = useDebouncedValue(code, 250);
  const codes = useDiagnosisCodes(diagnosis ? '' : debounced);
  const typed = normalizeIcd10Code(code);
  const match = codes.data?.find((c) => c.code === typed) ?? null;
  // A complete code of the right shape that the list does not hold: allowed, with a warning and a title.
  const offList = !diagnosis && ICD10_CODE_PATTERN.test(typed) && debounced === code && !codes.isFetching && !match;

  const fields = { status, onsetDate, primary, comment };
  // Both forms' hooks, always (the rules of hooks); the dialog uses the one it is for.
  const addForm = useSchemaForm({
    schema: AddDiagnosisInputSchema,
    read: () => ({ patientId, code, title: offList ? title : null, ...fields }),
    mutation: add,
    onDone: onClose,
  });
  const updateForm = useSchemaForm({
    schema: UpdateDiagnosisInputSchema,
    read: () => ({ id: diagnosis?.id, ...fields }),
    mutation: update,
    onDone: onClose,
  });
  const { submit, fieldError, failure, pending } = diagnosis ? updateForm : addForm;
  return (
    <Modal
      opened
      onClose={onClose}
      title={diagnosis ? t('diagnoses.form.editTitle', { code: diagnosis.code }) : t('diagnoses.form.addTitle')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          {diagnosis ? (
            <Text fw={600}>
              {diagnosis.code} {diagnosis.title}
            </Text>
          ) : (
            <>
              <Autocomplete
                label={t('diagnoses.form.code')}
                description={t('diagnoses.form.codeHint')}
                required
                value={code}
                onChange={setCode}
                data={(codes.data ?? []).map((c) => c.code)}
                // The server already matched the codes and words; show what it answered.
                filter={({ options }) => options}
                renderOption={({ option }) => (
                  <Text size="sm">
                    <strong>{option.value}</strong> {codes.data?.find((c) => c.code === option.value)?.title}
                  </Text>
                )}
                maxDropdownHeight={280}
                error={fieldError('code')}
              />
              {match ? (
                <Text size="sm" data-testid="diagnosis-code-title">
                  {match.title}
                </Text>
              ) : null}
              {offList ? (
                <>
                  <Alert color="orange" variant="light" title={t('diagnoses.form.offListTitle')}>
                    {t('diagnoses.form.offList')}
                  </Alert>
                  <TextInput
                    label={t('diagnoses.form.title')}
                    required
                    maxLength={DIAGNOSIS_TITLE_MAX}
                    value={title}
                    onChange={(e) => setTitle(e.currentTarget.value)}
                    error={fieldError('title')}
                  />
                </>
              ) : null}
            </>
          )}
          <NativeSelect
            label={t('diagnoses.form.status')}
            required
            value={status}
            onChange={(e) => setStatus(e.currentTarget.value as DiagnosisStatus)}
            data={DIAGNOSIS_STATUSES.map((s) => ({ value: s, label: t(`diagnoses.status.${s}`) }))}
            error={fieldError('status')}
          />
          <TextInput
            type="date"
            label={t('diagnoses.form.onset')}
            value={onsetDate}
            onChange={(e) => setOnsetDate(e.currentTarget.value)}
            error={fieldError('onsetDate')}
          />
          <Checkbox
            label={t('diagnoses.form.primary')}
            description={t('diagnoses.form.primaryHint')}
            checked={primary}
            onChange={(e) => setPrimary(e.currentTarget.checked)}
          />
          <Textarea
            label={t('diagnoses.form.comment')}
            autosize
            minRows={2}
            maxLength={DIAGNOSIS_COMMENT_MAX}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            error={fieldError('comment')}
          />
          <FormFooter
            failure={failure}
            pending={pending}
            onCancel={onClose}
            cancelLabel={t('cancel')}
            submitLabel={diagnosis ? t('diagnoses.form.save') : t('diagnoses.form.addButton')}
          />
        </Stack>
      </form>
    </Modal>
  );
}
