import {
  Alert,
  Button,
  Grid,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { MAX_AGE_YEARS, TEXT_LIMITS, todayIsoDate } from '@telehealth/shared';
import { useMemo, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';

import { CrisisLines } from '../../../components/crisis-lines/index.ts';
import { IconCheck, IconShield } from '../../../components/icons.tsx';
import { useSpecialtyLabel } from '../../../hooks/use-specialty-label.ts';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromServer, hasPublicMessage, type FieldErrors } from '../../../lib/form-errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useCreatePatient } from '../api/create-patient.ts';
import type { Patient } from '../api/patient-schemas.ts';
import { useProviderOptions } from '../api/provider-options.ts';
import { useUpdatePatient } from '../api/update-patient.ts';
import { patientFullName } from '../utils/format.ts';
import {
  emptyPatientFormValues,
  firstInvalidField,
  patientToFormValues,
  REQUIRED_PATIENT_FIELDS,
  validateCreatePatient,
  validateUpdatePatient,
  type PatientFormField,
  type PatientFormValues,
  type PatientTextField,
} from '../utils/patient-form-values.ts';
import { FormSection } from './form-section.tsx';
import classes from './patient-form.module.css';

export type PatientFormProps =
  | { mode: 'create'; canAssignOwner: boolean; patient?: undefined }
  | { mode: 'edit'; canAssignOwner: boolean; patient: Patient };

type FormMessage = { kind: 'error' | 'info'; text: string } | null;

const CLINICAL_LIMITS = {
  reasonForCare: TEXT_LIMITS.generic,
  allergies: TEXT_LIMITS.allergies,
  currentMedications: TEXT_LIMITS.currentMedications,
  medicalHistory: TEXT_LIMITS.medicalHistory,
} as const;
type ClinicalField = keyof typeof CLINICAL_LIMITS;

function fieldId(field: PatientFormField): string {
  return `patient-${field}`;
}

/** The earliest date of birth the form offers (the age limit), as YYYY-MM-DD. */
function earliestDateOfBirth(): string {
  const today = todayIsoDate();
  return `${Number(today.slice(0, 4)) - MAX_AGE_YEARS}${today.slice(4)}`;
}

/**
 * New Patient Registration and Edit Patient: every field in sections, checked with the shared schemas before
 * sending, messages at the fields (from the browser's check or the server's `fieldErrors`), a failure message
 * above the buttons.
 */
export function PatientForm(props: PatientFormProps) {
  const { mode, canAssignOwner, patient } = props;
  const { t } = useTranslation(['patients', 'shared']);
  const navigate = useNavigate();
  // The record as it was when the form opened: the changes are counted from here, so a background refresh of
  // the record never turns someone else's newer value into "a change" of this person's.
  const [initial] = useState<PatientFormValues>(() =>
    patient ? patientToFormValues(patient) : emptyPatientFormValues(),
  );
  const [values, setValues] = useState<PatientFormValues>(initial);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<FormMessage>(null);
  const createPatient = useCreatePatient();
  const updatePatient = useUpdatePatient();
  const saving = createPatient.isPending || updatePatient.isPending;
  const permissions = { canAssignOwner };

  const label = (field: PatientTextField) => t(`shared:patientLabels.${field}`);
  /** A field's message in the reader's language (the schemas and the server say it in English). */
  const errorFor = (field: PatientFormField, fieldLabel?: string) => {
    const text = errors[field];
    return text === undefined ? undefined : errorText(text, { label: fieldLabel });
  };

  const setField = <F extends PatientFormField>(field: F, value: PatientFormValues[F]) => {
    setValues((current) => ({ ...current, [field]: value }));
    // A message belongs to the value it was about.
    setErrors((current) => {
      if (!(field in current)) return current;
      const { [field]: _removed, ...rest } = current;
      return rest;
    });
    if (message?.kind === 'info') setMessage(null);
  };

  const showErrors = (fieldErrors: FieldErrors, text: string) => {
    setErrors(fieldErrors);
    setMessage({ kind: 'error', text });
    const first = firstInvalidField(fieldErrors);
    if (first) document.getElementById(fieldId(first))?.focus();
  };

  const onServerError = (error: unknown, fallback: string) => {
    const fieldErrors = fieldErrorsFromServer(error) ?? {};
    const text = hasPublicMessage(error) ? describeError(error) : fallback;
    if (Object.keys(fieldErrors).length > 0) showErrors(fieldErrors, text);
    else setMessage({ kind: 'error', text });
  };

  const onSubmit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (saving) return;
    if (mode === 'create') {
      const result = validateCreatePatient(values, permissions);
      if (!result.ok) {
        showErrors(result.errors, t('form.fixErrors', { count: Object.keys(result.errors).length }));
        return;
      }
      setMessage(null);
      createPatient.mutate(result.data, {
        onSuccess: (created) => {
          notifications.show({
            color: 'teal',
            icon: <IconCheck size={18} />,
            message: t('form.created', { name: patientFullName(created) }),
          });
          void navigate('/patients');
        },
        onError: (error) => {
          onServerError(error, t('shared:patientMessages.createFailed'));
        },
      });
      return;
    }

    const result = validateUpdatePatient(patient.id, initial, values, permissions);
    if (result.changedCount === 0) {
      setErrors({});
      setMessage({ kind: 'info', text: t('form.noChanges') });
      return;
    }
    if (!result.ok) {
      showErrors(result.errors, t('form.fixErrors', { count: Object.keys(result.errors).length }));
      return;
    }
    setMessage(null);
    updatePatient.mutate(result.data, {
      onSuccess: (updated) => {
        notifications.show({
          color: 'teal',
          icon: <IconCheck size={18} />,
          message: t('form.saved', { name: patientFullName(updated) }),
        });
        void navigate('/patients');
      },
      onError: (error) => {
        onServerError(error, t('form.saveFailed'));
      },
    });
  };

  /** The props every text input shares: id, label, value, message, required mark. */
  const textProps = (field: PatientTextField): TextInputProps => ({
    id: fieldId(field),
    label: label(field),
    value: values[field],
    onChange: (event) => {
      setField(field, event.currentTarget.value);
    },
    error: errorFor(field, label(field)),
    required: REQUIRED_PATIENT_FIELDS.includes(field),
    // The person typing is entering someone else's details: the browser must not offer their own.
    autoComplete: 'off',
  });

  const clinicalProps = (field: ClinicalField) => {
    const length = values[field].length;
    const max = CLINICAL_LIMITS[field];
    return {
      id: fieldId(field),
      label: label(field),
      value: values[field],
      onChange: (event: ChangeEvent<HTMLTextAreaElement>) => {
        setField(field, event.currentTarget.value);
      },
      error: errorFor(field, label(field)),
      autosize: true,
      minRows: 3,
      maxRows: 10,
      description: (
        <Text span size="xs" c={length > max ? 'red.9' : 'dimmed'} fw={length > max ? 700 : undefined}>
          {t('form.characters', { count: length, max })}
        </Text>
      ),
      inputWrapperOrder: ['label', 'input', 'description', 'error'] as ('label' | 'input' | 'description' | 'error')[],
    };
  };

  const showCareSection = canAssignOwner || mode === 'edit';
  const submitLabel =
    mode === 'create' ? (saving ? t('form.creating') : t('form.create')) : saving ? t('form.saving') : t('form.save');

  return (
    <Grid gap="lg">
      <Grid.Col span={{ base: 12, lg: 8 }}>
        <form onSubmit={onSubmit} noValidate aria-labelledby="patient-form-title" aria-busy={saving}>
          <Stack gap="lg">
            <FormSection title={t('form.sections.personal')} description={t('form.sections.personalDescription')}>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
                <TextInput {...textProps('firstName')} />
                <TextInput {...textProps('lastName')} />
                <TextInput
                  {...textProps('email')}
                  type="email"
                  inputMode="email"
                  placeholder={t('form.placeholders.email')}
                />
                <TextInput
                  {...textProps('phone')}
                  type="tel"
                  inputMode="tel"
                  placeholder={t('form.placeholders.phone')}
                  description={t('form.hints.phone')}
                  inputWrapperOrder={['label', 'input', 'description', 'error']}
                />
                <TextInput {...textProps('dateOfBirth')} type="date" min={earliestDateOfBirth()} max={todayIsoDate()} />
              </SimpleGrid>
            </FormSection>

            {showCareSection ? (
              <FormSection title={t('form.sections.care')} description={t('form.sections.careDescription')}>
                {canAssignOwner ? (
                  <OwnerSelect
                    value={values.owner}
                    onChange={(owner) => {
                      setField('owner', owner);
                    }}
                    error={errorFor('owner')}
                  />
                ) : null}
                {mode === 'edit' ? (
                  <Switch
                    id={fieldId('isActive')}
                    label={t('form.isActive')}
                    description={t('form.isActiveHint')}
                    checked={values.isActive}
                    onChange={(event) => {
                      setField('isActive', event.currentTarget.checked);
                    }}
                    error={errorFor('isActive', t('form.isActive'))}
                    size="md"
                  />
                ) : null}
              </FormSection>
            ) : null}

            <FormSection title={t('form.sections.address')}>
              <TextInput {...textProps('street')} placeholder={t('form.placeholders.street')} />
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md" verticalSpacing="md">
                <TextInput {...textProps('city')} />
                <TextInput {...textProps('state')} />
                <TextInput
                  {...textProps('zipCode')}
                  inputMode="numeric"
                  placeholder={t('form.placeholders.zipCode')}
                  description={t('form.hints.zipCode')}
                  inputWrapperOrder={['label', 'input', 'description', 'error']}
                />
              </SimpleGrid>
            </FormSection>

            <FormSection title={t('form.sections.emergency')} description={t('form.sections.emergencyDescription')}>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
                <TextInput {...textProps('emergencyContactName')} />
                <TextInput
                  {...textProps('emergencyContactPhone')}
                  type="tel"
                  inputMode="tel"
                  placeholder={t('form.placeholders.phone')}
                />
              </SimpleGrid>
            </FormSection>

            <FormSection title={t('form.sections.insurance')}>
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md" verticalSpacing="md">
                <TextInput {...textProps('insuranceProvider')} />
                <TextInput
                  {...textProps('insurancePolicyNumber')}
                  placeholder={t('form.placeholders.insurancePolicyNumber')}
                  description={t('form.hints.insurancePolicyNumber')}
                  inputWrapperOrder={['label', 'input', 'description', 'error']}
                />
              </SimpleGrid>
            </FormSection>

            <FormSection title={t('form.sections.clinical')} description={t('form.sections.clinicalDescription')}>
              <Textarea {...clinicalProps('reasonForCare')} />
              <Textarea {...clinicalProps('allergies')} />
              <Textarea {...clinicalProps('currentMedications')} />
              <Textarea {...clinicalProps('medicalHistory')} />
            </FormSection>

            {message ? (
              <Alert
                color={message.kind === 'error' ? 'red' : 'blue'}
                variant="light"
                role={message.kind === 'error' ? 'alert' : 'status'}
              >
                {message.text}
              </Alert>
            ) : null}

            <Group justify="flex-end" gap="sm">
              <Button component={Link} to="/patients" variant="default" size="md">
                {t('form.cancel')}
              </Button>
              <Button type="submit" size="md" disabled={saving}>
                {submitLabel}
              </Button>
            </Group>
          </Stack>
        </form>
      </Grid.Col>

      <Grid.Col span={{ base: 12, lg: 4 }}>
        <Stack gap="md" className={classes.aside}>
          <CrisisLines />
          <Paper withBorder p="md">
            <Group gap="sm" wrap="nowrap" align="flex-start">
              <IconShield size={22} style={{ flexShrink: 0, color: 'var(--mantine-color-clinical-8)' }} />
              <Stack gap={4}>
                <Text fw={650} size="sm">
                  {t('form.privacyTitle')}
                </Text>
                <Text size="sm" c="dimmed">
                  {t('form.privacyBody')}
                </Text>
              </Stack>
            </Group>
          </Paper>
        </Stack>
      </Grid.Col>
    </Grid>
  );
}

