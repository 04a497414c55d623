import { sql } from 'drizzle-orm';
import type { VideoWaitingEntry } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import type { Keyring } from '../keys/keyring.ts';
import { publishToUsers } from '../live/live-events.ts';
import { findWaiting, PRESENCE_STALE_MS } from './video.repository.ts';

// The providers' waiting room: who waits in their visits now, as the list shows them (`VideoService.waiting`)
// and as the live channel tells them after each change on the signalling socket (video-signalling.ts).

/** At most this many waiting people in one live message (a NOTIFY payload stays under 8,000 bytes). */
const WAITING_SENT_MAX = 20;

/** The people waiting now in a provider's visits, as the waiting-room lists show them. */
export async function findWaitingEntries(
  db: Executor,
  providerId: string,
  now: Date,
  keyring: Keyring,
): Promise<VideoWaitingEntry[]> {
  const rows = await findWaiting(db, providerId, new Date(now.getTime() - PRESENCE_STALE_MS), keyring);
  return rows.map((r) => ({
    appointmentId: r.participant.appointmentId,
    peerId: r.participant.peerId,
    name: r.participant.displayName,
    role: r.participant.role,
    since: r.participant.joinedAt.toISOString(),
    patientName: `${r.patientFirstName} ${r.patientLastName}`,
    startsAt: r.startsAt.toISOString(),
  }));
}

/** Tells the visits' providers, on their live channels, who waits now (inside the change's transaction). */
export async function announceWaiting(
  tx: Executor,
  now: Date,
  keyring: Keyring,
  appointmentIds: string[],
): Promise<void> {
  const rows = await tx.execute<{ provider_id: string }>(
    sql`SELECT DISTINCT provider_id FROM appointments WHERE id = ANY(${sql.param(appointmentIds)}::uuid[])`,
  );
  for (const { provider_id: providerId } of rows.rows) {
    const waiting = await findWaitingEntries(tx, providerId, now, keyring);
    await publishToUsers(tx, [providerId], { type: 'video-waiting', waiting: waiting.slice(0, WAITING_SENT_MAX) });
  }
}
