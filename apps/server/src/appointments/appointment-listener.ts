import type { Executor } from '../db/client.ts';

/** What changed, for whatever follows a change (the invitations and reminders of the appointments). */
export type AppointmentChange = 'created' | 'rescheduled' | 'updated' | 'cancelled' | 'status';

/**
 * Told of every change inside its transaction, so that the work it queues (invitations, reminders, waitlist
 * offers) exists exactly when the change commits.
 */
export interface AppointmentListener {
  /** `freed`: the times the change gave up (a cancelled visit's, a moved visit's old one), still ahead. */
  appointmentsChanged(
    tx: Executor,
    change: AppointmentChange,
    appointmentIds: string[],
    freed: FreedSlot[],
  ): Promise<void>;
}

/** A provider's time that a cancellation or a reschedule has just given up. */
export interface FreedSlot {
  providerId: string;
  startsAt: Date;
  endsAt: Date;
}
