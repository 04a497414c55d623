import { and, asc, eq, gte, inArray, lte, sql } from 'drizzle-orm';
import { SLOT_HOLDING_STATUSES, type WorkingHoursInterval } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { appointments, providerSchedules, providerTimeOff, providerWorkingHours } from './appointments.table.ts';
import { providers } from '../providers/providers.table.ts';
import { userAccounts } from '../users/users.repository.ts';

export type TimeOffRow = typeof providerTimeOff.$inferSelect;

/** The provider's account: who is active with the provider role. */
const account = userAccounts('account');

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
    .innerJoin(account, and(eq(account.id, providers.id), eq(account.role, 'provider'), eq(account.isActive, true)))
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

/** What a day's slots are worked out from (see findDaySchedule). */
export interface DaySchedule {
  /** Whether the provider is an active provider account. */
  active: boolean;
  /** As findWorkingHours answers it. */
  week: { custom: boolean; intervals: WorkingHoursInterval[] };
  /** As findTimeOff answers it for the date, with the fields the slots read. */
  timeOff: { startDate: string; endDate: string }[];
  /** As findProviderBusy answers it for the day. */
  busy: { startsAt: Date; endsAt: Date }[];
}

const HOLDING_STATUSES = sql.raw(`(${SLOT_HOLDING_STATUSES.map((s) => `'${s}'`).join(', ')})`);

/**
 * In one statement (one round trip instead of four or five): whether the provider is active (isActiveProvider),
 * their week (findWorkingHours, `defaults` when they have set none), their time off on `date` (findTimeOff) and
 * the slot-holding appointments overlapping [from, to) (findProviderBusy), each with the same conditions and order.
 */
export async function findDaySchedule(
  executor: Executor,
  providerId: string,
  day: { date: string; from: Date; to: Date },
  defaults: readonly WorkingHoursInterval[],
): Promise<DaySchedule> {
  const result = await executor.execute<{
    active: boolean;
    custom: boolean;
    week: [number, string, string][];
    time_off: [string, string][];
    busy: [number, number][];
  }>(sql`SELECT
    EXISTS (SELECT 1 FROM ${providers} JOIN ${account} ON ${account.id} = ${providers.id}
      WHERE ${providers.id} = ${providerId} AND ${account.role} = 'provider' AND ${account.isActive}) AS active,
    EXISTS (SELECT 1 FROM ${providerSchedules} WHERE ${providerSchedules.providerId} = ${providerId}) AS custom,
    (SELECT coalesce(json_agg(json_build_array(${providerWorkingHours.weekday}, ${providerWorkingHours.startTime},
        ${providerWorkingHours.endTime}) ORDER BY ${providerWorkingHours.weekday}, ${providerWorkingHours.startTime}), '[]')
      FROM ${providerWorkingHours} WHERE ${providerWorkingHours.providerId} = ${providerId}) AS week,
    (SELECT coalesce(json_agg(json_build_array(${providerTimeOff.startDate}, ${providerTimeOff.endDate})
        ORDER BY ${providerTimeOff.startDate}), '[]')
      FROM ${providerTimeOff} WHERE ${providerTimeOff.providerId} = ${providerId}
        AND ${providerTimeOff.startDate} <= ${day.date} AND ${providerTimeOff.endDate} >= ${day.date}) AS time_off,
    (SELECT coalesce(json_agg(json_build_array(floor(extract(epoch FROM ${appointments.startsAt}) * 1000),
        floor(extract(epoch FROM ${appointments.endsAt}) * 1000))), '[]')
      FROM ${appointments} WHERE ${appointments.providerId} = ${providerId}
        AND ${appointments.status} IN ${HOLDING_STATUSES}
        AND ${appointments.startsAt} < ${day.to.toISOString()}::timestamptz
        AND ${appointments.endsAt} > ${day.from.toISOString()}::timestamptz) AS busy`);
  const row = result.rows[0]!;
  return {
    active: row.active,
    week: row.custom
      ? {
          custom: true,
          intervals: row.week.map(([weekday, startTime, endTime]) => ({ weekday, startTime, endTime })),
        }
      : { custom: false, intervals: defaults.map((interval) => ({ ...interval })) },
    timeOff: row.time_off.map(([startDate, endDate]) => ({ startDate, endDate })),
    busy: row.busy.map(([startsAt, endsAt]) => ({ startsAt: new Date(startsAt), endsAt: new Date(endsAt) })),
  };
}
