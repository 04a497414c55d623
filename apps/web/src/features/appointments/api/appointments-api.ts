import {
  MAX_PAGE_SIZE,
  type AppointmentFilter,
  type CancelAppointmentInput,
  type CreateAppointmentInput,
  type SeeNowInput,
  type UpdateAppointmentInput,
  type WorkingHoursInterval,
} from '@telehealth/shared';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';
import { practiceHoursQueryKey } from '../../../lib/practice-hours.ts';
import { useSubmissionKey } from '../../../lib/submission-key.ts';

export const appointmentQueryKeys = {
  all: ['appointments'] as const,
  range: (filter: AppointmentFilter) => ['appointments', 'range', filter] as const,
  one: (id: string) => ['appointments', 'one', id] as const,
  slots: (providerId: string, date: string, duration: number) =>
    ['appointments', 'slots', providerId, date, duration] as const,
  availability: (providerId: string) => ['appointments', 'availability', providerId] as const,
  feed: (providerId: string) => ['appointments', 'feed', providerId] as const,
};

export const AppointmentSchema = z.object({
  id: z.string(),
  patient: z.string(),
  patientId: z.string(),
  providerId: z.string(),
  providerName: z.string(),
  date: z.string(),
  time: z.string(),
  duration: z.number(),
  reason: z.string(),
  notes: z.string().nullable(),
  appointmentType: z.string(),
  status: z.string(),
  priority: z.string(),
  videoCallEnabled: z.boolean(),
  startsAt: z.string(),
  endsAt: z.string(),
  seriesId: z.string().nullable(),
  cancellationKind: z.string().nullable(),
  cancelReason: z.string().nullable(),
});
export type Appointment = z.infer<typeof AppointmentSchema>;
const APPOINTMENT_FIELDS =
  'id patient patientId providerId providerName date time duration reason notes appointmentType status priority videoCallEnabled startsAt endsAt seriesId cancellationKind cancelReason';

const ChangeSchema = z.object({
  action: z.string(),
  fromStatus: z.string().nullable(),
  toStatus: z.string().nullable(),
  fromStartsAt: z.string().nullable(),
  toStartsAt: z.string().nullable(),
  actorName: z.string().nullable(),
  at: z.string(),
});
export type AppointmentChange = z.infer<typeof ChangeSchema>;
const DetailedSchema = AppointmentSchema.extend({ history: z.array(ChangeSchema) });
export type DetailedAppointment = z.infer<typeof DetailedSchema>;

const PageSchema = z.object({
  listAppointments: z.object({ items: z.array(AppointmentSchema), nextToken: z.string().nullable() }),
});
/** A month of a busy practice is a few pages; more than this many is a range no screen asks for. */
const MAX_PAGES = 30;

/** Every appointment of the filter's range, all pages read (the calendar shows them together). */
export function appointmentsQueryOptions(filter: AppointmentFilter) {
  return queryOptions({
    queryKey: appointmentQueryKeys.range(filter),
    queryFn: async ({ signal }) => {
      const items: Appointment[] = [];
      let nextToken: string | null = null;
      for (let page = 0; page < MAX_PAGES; page++) {
        const data: z.infer<typeof PageSchema> = await graphqlRequest(
          `query ListAppointments($filter: AppointmentFilterInput, $limit: Int, $nextToken: String) { listAppointments(filter: $filter, limit: $limit, nextToken: $nextToken) { items { ${APPOINTMENT_FIELDS} } nextToken } }`,
          PageSchema,
          { filter, limit: MAX_PAGE_SIZE, nextToken },
          { signal },
        );
        items.push(...data.listAppointments.items);
        nextToken = data.listAppointments.nextToken;
        if (!nextToken) break;
      }
      return items;
    },
  });
}

