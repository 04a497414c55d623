import { messageSection } from './field-messages.ts';
import { z } from 'zod';
import { APPOINTMENT_DURATIONS, APPOINTMENT_TYPES, ClockTimeSchema } from './appointments.ts';
import { isTimeZone } from './practice-dates.ts';
import { WEEKDAYS, type WorkingHoursInterval } from './working-hours.ts';
import { BOOKING_MODES, type BookingPolicy } from './patient-booking.ts';
import { PhoneSchema } from './patients.ts';
import { ROLES, type Role } from './roles.ts';
import { SLOT_STEPS, type SlotStep } from './slots.ts';
import { textSchema } from './text.ts';
import { BillingIdentitySchema, VISIT_CODING_AFTER, type BillingIdentity, type VisitCodingAfter } from './billing.ts';
import { IntakeSectionsSettingSchema, OPTIONAL_INTAKE_SECTIONS, type OptionalIntakeSection } from './intake.ts';

/** Every optional intake section: the built-in default of the intake sections setting. */
export const DEFAULT_INTAKE_SECTIONS: OptionalIntakeSection[] = [...OPTIONAL_INTAKE_SECTIONS];

/*
 * The practice's settings (decision 032): stored in the database, changed by administrators at /admin/settings,
 * used at once by every server instance. An environment variable of the same meaning is the default until an
 * administrator changes the setting. One schema per setting, used by the form and again by the server.
 */

export const PRACTICE_SETTING_KEYS = [
  'practiceName',
  'clinicPhone',
  'timeZone',
  'defaultWorkingHours',
  'bookingPolicy',
  'slotStepMinutes',
  'reminderHours',
  'messageResponseBusinessDays',
  'sessionIdleMinutes',
  'twoFactorRequiredRoles',
  'recordingRetentionDays',
  'intakeSections',
  'videoConsentRequired',
  'billingIdentity',
  'visitCodingAfter',
] as const;
export type PracticeSettingKey = (typeof PRACTICE_SETTING_KEYS)[number];

export function isPracticeSettingKey(value: unknown): value is PracticeSettingKey {
  return typeof value === 'string' && (PRACTICE_SETTING_KEYS as readonly string[]).includes(value);
}

/** The values every part of the server reads at call time (`settings.current()`). */
export interface PracticeSettings {
  practiceName: string;
  /** Null: no number (the banner's Call button and "call the clinic at" are left out). */
  clinicPhone: string | null;
  /** The IANA zone of every appointment date and time. */
  timeZone: string;
  /** A provider's weekly hours until they set their own. */
  defaultWorkingHours: WorkingHoursInterval[];
  /** What patients may book and change online (decision 030). */
  bookingPolicy: BookingPolicy;
  /** How far apart the start times offered to staff and patients are (decision 045): 15 or 30 minutes. */
  slotStepMinutes: SlotStep;
  /** Hours before a visit at which its reminders go out, largest first. */
  reminderHours: number[];
  /** Every compose box says the practice answers within this many business days. */
  messageResponseBusinessDays: number;
  /** A session ends after this many minutes without a request. */
  sessionIdleMinutes: number;
  /** Roles whose accounts must use two-factor sign-in. */
  twoFactorRequiredRoles: Role[];
  /** How long a video recording is kept before a job deletes it. */
  recordingRetentionDays: number;
  /** The intake packet's sections the practice uses besides the details, always on (decision 067). */
  intakeSections: OptionalIntakeSection[];
  /**
   * Video visits need a signed telehealth consent (decision 069): a patient without a valid signature of the
   * practice's active telehealth consent is asked to sign it before joining. Off by default.
   */
  videoConsentRequired: boolean;
  /** The practice's billing identity on superbills and statements (decision 073); null until filled in. */
  billingIdentity: BillingIdentity | null;
  /** When a visit may be coded: once completed, or once its note is signed too (decision 073). */
  visitCodingAfter: VisitCodingAfter;
}

/**
 * The clinic number of the demo practice when `CLINIC_PHONE` is not set (demo mode only): in the 555-0100 to
 * 555-0199 range kept for fiction, so the call buttons and "call the clinic at" can be seen without dialling
 * anyone. A real practice without a number gets none (decision 032).
 */
export const DEMO_CLINIC_PHONE = '(212) 555-0123';

