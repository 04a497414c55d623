import { VIDEO_PROVIDER_EARLY_MINUTES, type MessageId, type VideoRefusal, type VideoRole } from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import { eq } from 'drizzle-orm';
import { appointments } from '../appointments/appointments.table.ts';
import type { Database } from '../db/client.ts';
import { forbidden, notFound } from '../errors.ts';
import { findVisitAppointment, type VisitAppointment } from './video.repository.ts';
import { videoRecordings } from './video.table.ts';

/**
 * The appointment of a visit whose provider the caller must be: recordings and guests are the provider's alone
 * (the patient joins the visit but does neither). The appointment's patient, who reaches the visit, is refused
 * with `message`; anyone else is answered exactly as if the appointment did not exist (issue 24), and an attempt
 * on an existing one is recorded (UNAUTHORIZED_ACCESS).
 */
export async function requireVisitProvider(
  db: Database,
  caller: Caller,
  appointmentId: string,
  message: MessageId,
): Promise<VisitAppointment> {
  await authorize(db, caller, 'visit:join', { message });
  return scopeOf(db, caller).find('visit:join', appointmentId, {
    load: findVisitAppointment,
    within: (appointment) => appointment.providerId === caller.user.id,
    // The visit's own patient is told why; anyone else hears of no appointment.
    missing: (appointment) =>
      appointment?.patientAccountId === caller.user.id ? forbidden(message) : notFound('videoMessages.notFound'),
    denial: { appointmentIds: [appointmentId], reason: 'not the provider of the appointment' },
  });
}

/**
 * A recording of the caller's own visit. Anyone else (the patient too: recordings are the provider's alone) is
 * answered exactly as if it did not exist (issue 24), and an attempt on an existing one is recorded. The
 * permission is checked first, so that a caller without it is refused the same way for any id.
 */
export async function requireRecordingProvider(db: Database, caller: Caller, recordingId: string) {
  await authorize(db, caller, 'visit:join', { message: 'videoMessages.recordingProviderOnly' });
  const found = await scopeOf(db, caller).find('visit:join', recordingId, {
    load: async (executor, id) => {
      const [row] = await executor
        .select({ recording: videoRecordings, providerId: appointments.providerId })
        .from(videoRecordings)
        .innerJoin(appointments, eq(appointments.id, videoRecordings.appointmentId))
        .where(eq(videoRecordings.id, id));
      return row;
    },
    within: (row) => row.providerId === caller.user.id,
    missing: 'videoMessages.recordingNotFound',
    denial: (row) => ({
      appointmentIds: [row.recording.appointmentId],
      recordingId,
      reason: 'not the provider of the appointment',
    }),
  });
  return found.recording;
}

/**
 * When a person may join a visit: from the patient's `joinEarlyMinutes` before the start (the visit's provider
 * from VIDEO_PROVIDER_EARLY_MINUTES, if that is earlier, to test devices before the patient arrives) to
 * `joinLateMinutes` after the end.
 */
export function visitWindow(
  appointment: Pick<VisitAppointment, 'startsAt' | 'endsAt'>,
  role: VideoRole,
  video: { joinEarlyMinutes: number; joinLateMinutes: number },
): { opensAt: Date; closesAt: Date } {
  const early =
    role === 'provider' ? Math.max(video.joinEarlyMinutes, VIDEO_PROVIDER_EARLY_MINUTES) : video.joinEarlyMinutes;
  return {
    opensAt: new Date(appointment.startsAt.getTime() - early * 60_000),
    closesAt: new Date(appointment.endsAt.getTime() + video.joinLateMinutes * 60_000),
  };
}

/**
 * Why `role` cannot join the visit at `now`, or null. A visit in progress stays open past its window (a reload,
 * a visit that runs over, a provider who stepped out and comes back) until the provider ends it.
 */
export function visitClosedReason(
  appointment: Pick<VisitAppointment, 'appointmentType' | 'status' | 'startsAt' | 'endsAt'>,
  role: VideoRole,
  video: { joinEarlyMinutes: number; joinLateMinutes: number },
  now: Date,
): VideoRefusal | null {
  if (appointment.appointmentType !== 'video') return 'notVideo';
  if (appointment.status === 'cancelled') return 'cancelled';
  if (appointment.status === 'completed' || appointment.status === 'no-show') return 'finished';
  if (appointment.status === 'in-progress') return null;
  const { opensAt, closesAt } = visitWindow(appointment, role, video);
  if (now < opensAt) return 'tooEarly';
  if (now > closesAt) return 'tooLate';
  return null;
}
