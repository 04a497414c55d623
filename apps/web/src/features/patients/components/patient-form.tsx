import {
  Alert,
  Button,
  Grid,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  Textarea,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import { MAX_AGE_YEARS, TEXT_LIMITS, todayIsoDate } from '@telehealth/shared';
import type { ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { CrisisLines } from '../../../components/crisis-lines/index.ts';
import { IconShield } from '../../../components/icons.tsx';
import { patientFieldId, usePatientForm, type PatientFormMode } from '../hooks/use-patient-form.tsx';
import { REQUIRED_PATIENT_FIELDS, type PatientTextField } from '../utils/patient-form-values.ts';
import { FormSection } from './form-section.tsx';
import { OwnerSelect } from './owner-select.tsx';
import classes from './patient-form.module.css';

export type PatientFormProps = PatientFormMode;

const CLINICAL_LIMITS = {
  reasonForCare: TEXT_LIMITS.generic,
  allergies: TEXT_LIMITS.allergies,
  currentMedications: TEXT_LIMITS.currentMedications,
  medicalHistory: TEXT_LIMITS.medicalHistory,
} as const;
type ClinicalField = keyof typeof CLINICAL_LIMITS;

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
  const { mode, canAssignOwner } = props;
  const { t } = useTranslation(['patients', 'shared']);
  const { values, message, saving, setField, errorFor, onSubmit } = usePatientForm(props);
  const label = (field: PatientTextField) => t(`shared:patientLabels.${field}`);

  /** The props every text input shares: id, label, value, message, required mark. */
  const textProps = (field: PatientTextField): TextInputProps => ({
    id: patientFieldId(field),
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
      id: patientFieldId(field),
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
                    id={patientFieldId('isActive')}
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
