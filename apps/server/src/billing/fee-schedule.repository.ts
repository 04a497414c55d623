import { eq, sql } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import type { FeeItemRow, NewFeeItem } from './billing.repository.ts';
import { feeSchedule } from './billing.table.ts';

// The fee schedule's writes beyond the core repository's (listFeeItems, insertFeeItems, findFeeItems).

/** Whether the fee schedule has no service at all (a new practice). */
export async function feeScheduleIsEmpty(executor: Executor): Promise<boolean> {
  const [row] = await executor.select({ id: feeSchedule.id }).from(feeSchedule).limit(1);
  return row === undefined;
}

/** The service with this code, or undefined. */
export async function findFeeItemByCode(executor: Executor, code: string): Promise<FeeItemRow | undefined> {
  const [row] = await executor.select().from(feeSchedule).where(eq(feeSchedule.code, code));
  return row;
}

/** The service with this id, locked for the transaction's change, or undefined. */
export async function lockFeeItem(executor: Executor, id: string): Promise<FeeItemRow | undefined> {
  const [row] = await executor.select().from(feeSchedule).where(eq(feeSchedule.id, id)).for('update');
  return row;
}

/** Changes a service (all its fields); answers it as written. */
export async function updateFeeItem(
  executor: Executor,
  id: string,
  values: Required<Omit<NewFeeItem, 'updatedBy'>> & { updatedBy: string },
): Promise<FeeItemRow> {
  const [row] = await executor
    .update(feeSchedule)
    .set({ ...values, updatedAt: sql`now()` })
    .where(eq(feeSchedule.id, id))
    .returning();
  return row!;
}
