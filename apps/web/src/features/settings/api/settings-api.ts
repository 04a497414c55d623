import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import {
  OPTIONAL_INTAKE_SECTIONS,
  APPOINTMENT_DURATIONS,
  APPOINTMENT_TYPES,
  BOOKING_MODES,
  PRACTICE_SETTING_KEYS,
  PRACTICE_SETTING_SOURCES,
  ROLES,
  SLOT_STEPS,
  VISIT_CODING_AFTER,
  type PracticeSettings,
  type PracticeSettingsChange,
  type PracticeSettingKey,
} from '@telehealth/shared';
import { z } from 'zod';

import { sessionQueryKeys } from '../../../lib/auth.ts';
import { graphqlRequest } from '../../../lib/graphql.ts';
import { practiceHoursQueryKey } from '../../../lib/practice-hours.ts';

const PracticeSettingValuesSchema = z.object({
  practiceName: z.string(),
  clinicPhone: z.string().nullable(),
  timeZone: z.string(),
  defaultWorkingHours: z.array(z.object({ weekday: z.number(), startTime: z.string(), endTime: z.string() })),
  bookingPolicy: z.object({
    changeWindowHours: z.number(),
    minNoticeHours: z.number(),
    horizonDays: z.number(),
    appointmentTypes: z.array(z.enum(APPOINTMENT_TYPES)),
    mode: z.enum(BOOKING_MODES),
    duration: z.union(APPOINTMENT_DURATIONS.map((d) => z.literal(d))),
  }),
  slotStepMinutes: z.union(SLOT_STEPS.map((step) => z.literal(step))),
  reminderHours: z.array(z.number()),
  messageResponseBusinessDays: z.number(),
  sessionIdleMinutes: z.number(),
  twoFactorRequiredRoles: z.array(z.enum(ROLES)),
  recordingRetentionDays: z.number(),
  intakeSections: z.array(z.enum(OPTIONAL_INTAKE_SECTIONS)),
  videoConsentRequired: z.boolean(),
  billingIdentity: z
    .object({
      legalName: z.string(),
      street: z.string(),
      city: z.string(),
      state: z.string(),
      zip: z.string(),
      taxId: z.string(),
    })
    .nullable(),
  visitCodingAfter: z.enum(VISIT_CODING_AFTER),
}) satisfies z.ZodType<PracticeSettings>;

const PracticeSettingSourceSchema = z.object({
  key: z.enum(PRACTICE_SETTING_KEYS),
  source: z.enum(PRACTICE_SETTING_SOURCES),
  variables: z.array(z.string()),
  updatedAt: z.string().nullable(),
  updatedByName: z.string().nullable(),
});
export type PracticeSettingSourceView = z.infer<typeof PracticeSettingSourceSchema>;

const PracticeSettingsViewSchema = z.object({
  values: PracticeSettingValuesSchema,
  defaults: PracticeSettingValuesSchema,
  sources: z.array(PracticeSettingSourceSchema),
});
export type PracticeSettingsView = z.infer<typeof PracticeSettingsViewSchema>;

const VALUE_FIELDS = `practiceName clinicPhone timeZone slotStepMinutes reminderHours messageResponseBusinessDays sessionIdleMinutes
  twoFactorRequiredRoles recordingRetentionDays intakeSections videoConsentRequired defaultWorkingHours { weekday startTime endTime }
  bookingPolicy { changeWindowHours minNoticeHours horizonDays appointmentTypes mode duration }
  billingIdentity { legalName street city state zip taxId } visitCodingAfter`;
const VIEW_FIELDS = `values { ${VALUE_FIELDS} } defaults { ${VALUE_FIELDS} }
  sources { key source variables updatedAt updatedByName }`;

export const settingsQueryKeys = { all: ['practice-settings'] as const };

/** The practice's settings, their defaults and where each value comes from (administrators). */
export const practiceSettingsQueryOptions = queryOptions({
  queryKey: settingsQueryKeys.all,
  queryFn: async ({ signal }) => {
    const data = await graphqlRequest(
      `query PracticeSettings { practiceSettings { ${VIEW_FIELDS} } }`,
      z.object({ practiceSettings: PracticeSettingsViewSchema }),
      undefined,
      { signal },
    );
    return data.practiceSettings;
  },
});

/** After a change: the new view, and the public configuration (name, phone, zone...) read again. */
function useSettingsChanged() {
  const queryClient = useQueryClient();
  return (view: PracticeSettingsView) => {
    queryClient.setQueryData(settingsQueryKeys.all, view);
    void queryClient.invalidateQueries({ queryKey: sessionQueryKeys.appConfig });
    // The step of the start times, and the default week, change what the practice's hours offer.
    void queryClient.invalidateQueries({ queryKey: practiceHoursQueryKey });
  };
}

/** Saves the settings given (only those that changed). */
export function useUpdatePracticeSettings() {
  const changed = useSettingsChanged();
  return useMutation({
    mutationFn: async (input: PracticeSettingsChange) => {
      const data = await graphqlRequest(
        `mutation UpdatePracticeSettings($input: UpdatePracticeSettingsInput!) {
          updatePracticeSettings(input: $input) { ${VIEW_FIELDS} }
        }`,
        z.object({ updatePracticeSettings: PracticeSettingsViewSchema }),
        { input },
      );
      return data.updatePracticeSettings;
    },
    onSuccess: changed,
  });
}

/** Brings one setting back to its default. */
export function useResetPracticeSetting() {
  const changed = useSettingsChanged();
  return useMutation({
    mutationFn: async (key: PracticeSettingKey) => {
      const data = await graphqlRequest(
        `mutation ResetPracticeSetting($key: String!) { resetPracticeSetting(key: $key) { ${VIEW_FIELDS} } }`,
        z.object({ resetPracticeSetting: PracticeSettingsViewSchema }),
        { key },
      );
      return data.resetPracticeSetting;
    },
    onSuccess: changed,
  });
}
