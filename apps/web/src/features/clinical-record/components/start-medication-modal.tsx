import {
  Autocomplete,
  Group,
  Modal,
  NativeSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import {
  DRUG_CLASS_LABELS,
  DRUG_CLASSES,
  DRUG_NAME_MAX,
  findCatalogueDrug,
  FORM_LABELS,
  MEDICATION_FORMS,
  MEDICATION_REASON_MAX,
  PRESCRIBER_MAX,
  QUANTITY_MAX,
  REFILLS_MAX,
  searchMedications,
  StartMedicationInputSchema,
  type DrugClass,
  type MedicationForm,
} from '@telehealth/shared';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';

import { ToneBadge } from '../../../components/tone-badge.tsx';
import { useCurrentUser } from '../../../lib/auth.ts';
import { FormFooter } from '../../../components/form-footer.tsx';
import { useSchemaForm } from '../../../hooks/use-schema-form.ts';
import { usePatientDiagnoses } from '../api/diagnoses-api.ts';
import { useStartMedication } from '../api/medications-api.ts';
import { labelLanguage } from '../utils/label-language.ts';
import { DoseFields, doseInput, EMPTY_DOSE, type DoseDraft } from './dose-fields.tsx';

/**
 * Starts a medication: the drug picked from the catalogue as it is typed (generic or brand name; its class, DEA
 * schedule, usual strengths and forms come with it) or typed in with a class chosen by hand, then the structured
 * dose, quantity, refills, prescriber (the provider, unless changed), indication (one of the patient's
 * diagnoses), start date and why. From a note, `noteId` links the start to it.
 */
export function StartMedicationModal({
  patientId,
  noteId = null,
  onClose,
}: {
  patientId: string;
  noteId?: string | null;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation('clinical-record');
  const language = labelLanguage(i18n.language);
  const { data: user } = useCurrentUser();
  const start = useStartMedication();
  const diagnoses = usePatientDiagnoses(patientId);
  const [drugName, setDrugName] = useState('');
  const [drugClass, setDrugClass] = useState<DrugClass | ''>('');
  const [form, setForm] = useState<MedicationForm | ''>('');
  const [dose, setDose] = useState<DoseDraft>(EMPTY_DOSE);
  const [quantity, setQuantity] = useState<number | ''>('');
  const [refills, setRefills] = useState<number | ''>('');
  const [prescriber, setPrescriber] = useState(user?.name ?? '');
  const [indicationId, setIndicationId] = useState('');
  const [startDate, setStartDate] = useState('');
  const [reason, setReason] = useState('');
  const catalogued = useMemo(() => findCatalogueDrug(drugName.trim()), [drugName]);
  const suggestions = useMemo(() => searchMedications(drugName, 12), [drugName]);

  const { submit, errors, fieldError, failure, pending } = useSchemaForm({
    schema: StartMedicationInputSchema,
    read: () => ({
      patientId,
      drugName,
      drugClass: catalogued ? null : drugClass || null,
      form: form || null,
      ...doseInput(dose),
      quantity: quantity === '' ? null : quantity,
      refills: refills === '' ? null : refills,
      prescriber,
      indicationId: indicationId || null,
      startDate,
      reason,
      noteId,
    }),
    mutation: start,
    onDone: onClose,
  });
  return (
    <Modal
      opened
      onClose={onClose}
      size="lg"
      title={t('medications.form.startTitle')}
      closeButtonProps={{ 'aria-label': t('close') }}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Autocomplete
            label={t('medications.form.drug')}
            description={t('medications.form.drugHint')}
            required
            maxLength={DRUG_NAME_MAX}
            value={drugName}
            onChange={setDrugName}
            data={suggestions.map((d) => d.generic)}
            filter={({ options }) => options}
            renderOption={({ option }) => {
              const drug = suggestions.find((d) => d.generic === option.value);
              return (
                <Text size="sm">
                  <strong>{option.value}</strong>
                  {drug && drug.brands.length > 0 ? ` (${drug.brands.join(', ')})` : ''}
                </Text>
              );
            }}
            error={fieldError('drugName')}
          />
          {catalogued ? (
            <Group gap="xs" data-testid="catalogue-drug">
              <ToneBadge tone="violet">{DRUG_CLASS_LABELS[catalogued.drugClass][language]}</ToneBadge>
              {catalogued.controlledSchedule ? (
                <ToneBadge tone="orange">
                  {t('medications.schedule', { schedule: catalogued.controlledSchedule })}
                </ToneBadge>
              ) : null}
            </Group>
          ) : drugName.trim() ? (
            <>
              <Text size="sm" c="dimmed">
                {t('medications.form.notInCatalogue')}
              </Text>
              <NativeSelect
                label={t('medications.form.drugClass')}
                value={drugClass}
                onChange={(e) => setDrugClass(e.currentTarget.value as DrugClass | '')}
                data={[
                  { value: '', label: t('medications.form.noClass') },
                  ...DRUG_CLASSES.map((c) => ({ value: c, label: DRUG_CLASS_LABELS[c][language] })),
                ]}
                error={fieldError('drugClass')}
              />
            </>
          ) : null}
          <NativeSelect
            label={t('medications.form.form')}
            value={form}
            onChange={(e) => setForm(e.currentTarget.value as MedicationForm | '')}
            data={[
              { value: '', label: t('medications.form.noForm') },
              ...(catalogued?.forms ?? MEDICATION_FORMS).map((f) => ({ value: f, label: FORM_LABELS[f][language] })),
            ]}
            error={fieldError('form')}
          />
          <DoseFields dose={dose} onChange={setDose} strengths={catalogued?.strengths ?? []} errors={errors} />
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            <NumberInput
              label={t('medications.form.quantity')}
              min={0}
              max={QUANTITY_MAX}
              allowDecimal={false}
              allowNegative={false}
              value={quantity}
              onChange={(value) => setQuantity(typeof value === 'number' ? value : '')}
              error={fieldError('quantity')}
            />
            <NumberInput
              label={t('medications.form.refills')}
              min={0}
              max={REFILLS_MAX}
              allowDecimal={false}
              allowNegative={false}
              value={refills}
              onChange={(value) => setRefills(typeof value === 'number' ? value : '')}
              error={fieldError('refills')}
            />
          </SimpleGrid>
          <TextInput
            label={t('medications.form.prescriber')}
            maxLength={PRESCRIBER_MAX}
            value={prescriber}
            onChange={(e) => setPrescriber(e.currentTarget.value)}
            error={fieldError('prescriber')}
          />
          <NativeSelect
            label={t('medications.form.indication')}
            value={indicationId}
            onChange={(e) => setIndicationId(e.currentTarget.value)}
            data={[
              { value: '', label: t('medications.form.noIndication') },
              ...(diagnoses.data ?? []).map((d) => ({ value: d.id, label: `${d.code} ${d.title}` })),
            ]}
            error={fieldError('indicationId')}
          />
          <TextInput
            type="date"
            label={t('medications.form.startDate')}
            description={t('medications.form.startDateHint')}
            value={startDate}
            onChange={(e) => setStartDate(e.currentTarget.value)}
            error={fieldError('startDate')}
          />
          <Textarea
            label={t('medications.form.startReason')}
            autosize
            minRows={2}
            maxLength={MEDICATION_REASON_MAX}
            value={reason}
            onChange={(e) => setReason(e.currentTarget.value)}
            error={fieldError('reason')}
          />
          <FormFooter
            failure={failure}
            pending={pending}
            onCancel={onClose}
            cancelLabel={t('cancel')}
            submitLabel={t('medications.form.startButton')}
          />
        </Stack>
      </form>
    </Modal>
  );
}
