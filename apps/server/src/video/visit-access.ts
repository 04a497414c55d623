import { ERROR_CODES, type MessageId } from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { appendAuditEntry } from '../audit/audit.repository.ts';
import type { Database } from '../db/client.ts';
import { AppError, notFound } from '../errors.ts';
import { findVisitAppointment, type VisitAppointment } from './video.repository.ts';
import { isUuid } from '../db/ids.ts';

/**
 * The appointment of a visit whose provider the caller must be: recordings and guests are the provider's alone
 * (the patient joins the visit but does neither). Anyone else is refused with `message` and an
 * UNAUTHORIZED_ACCESS entry.
 */
export async function requireVisitProvider(
  db: Database,
  caller: Caller,
  appointmentId: string,
  message: MessageId,
): Promise<VisitAppointment> {
  await authorize(db, caller, 'visit:join', { message });
  const appointment = isUuid(appointmentId) ? await findVisitAppointment(db, appointmentId) : undefined;
  if (!appointment) throw notFound('videoMessages.notFound');
  if (appointment.providerId !== caller.user.id) {
    await appendAuditEntry(db, {
      event: 'UNAUTHORIZED_ACCESS',
      level: 'WARNING',
      actor: caller.actor,
      url: caller.operation,
      details: { permission: 'visit:join:own (provider of the appointment)', appointmentIds: [appointmentId] },
    });
    throw new AppError(ERROR_CODES.forbidden, message);
  }
  return appointment;
}
