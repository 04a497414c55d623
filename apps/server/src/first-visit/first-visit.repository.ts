import { desc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import { firstVisitReminders } from './first-visit.table.ts';

/** The e-mails already sent to the patient, newest first, with the patient's lock held to the transaction's end. */
export async function lockSentReminders(tx: Executor, patientId: string): Promise<{ number: number; sentAt: Date }[]> {
  await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`first-visit:${patientId}`}))`);
  return tx
    .select({ number: firstVisitReminders.number, sentAt: firstVisitReminders.sentAt })
    .from(firstVisitReminders)
    .where(eq(firstVisitReminders.patientId, patientId))
    .orderBy(desc(firstVisitReminders.number));
}

/** Records the e-mail of this number as sent; false when it already was. */
export async function claimReminder(tx: Executor, patientId: string, number: number): Promise<boolean> {
  const rows = await tx
    .insert(firstVisitReminders)
    .values({ patientId, number })
    .onConflictDoNothing()
    .returning({ number: firstVisitReminders.number });
  return rows.length > 0;
}
