import {
  issueMessage,
  PRACTICE_SETTING_KEYS,
  UpdatePracticeSettingsInputSchema,
  type AppointmentType,
  type BookingMode,
  type PracticeSettings,
  type PracticeSettingsChange,
  type OptionalIntakeSection,
  type Role,
  type VisitCodingAfter,
} from '@telehealth/shared';
import { useState } from 'react';

import type { FieldErrors } from '../../../lib/form-errors.ts';

export interface WorkingHoursRow {
  /** A key for React only. */
  id: number;
  weekday: string;
  startTime: string;
  endTime: string;
}

/** The settings as the form holds them (numbers as typed). */
export interface SettingsFormValues {
  practiceName: string;
  clinicPhone: string;
  timeZone: string;
  workingHours: WorkingHoursRow[];
  changeWindowHours: number | string;
  minNoticeHours: number | string;
  horizonDays: number | string;
  appointmentTypes: AppointmentType[];
  mode: BookingMode;
  duration: string;
  slotStepMinutes: string;
  reminderHours: string;
  messageResponseBusinessDays: number | string;
  sessionIdleMinutes: number | string;
  twoFactorRequiredRoles: Role[];
  recordingRetentionDays: number | string;
  intakeSections: OptionalIntakeSection[];
  videoConsentRequired: boolean;
  /** The practice's billing identity, as typed: all blank (none) or all filled. */
  billingIdentity: BillingIdentityFormValues;
  visitCodingAfter: VisitCodingAfter;
}

export interface BillingIdentityFormValues {
  legalName: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  taxId: string;
}

const NO_BILLING_IDENTITY: BillingIdentityFormValues = {
  legalName: '',
  street: '',
  city: '',
  state: '',
  zip: '',
  taxId: '',
};

let nextRowId = 1;

export function toFormValues(settings: PracticeSettings): SettingsFormValues {
  const policy = settings.bookingPolicy;
  return {
    practiceName: settings.practiceName,
    clinicPhone: settings.clinicPhone ?? '',
    timeZone: settings.timeZone,
    workingHours: settings.defaultWorkingHours.map((interval) => ({
      id: nextRowId++,
      weekday: String(interval.weekday),
      startTime: interval.startTime,
      endTime: interval.endTime,
    })),
    changeWindowHours: policy.changeWindowHours,
    minNoticeHours: policy.minNoticeHours,
    horizonDays: policy.horizonDays,
    appointmentTypes: [...policy.appointmentTypes],
    mode: policy.mode,
    duration: String(policy.duration),
    slotStepMinutes: String(settings.slotStepMinutes),
    reminderHours: settings.reminderHours.join(', '),
    messageResponseBusinessDays: settings.messageResponseBusinessDays,
    sessionIdleMinutes: settings.sessionIdleMinutes,
    twoFactorRequiredRoles: [...settings.twoFactorRequiredRoles],
    recordingRetentionDays: settings.recordingRetentionDays,
    intakeSections: [...settings.intakeSections],
    videoConsentRequired: settings.videoConsentRequired,
    billingIdentity: { ...NO_BILLING_IDENTITY, ...settings.billingIdentity },
    visitCodingAfter: settings.visitCodingAfter,
  };
}

/** A number as typed: '' and text that is not a number stay as they are, for the schema to refuse. */
function numberOf(value: number | string): unknown {
  if (typeof value === 'number') return value;
  const trimmed = value.trim();
  return trimmed !== '' && Number.isFinite(Number(trimmed)) ? Number(trimmed) : trimmed;
}

