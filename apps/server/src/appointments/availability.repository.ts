import { and, asc, eq, gte, inArray, lte } from 'drizzle-orm';
import type { WorkingHoursInterval } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { providerSchedules, providerTimeOff, providerWorkingHours } from './appointments.table.ts';
import { users } from '../auth/auth.table.ts';
import { providers } from '../providers/providers.table.ts';

export type TimeOffRow = typeof providerTimeOff.$inferSelect;

/**
 * A provider's weekly hours: their own once they have set them, else the practice's default week (`defaults`, the
 * practice's setting in use now).
 */
export async function findWorkingHours(
  executor: Executor,
  providerId: string,
  defaults: readonly WorkingHoursInterval[],
): Promise<{ custom: boolean; intervals: WorkingHoursInterval[] }> {
  const [schedule] = await executor
    .select({ providerId: providerSchedules.providerId })
    .from(providerSchedules)
    .where(eq(providerSchedules.providerId, providerId));
  if (!schedule) return { custom: false, intervals: defaults.map((interval) => ({ ...interval })) };
  const intervals = await executor
    .select({
      weekday: providerWorkingHours.weekday,
      startTime: providerWorkingHours.startTime,
      endTime: providerWorkingHours.endTime,
    })
    .from(providerWorkingHours)
    .where(eq(providerWorkingHours.providerId, providerId))
    .orderBy(asc(providerWorkingHours.weekday), asc(providerWorkingHours.startTime));
  return { custom: true, intervals };
}

/**
 * The weekly hours of every active provider (their own, else `defaults`), without saying whose: what the practice
 * as a whole covers. No provider at all answers the default week alone.
 */
export async function findActiveProviderWeeks(
  executor: Executor,
  defaults: readonly WorkingHoursInterval[],
): Promise<WorkingHoursInterval[][]> {
  const active = await executor
    .select({ id: providers.id, custom: providerSchedules.providerId })
    .from(providers)
    .innerJoin(users, and(eq(users.id, providers.id), eq(users.role, 'provider'), eq(users.isActive, true)))
    .leftJoin(providerSchedules, eq(providerSchedules.providerId, providers.id));
  if (active.length === 0) return [defaults.map((interval) => ({ ...interval }))];
  const customIds = active.flatMap((row) => (row.custom ? [row.id] : []));
  const rows =
    customIds.length === 0
      ? []
      : await executor
          .select({
            providerId: providerWorkingHours.providerId,
            weekday: providerWorkingHours.weekday,
            startTime: providerWorkingHours.startTime,
            endTime: providerWorkingHours.endTime,
          })
          .from(providerWorkingHours)
          .where(inArray(providerWorkingHours.providerId, customIds));
  return active.map((provider) =>
    provider.custom
      ? rows
          .filter((row) => row.providerId === provider.id)
          .map(({ weekday, startTime, endTime }) => ({ weekday, startTime, endTime }))
      : defaults.map((interval) => ({ ...interval })),
  );
}

/** Replaces a provider's weekly hours (an empty list is a week without hours). */
export async function replaceWorkingHours(
  tx: Executor,
  providerId: string,
  intervals: WorkingHoursInterval[],
  actorId: string,
): Promise<void> {
  await tx
    .insert(providerSchedules)
    .values({ providerId, updatedBy: actorId })
    .onConflictDoUpdate({ target: providerSchedules.providerId, set: { updatedAt: new Date(), updatedBy: actorId } });
  await tx.delete(providerWorkingHours).where(eq(providerWorkingHours.providerId, providerId));
  if (intervals.length > 0) {
    await tx.insert(providerWorkingHours).values(intervals.map((i) => ({ providerId, ...i })));
  }
}

/** Time off that touches the dates from `from` to `to` (both included); all of it when no dates are given. */
export async function findTimeOff(
  executor: Executor,
  providerId: string,
  range: { from?: string; to?: string } = {},
): Promise<TimeOffRow[]> {
  const conditions = [eq(providerTimeOff.providerId, providerId)];
  if (range.to) conditions.push(lte(providerTimeOff.startDate, range.to));
  if (range.from) conditions.push(gte(providerTimeOff.endDate, range.from));
  return executor
    .select()
    .from(providerTimeOff)
    .where(and(...conditions))
    .orderBy(asc(providerTimeOff.startDate));
}

export async function insertTimeOff(tx: Executor, values: typeof providerTimeOff.$inferInsert): Promise<TimeOffRow> {
  const [row] = await tx.insert(providerTimeOff).values(values).returning();
  if (!row) throw new Error('insert returned no row');
  return row;
}

/** Deletes a provider's time off; answers whether there was such a row. */
export async function deleteTimeOff(tx: Executor, providerId: string, id: string): Promise<boolean> {
  const rows = await tx
    .delete(providerTimeOff)
    .where(and(eq(providerTimeOff.id, id), eq(providerTimeOff.providerId, providerId)))
    .returning({ id: providerTimeOff.id });
  return rows.length > 0;
}
