import type { MessageId } from '@telehealth/shared';
import { authorize, recordOutOfReach } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import type { Database } from '../db/client.ts';
import { forbidden, notFound } from '../errors.ts';
import { findVisitAppointment, type VisitAppointment } from './video.repository.ts';
import { isUuid } from '../db/ids.ts';

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
  const appointment = isUuid(appointmentId) ? await findVisitAppointment(db, appointmentId) : undefined;
  if (appointment?.providerId === caller.user.id) return appointment;
  if (appointment) {
    await recordOutOfReach(db, caller, 'visit:join', {
      appointmentIds: [appointmentId],
      reason: 'not the provider of the appointment',
    });
    if (appointment.patientAccountId === caller.user.id) throw forbidden(message);
  }
  throw notFound('videoMessages.notFound');
}