/** The form's values as the settings they stand for (unchecked). */
function toSettings(values: SettingsFormValues): Record<keyof PracticeSettings, unknown> {
  return {
    practiceName: values.practiceName,
    clinicPhone: values.clinicPhone.trim() === '' ? null : values.clinicPhone,
    timeZone: values.timeZone,
    defaultWorkingHours: values.workingHours.map((row) => ({
      weekday: Number(row.weekday),
      startTime: row.startTime,
      endTime: row.endTime,
    })),
    bookingPolicy: {
      changeWindowHours: numberOf(values.changeWindowHours),
      minNoticeHours: numberOf(values.minNoticeHours),
      horizonDays: numberOf(values.horizonDays),
      appointmentTypes: values.appointmentTypes,
      mode: values.mode,
      duration: Number(values.duration),
    },
    slotStepMinutes: Number(values.slotStepMinutes),
    reminderHours: values.reminderHours
      .split(',')
      .map((part) => part.trim())
      .filter(Boolean)
      .map(numberOf),
    messageResponseBusinessDays: numberOf(values.messageResponseBusinessDays),
    sessionIdleMinutes: numberOf(values.sessionIdleMinutes),
    twoFactorRequiredRoles: values.twoFactorRequiredRoles,
    recordingRetentionDays: numberOf(values.recordingRetentionDays),
    intakeSections: values.intakeSections,
    videoConsentRequired: values.videoConsentRequired,
    // All blank is no identity; anything typed is checked whole (a field left blank is refused by its schema).
    billingIdentity: Object.values(values.billingIdentity).every((value: string) => value.trim() === '')
      ? null
      : values.billingIdentity,
    visitCodingAfter: values.visitCodingAfter,
  };
}

/** JSON with object keys sorted: equal settings compare equal. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The settings the form changes, checked with the shared schema (the server checks them again): the changed
 * settings only, or a message per field (`bookingPolicy.changeWindowHours`) when one is refused.
 */
export function validateSettingsChange(
  values: SettingsFormValues,
  current: PracticeSettings,
): { ok: true; change: PracticeSettingsChange } | { ok: false; errors: FieldErrors } {
  const settings = toSettings(values);
  const input: Record<string, unknown> = {};
  for (const key of PRACTICE_SETTING_KEYS) {
    if (stableJson(settings[key]) !== stableJson(current[key])) input[key] = settings[key];
  }
  if (Object.keys(input).length === 0) return { ok: true, change: {} };
  const parsed = UpdatePracticeSettingsInputSchema.safeParse(input);
  if (parsed.success) {
    // The parsed values may be normalised (sorted hours): compare again, so a reordering alone saves nothing.
    const change: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(parsed.data)) {
      if (value !== undefined && stableJson(value) !== stableJson(current[key as keyof PracticeSettings])) {
        change[key] = value;
      }
    }
    return { ok: true, change };
  }
  const errors: FieldErrors = {};
  for (const issue of parsed.error.issues) {
    const field = issue.path.length > 0 ? issue.path.join('.') : 'form';
    errors[field] ??= issueMessage(issue);
  }
  return { ok: false, errors };
}

/** The settings form's state: values, per-field errors, and a setter per field. */
export function useSettingsForm(initial: PracticeSettings) {
  const [values, setValues] = useState<SettingsFormValues>(() => toFormValues(initial));
  const [errors, setErrors] = useState<FieldErrors>({});
  const setField = <K extends keyof SettingsFormValues>(field: K, value: SettingsFormValues[K]) => {
    setValues((previous) => ({ ...previous, [field]: value }));
  };
  return {
    values,
    errors,
    setErrors,
    setField,
    setBillingIdentityField: (field: keyof BillingIdentityFormValues, value: string) => {
      setValues((previous) => ({ ...previous, billingIdentity: { ...previous.billingIdentity, [field]: value } }));
    },
    reset: (settings: PracticeSettings) => {
      setValues(toFormValues(settings));
      setErrors({});
    },
    addWorkingHours: () => {
      setValues((previous) => ({
        ...previous,
        workingHours: [
          ...previous.workingHours,
          { id: nextRowId++, weekday: '1', startTime: '09:00', endTime: '17:00' },
        ],
      }));
    },
    updateWorkingHours: (id: number, patch: Partial<Omit<WorkingHoursRow, 'id'>>) => {
      setValues((previous) => ({
        ...previous,
        workingHours: previous.workingHours.map((row) => (row.id === id ? { ...row, ...patch } : row)),
      }));
    },
    removeWorkingHours: (id: number) => {
      setValues((previous) => ({ ...previous, workingHours: previous.workingHours.filter((row) => row.id !== id) }));
    },
  };
}