export function appointmentQueryOptions(id: string) {
  return queryOptions({
    queryKey: appointmentQueryKeys.one(id),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query GetAppointment($id: ID!) { getAppointment(id: $id) { ${APPOINTMENT_FIELDS} history { action fromStatus toStatus fromStartsAt toStartsAt actorName at } } }`,
        z.object({ getAppointment: DetailedSchema }),
        { id },
        { signal },
      );
      return data.getAppointment;
    },
  });
}

const SlotSchema = z.object({ time: z.string(), available: z.boolean(), state: z.string() });
export type Slot = z.infer<typeof SlotSchema>;

export function slotsQueryOptions(providerId: string, date: string, duration: number) {
  return queryOptions({
    queryKey: appointmentQueryKeys.slots(providerId, date, duration),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        'query AvailableSlots($providerId: ID!, $date: String!, $duration: Int) { availableSlots(providerId: $providerId, date: $date, duration: $duration) { time available state } }',
        z.object({ availableSlots: z.array(SlotSchema) }),
        { providerId, date, duration },
        { signal },
      );
      return data.availableSlots;
    },
  });
}

/** After any change every list, slot and detail may differ: they are all asked again. */
function useInvalidateAppointments() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: appointmentQueryKeys.all });
}

export function useCreateAppointment() {
  const invalidate = useInvalidateAppointments();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: (input: CreateAppointmentInput) =>
      submission.send(async (idempotencyKey) => {
        const data = await graphqlRequest(
          `mutation CreateAppointment($input: CreateAppointmentInput!) { createAppointment(input: $input) { ${APPOINTMENT_FIELDS} } }`,
          z.object({ createAppointment: AppointmentSchema }),
          { input },
          { idempotencyKey },
        );
        return data.createAppointment;
      }),
    onSuccess: invalidate,
  });
}

/** See now (decision 046): an unscheduled video visit with the patient, starting now; answers the appointment. */
export function useSeeNow() {
  const invalidate = useInvalidateAppointments();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: (input: SeeNowInput) =>
      submission.send(async (idempotencyKey) => {
        const data = await graphqlRequest(
          `mutation SeeNow($input: SeeNowInput!) { seeNow(input: $input) { ${APPOINTMENT_FIELDS} } }`,
          z.object({ seeNow: AppointmentSchema }),
          { input },
          { idempotencyKey },
        );
        return data.seeNow;
      }),
    onSuccess: invalidate,
  });
}

export function useUpdateAppointment() {
  const invalidate = useInvalidateAppointments();
  return useMutation({
    mutationFn: async (input: UpdateAppointmentInput) => {
      const data = await graphqlRequest(
        `mutation UpdateAppointment($input: UpdateAppointmentInput!) { updateAppointment(input: $input) { ${APPOINTMENT_FIELDS} } }`,
        z.object({ updateAppointment: AppointmentSchema }),
        { input },
      );
      return data.updateAppointment;
    },
    onSettled: invalidate,
  });
}

export function useCancelAppointment() {
  const invalidate = useInvalidateAppointments();
  return useMutation({
    mutationFn: async (input: CancelAppointmentInput) => {
      const data = await graphqlRequest(
        `mutation CancelAppointment($input: CancelAppointmentInput!) { cancelAppointment(input: $input) { ${APPOINTMENT_FIELDS} } }`,
        z.object({ cancelAppointment: AppointmentSchema }),
        { input },
      );
      return data.cancelAppointment;
    },
    onSuccess: invalidate,
  });
}

export function useSetAppointmentStatus() {
  const invalidate = useInvalidateAppointments();
  return useMutation({
    mutationFn: async (input: { id: string; status: string }) => {
      const data = await graphqlRequest(
        'mutation SetAppointmentStatus($input: SetAppointmentStatusInput!) { setAppointmentStatus(input: $input) { id status } }',
        z.object({ setAppointmentStatus: z.object({ id: z.string(), status: z.string() }) }),
        { input },
      );
      return data.setAppointmentStatus;
    },
    onSuccess: invalidate,
  });
}

const TimeOffSchema = z.object({
  id: z.string(),
  startDate: z.string(),
  endDate: z.string(),
  label: z.string().nullable(),
});
export type TimeOff = z.infer<typeof TimeOffSchema>;
const AvailabilitySchema = z.object({
  providerId: z.string(),
  custom: z.boolean(),
  workingHours: z.array(z.object({ weekday: z.number(), startTime: z.string(), endTime: z.string() })),
  timeOff: z.array(TimeOffSchema),
});
export type Availability = z.infer<typeof AvailabilitySchema>;
const AVAILABILITY_FIELDS =
  'providerId custom workingHours { weekday startTime endTime } timeOff { id startDate endDate label }';

export function availabilityQueryOptions(providerId: string) {
  return queryOptions({
    queryKey: appointmentQueryKeys.availability(providerId),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query ProviderAvailability($providerId: ID!) { providerAvailability(providerId: $providerId) { ${AVAILABILITY_FIELDS} } }`,
        z.object({ providerAvailability: AvailabilitySchema }),
        { providerId },
        { signal },
      );
      return data.providerAvailability;
    },
  });
}