/** The environment variable that gives each setting its default (none: a built-in default). */
export const PRACTICE_SETTING_VARIABLES: Readonly<Record<PracticeSettingKey, readonly string[]>> = {
  practiceName: ['PRACTICE_NAME'],
  clinicPhone: ['CLINIC_PHONE'],
  timeZone: ['PRACTICE_TIME_ZONE'],
  defaultWorkingHours: [],
  bookingPolicy: [
    'PATIENT_CHANGE_WINDOW_HOURS',
    'PATIENT_BOOKING_MIN_NOTICE_HOURS',
    'PATIENT_BOOKING_HORIZON_DAYS',
    'PATIENT_BOOKING_TYPES',
    'PATIENT_BOOKING_MODE',
    'PATIENT_BOOKING_DURATION_MINUTES',
  ],
  slotStepMinutes: [],
  reminderHours: ['APPOINTMENT_REMINDER_HOURS'],
  messageResponseBusinessDays: ['MESSAGE_RESPONSE_BUSINESS_DAYS'],
  sessionIdleMinutes: ['SESSION_IDLE_MINUTES'],
  twoFactorRequiredRoles: ['MFA_REQUIRED_ROLES'],
  recordingRetentionDays: ['RECORDING_RETENTION_DAYS'],
  intakeSections: [],
  videoConsentRequired: [],
  billingIdentity: [],
  visitCodingAfter: [],
};

/** Limits shared by the form and the server. */
export const PRACTICE_SETTING_LIMITS = {
  practiceNameMax: 120,
  changeWindowHoursMax: 24 * 14,
  minNoticeHoursMax: 24 * 60,
  horizonDaysMax: 366,
  reminderHoursMax: 24 * 14,
  reminderCountMax: 5,
  messageResponseBusinessDaysMax: 30,
  sessionIdleMinutesMax: 24 * 60,
  recordingRetentionDaysMax: 36_500,
} as const;

const L = PRACTICE_SETTING_LIMITS;

