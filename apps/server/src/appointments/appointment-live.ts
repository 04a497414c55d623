import { inArray } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { appointments } from './appointments.table.ts';
import { publishToUsers } from '../live/live-events.ts';
import type { AppointmentListener } from './appointments.service.ts';

/**
 * Tells each provider on the live channel that their appointments changed, inside the
 * change's transaction (so only once it commits): a patient's request appears on the provider's dashboard
 * without a reload. The message carries nothing but its type; the browser asks again.
 */
export class AppointmentLiveUpdates implements AppointmentListener {
  async appointmentsChanged(tx: Executor, _change: unknown, appointmentIds: string[]): Promise<void> {
    if (appointmentIds.length === 0) return;
    const rows = await tx
      .selectDistinct({ providerId: appointments.providerId })
      .from(appointments)
      .where(inArray(appointments.id, appointmentIds));
    await publishToUsers(
      tx,
      rows.map((row) => row.providerId),
      { type: 'appointments-changed' },
    );
  }
}