export function useSetWorkingHours() {
  const invalidate = useInvalidateAppointments();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { providerId: string; intervals: WorkingHoursInterval[] }) => {
      await graphqlRequest(
        `mutation SetWorkingHours($input: SetWorkingHoursInput!) { setWorkingHours(input: $input) { ${AVAILABILITY_FIELDS} } }`,
        z.object({ setWorkingHours: AvailabilitySchema }),
        { input },
      );
    },
    onSuccess: async () => {
      // What the practice's hours cover (the calendar's range) may have changed with them.
      await Promise.all([invalidate(), queryClient.invalidateQueries({ queryKey: practiceHoursQueryKey })]);
    },
  });
}

export function useAddTimeOff() {
  const invalidate = useInvalidateAppointments();
  return useMutation({
    mutationFn: async (input: { providerId: string; startDate: string; endDate: string; label: string | null }) => {
      await graphqlRequest(
        'mutation AddTimeOff($input: AddTimeOffInput!) { addTimeOff(input: $input) { id } }',
        z.object({ addTimeOff: z.object({ id: z.string() }) }),
        { input },
      );
    },
    onSuccess: invalidate,
  });
}

export function useRemoveTimeOff() {
  const invalidate = useInvalidateAppointments();
  return useMutation({
    mutationFn: async (input: { providerId: string; id: string }) => {
      await graphqlRequest(
        'mutation RemoveTimeOff($providerId: ID!, $id: ID!) { removeTimeOff(providerId: $providerId, id: $id) { id } }',
        z.object({ removeTimeOff: z.object({ id: z.string() }) }),
        input,
      );
    },
    onSuccess: invalidate,
  });
}

export function calendarFeedQueryOptions(providerId: string) {
  return queryOptions({
    queryKey: appointmentQueryKeys.feed(providerId),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        'query CalendarFeed($providerId: ID!) { calendarFeed(providerId: $providerId) { active createdAt } }',
        z.object({ calendarFeed: z.object({ active: z.boolean(), createdAt: z.string().nullable() }) }),
        { providerId },
        { signal },
      );
      return data.calendarFeed;
    },
  });
}

export function useCreateCalendarFeed() {
  const invalidate = useInvalidateAppointments();
  return useMutation({
    mutationFn: async (providerId: string) => {
      const data = await graphqlRequest(
        'mutation CreateCalendarFeed($providerId: ID!) { createCalendarFeed(providerId: $providerId) { url } }',
        z.object({ createCalendarFeed: z.object({ url: z.string() }) }),
        { providerId },
      );
      return data.createCalendarFeed.url;
    },
    onSuccess: invalidate,
  });
}

export function useRevokeCalendarFeed() {
  const invalidate = useInvalidateAppointments();
  return useMutation({
    mutationFn: async (providerId: string) => {
      await graphqlRequest(
        'mutation RevokeCalendarFeed($providerId: ID!) { revokeCalendarFeed(providerId: $providerId) }',
        z.object({ revokeCalendarFeed: z.boolean() }),
        { providerId },
      );
    },
    onSuccess: invalidate,
  });
}