export const SETTINGS_MESSAGES = {
  practiceNameRequired: 'Please enter the practice name',
  timeZoneInvalid: 'Please choose a valid time zone, such as America/New_York',
  workingHoursInvalid: 'Please enter working hours as HH:MM, each ending after it starts',
  workingHoursOverlap: 'Working hours on the same day must not overlap',
  wholeNumberRange: 'Please enter a whole number from {{min}} to {{max}}',
  bookingTypesInvalid: 'Please choose the kinds of visit patients may book',
  bookingModeInvalid: 'Please choose instant or request',
  durationInvalid: 'Please choose a length of 15, 30, 45, 60 or 90 minutes',
  slotStepInvalid: 'Please choose 15 or 30 minutes',
  reminderHoursInvalid: 'Please enter up to 5 reminder times, each from 1 to 336 hours before the visit',
  rolesInvalid: 'Please choose roles among admin, provider and patient',
  nothingToChange: 'Please change at least one setting',
  unknownSetting: 'Unknown setting',
  onOffInvalid: 'Please choose on or off',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const settingsMessage = messageSection('settingsMessages', SETTINGS_MESSAGES);

/** A whole number in a range, with a message that names the range. */
function wholeNumber(min: number, max: number) {
  const error = settingsMessage.error('wholeNumberRange', { min, max });
  return z.number({ error }).int({ error }).min(min, { error }).max(max, { error });
}

const WorkingHoursIntervalSchema = z
  .object({
    weekday: z
      .number({ error: settingsMessage.error('workingHoursInvalid') })
      .int()
      .min(1)
      .max(7),
    startTime: ClockTimeSchema,
    endTime: ClockTimeSchema,
  })
  .refine((i) => i.startTime < i.endTime, { ...settingsMessage.issue('workingHoursInvalid') });

export const WorkingHoursSettingSchema = z
  .array(WorkingHoursIntervalSchema, { error: settingsMessage.error('workingHoursInvalid') })
  .max(28, { error: settingsMessage.error('workingHoursInvalid') })
  .superRefine((intervals, ctx) => {
    for (const weekday of WEEKDAYS) {
      const day = intervals.filter((i) => i.weekday === weekday).sort((a, b) => (a.startTime < b.startTime ? -1 : 1));
      for (let i = 1; i < day.length; i++) {
        if (day[i]!.startTime < day[i - 1]!.endTime) {
          ctx.addIssue({ code: 'custom', ...settingsMessage.issue('workingHoursOverlap') });
          return;
        }
      }
    }
  })
  .transform((intervals) =>
    [...intervals].sort((a, b) => a.weekday - b.weekday || (a.startTime < b.startTime ? -1 : 1)),
  );

export const BookingPolicySettingSchema = z.object({
  changeWindowHours: wholeNumber(0, L.changeWindowHoursMax),
  minNoticeHours: wholeNumber(0, L.minNoticeHoursMax),
  horizonDays: wholeNumber(1, L.horizonDaysMax),
  appointmentTypes: z
    .array(z.enum(APPOINTMENT_TYPES, { error: settingsMessage.error('bookingTypesInvalid') }), {
      error: settingsMessage.error('bookingTypesInvalid'),
    })
    .transform((types) => APPOINTMENT_TYPES.filter((type) => types.includes(type))),
  mode: z.enum(BOOKING_MODES, { error: settingsMessage.error('bookingModeInvalid') }),
  duration: z
    .number({ error: settingsMessage.error('durationInvalid') })
    .refine((n): n is BookingPolicy['duration'] => (APPOINTMENT_DURATIONS as readonly number[]).includes(n), {
      ...settingsMessage.issue('durationInvalid'),
    }),
});

/** Each setting's schema: what an administrator may store, and what a stored value must still be to be used. */
export const PRACTICE_SETTING_SCHEMAS = {
  practiceName: textSchema({ label: 'Practice name', kind: 'short', max: L.practiceNameMax }).refine(
    (name) => name.length > 0,
    { error: settingsMessage.error('practiceNameRequired') },
  ),
  clinicPhone: PhoneSchema.nullable(),
  timeZone: z
    .string({ error: settingsMessage.error('timeZoneInvalid') })
    .trim()
    .refine((zone) => zone.length > 0 && isTimeZone(zone), { error: settingsMessage.error('timeZoneInvalid') }),
  defaultWorkingHours: WorkingHoursSettingSchema,
  bookingPolicy: BookingPolicySettingSchema,
  slotStepMinutes: z
    .number({ error: settingsMessage.error('slotStepInvalid') })
    .refine((n): n is SlotStep => (SLOT_STEPS as readonly number[]).includes(n), {
      ...settingsMessage.issue('slotStepInvalid'),
    }),
  reminderHours: z
    .array(z.number({ error: settingsMessage.error('reminderHoursInvalid') }), {
      error: settingsMessage.error('reminderHoursInvalid'),
    })
    .refine(
      (hours) =>
        hours.length <= L.reminderCountMax &&
        hours.every((h) => Number.isInteger(h) && h >= 1 && h <= L.reminderHoursMax),
      { error: settingsMessage.error('reminderHoursInvalid') },
    )
    .transform((hours) => [...new Set(hours)].sort((a, b) => b - a)),
  messageResponseBusinessDays: wholeNumber(1, L.messageResponseBusinessDaysMax),
  sessionIdleMinutes: wholeNumber(1, L.sessionIdleMinutesMax),
  twoFactorRequiredRoles: z
    .array(z.enum(ROLES, { error: settingsMessage.error('rolesInvalid') }), {
      error: settingsMessage.error('rolesInvalid'),
    })
    .transform((roles) => ROLES.filter((role) => roles.includes(role))),
  recordingRetentionDays: wholeNumber(1, L.recordingRetentionDaysMax),
  intakeSections: IntakeSectionsSettingSchema,
  videoConsentRequired: z.boolean({ error: settingsMessage.error('onOffInvalid') }),
  billingIdentity: BillingIdentitySchema.nullable(),
  visitCodingAfter: z.enum(VISIT_CODING_AFTER, { error: settingsMessage.error('onOffInvalid') }),
} as const satisfies Record<PracticeSettingKey, z.ZodType>;

/**
 * updatePracticeSettings: the settings to change, each optional (left out: unchanged). The server parses it
 * again; a refused value changes nothing at all.
 */
export const UpdatePracticeSettingsInputSchema = z
  .object({
    practiceName: PRACTICE_SETTING_SCHEMAS.practiceName.optional(),
    clinicPhone: PRACTICE_SETTING_SCHEMAS.clinicPhone.optional(),
    timeZone: PRACTICE_SETTING_SCHEMAS.timeZone.optional(),
    defaultWorkingHours: PRACTICE_SETTING_SCHEMAS.defaultWorkingHours.optional(),
    bookingPolicy: PRACTICE_SETTING_SCHEMAS.bookingPolicy.optional(),
    slotStepMinutes: PRACTICE_SETTING_SCHEMAS.slotStepMinutes.optional(),
    reminderHours: PRACTICE_SETTING_SCHEMAS.reminderHours.optional(),
    messageResponseBusinessDays: PRACTICE_SETTING_SCHEMAS.messageResponseBusinessDays.optional(),
    sessionIdleMinutes: PRACTICE_SETTING_SCHEMAS.sessionIdleMinutes.optional(),
    twoFactorRequiredRoles: PRACTICE_SETTING_SCHEMAS.twoFactorRequiredRoles.optional(),
    recordingRetentionDays: PRACTICE_SETTING_SCHEMAS.recordingRetentionDays.optional(),
    intakeSections: PRACTICE_SETTING_SCHEMAS.intakeSections.optional(),
    videoConsentRequired: PRACTICE_SETTING_SCHEMAS.videoConsentRequired.optional(),
    billingIdentity: PRACTICE_SETTING_SCHEMAS.billingIdentity.optional(),
    visitCodingAfter: PRACTICE_SETTING_SCHEMAS.visitCodingAfter.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    error: settingsMessage.error('nothingToChange'),
  });
export type UpdatePracticeSettingsInput = z.input<typeof UpdatePracticeSettingsInputSchema>;
export type PracticeSettingsChange = Partial<PracticeSettings>;

/** Where the value in use comes from: the environment variable, the built-in default, or an administrator. */
export const PRACTICE_SETTING_SOURCES = ['environment', 'builtIn', 'changed'] as const;
export type PracticeSettingSource = (typeof PRACTICE_SETTING_SOURCES)[number];