/** Administrators choose the primary provider from the practice's providers (value: the provider's account id). */
function OwnerSelect({
  value,
  onChange,
  error,
}: {
  value: string | null;
  onChange: (owner: string | null) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation('patients');
  const specialtyLabel = useSpecialtyLabel();
  const providers = useProviderOptions(true);
  const data = useMemo(() => {
    const options = (providers.data ?? []).map((provider) => ({
      value: provider.owner,
      label: `${provider.firstName} ${provider.lastName} · ${specialtyLabel(provider.specialty)}${
        provider.isActive ? '' : ` (${t('form.ownerInactive')})`
      }`,
    }));
    // A provider that is no longer listed still shows as the current choice.
    if (value && !options.some((option) => option.value === value)) options.push({ value, label: value });
    return options;
  }, [providers.data, value, t, specialtyLabel]);

  return (
    <Select
      id={fieldId('owner')}
      label={t('form.owner')}
      description={t('form.ownerHint')}
      placeholder={t('form.ownerPlaceholder')}
      data={data}
      value={value}
      onChange={onChange}
      clearable
      clearButtonProps={{ 'aria-label': t('form.clearOwner') }}
      searchable
      nothingFoundMessage={t('form.noProviders')}
      error={
        error ??
        (providers.isError ? t('form.ownerLoadFailed', { message: describeError(providers.error) }) : undefined)
      }
      disabled={providers.isPending}
      maw={480}
    />
  );
}
