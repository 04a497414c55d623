import { notifications } from '@mantine/notifications';
import { useState, type SubmitEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';

import { IconCheck } from '../../../components/icons.tsx';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromServer, hasPublicMessage, type FieldErrors } from '../../../lib/form-errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import { useCreatePatient } from '../api/create-patient.ts';
import type { Patient } from '../api/patient-schemas.ts';
import { useUpdatePatient } from '../api/update-patient.ts';
import { patientFullName } from '../utils/format.ts';
import {
  emptyPatientFormValues,
  firstInvalidField,
  patientToFormValues,
  validateCreatePatient,
  validateUpdatePatient,
  type PatientFormField,
  type PatientFormValues,
} from '../utils/patient-form-values.ts';

export type PatientFormMode =
  | { mode: 'create'; canAssignOwner: boolean; patient?: undefined }
  | { mode: 'edit'; canAssignOwner: boolean; patient: Patient };

type FormMessage = { kind: 'error' | 'info'; text: string } | null;

/** The id of a field's input, so that a failed check can move the focus to it. */
export function patientFieldId(field: PatientFormField): string {
  return `patient-${field}`;
}

/**
 * The state of New Patient Registration and Edit Patient: the values, the messages at the fields (from the
 * browser's check or the server's `fieldErrors`), the message above the buttons, and one submit path that checks
 * with the shared schemas, sends, and goes back to the list.
 */
export function usePatientForm({ mode, canAssignOwner, patient }: PatientFormMode) {
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
    if (first) document.getElementById(patientFieldId(first))?.focus();
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

  return { values, message, saving, setField, errorFor, onSubmit };
}
