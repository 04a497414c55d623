import type { BookAppointmentInput, CancelMyAppointmentInput, RescheduleMyAppointmentInput } from '@telehealth/shared';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';
import { useSubmissionKey } from '../../../lib/submission-key.ts';
import { AppointmentSchema, appointmentQueryKeys } from './appointments-api.ts';

// A patient's own visits (decision 030). Under the appointments' keys, so that any change asks them again.
export const patientBookingQueryKeys = {
  policy: [...appointmentQueryKeys.all, 'booking-policy'] as const,
  slots: (date: string) => [...appointmentQueryKeys.all, 'my-slots', date] as const,
};

const FIELDS =
  'id patient patientId providerId providerName date time duration reason notes appointmentType status priority videoCallEnabled startsAt endsAt seriesId cancellationKind cancelReason';

const BookingPolicySchema = z.object({
  changeWindowHours: z.number(),
  minNoticeHours: z.number(),
  horizonDays: z.number(),
  appointmentTypes: z.array(z.enum(['in-person', 'video'])),
  mode: z.enum(['instant', 'request']),
  duration: z.number(),
  clinicPhone: z.string().nullable(),
  joinEarlyMinutes: z.number(),
  joinLateMinutes: z.number(),
});
export type BookingPolicyView = z.infer<typeof BookingPolicySchema>;

export function bookingPolicyQueryOptions() {
  return queryOptions({
    queryKey: patientBookingQueryKeys.policy,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        'query BookingPolicy { bookingPolicy { changeWindowHours minNoticeHours horizonDays appointmentTypes mode duration clinicPhone joinEarlyMinutes joinLateMinutes } }',
        z.object({ bookingPolicy: BookingPolicySchema }),
        {},
        { signal },
      );
      return data.bookingPolicy;
    },
    staleTime: 5 * 60_000,
  });
}

const SlotSchema = z.object({ time: z.string(), available: z.boolean(), state: z.string() });

/** The times the patient may book on a date with their own provider. */
export function mySlotsQueryOptions(date: string) {
  return queryOptions({
    queryKey: patientBookingQueryKeys.slots(date),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        'query MyAvailableSlots($date: String!) { myAvailableSlots(date: $date) { time available state } }',
        z.object({ myAvailableSlots: z.array(SlotSchema) }),
        { date },
        { signal },
      );
      return data.myAvailableSlots;
    },
  });
}

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: appointmentQueryKeys.all });
}

export function useBookAppointment() {
  const invalidate = useInvalidate();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: (input: BookAppointmentInput) =>
      submission.send(async (idempotencyKey) => {
        const data = await graphqlRequest(
          `mutation BookAppointment($input: BookAppointmentInput!) { bookAppointment(input: $input) { ${FIELDS} } }`,
          z.object({ bookAppointment: AppointmentSchema }),
          { input },
          { idempotencyKey },
        );
        return data.bookAppointment;
      }),
    onSettled: invalidate,
  });
}

export function useConfirmMyAppointment() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (id: string) => {
      const data = await graphqlRequest(
        `mutation ConfirmMyAppointment($id: ID!) { confirmMyAppointment(id: $id) { ${FIELDS} } }`,
        z.object({ confirmMyAppointment: AppointmentSchema }),
        { id },
      );
      return data.confirmMyAppointment;
    },
    onSettled: invalidate,
  });
}

export function useCancelMyAppointment() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (input: CancelMyAppointmentInput) => {
      const data = await graphqlRequest(
        `mutation CancelMyAppointment($input: CancelMyAppointmentInput!) { cancelMyAppointment(input: $input) { ${FIELDS} } }`,
        z.object({ cancelMyAppointment: AppointmentSchema }),
        { input },
      );
      return data.cancelMyAppointment;
    },
    onSettled: invalidate,
  });
}

export function useRescheduleMyAppointment() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: async (input: RescheduleMyAppointmentInput) => {
      const data = await graphqlRequest(
        `mutation RescheduleMyAppointment($input: RescheduleMyAppointmentInput!) { rescheduleMyAppointment(input: $input) { ${FIELDS} } }`,
        z.object({ rescheduleMyAppointment: AppointmentSchema }),
        { input },
      );
      return data.rescheduleMyAppointment;
    },
    onSettled: invalidate,
  });
}
