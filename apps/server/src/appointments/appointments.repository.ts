import { randomUUID } from 'node:crypto';
import { and, asc, eq, getTableColumns, gt, gte, inArray, isNull, lt, ne, or, sql, type SQL } from 'drizzle-orm';
import { SLOT_HOLDING_STATUSES, type AppointmentStatus } from '@telehealth/shared';
import type { Reach } from '../access/authorize.ts';
import { auditEntryInsertSql, type AuditRecord } from '../audit/audit.repository.ts';
import type { Executor } from '../db/client.ts';
import { pickColumns } from '../db/pick-columns.ts';
import { rawRowMapper } from '../db/raw-rows.ts';
import { appointmentHistory, appointmentReminders, appointments } from './appointments.table.ts';
import { patientIdsOfAccount, patientRecords } from '../patients/patients.repository.ts';
import { providers } from '../providers/providers.table.ts';
import { appointmentsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { userAccounts, userNameOrNullOf } from '../users/users.repository.ts';

export type AppointmentRow = typeof appointments.$inferSelect;
export type NewAppointmentRow = typeof appointments.$inferInsert;
export type AppointmentChangeRow = typeof appointmentHistory.$inferSelect;

/** An appointment with the names the screens show beside it. */
export type AppointmentView = AppointmentRow & {
  patientFirstName: string;
  patientLastName: string;
  providerFirstName: string;
  providerLastName: string;
};

/** Which appointments a caller reaches: all, a provider's own, or those of a patient's own record. */
export type AppointmentReach = Reach<'appointment'>;

/** Where a page of the list ended: the last row's start (ISO) and id. */
export type AppointmentCursor = readonly [string, string];

export interface AppointmentQuery {
  /** Starting at or after this instant. */
  from?: Date | null;
  /** Starting before this instant. */
  before?: Date | null;
  providerId?: string | null;
  patientId?: string | null;
  statuses?: readonly AppointmentStatus[] | null;
}

const patient = patientRecords('patient');

const HOLDING = sql.raw(`(${SLOT_HOLDING_STATUSES.map((s) => `'${s}'`).join(', ')})`);

function reachCondition(reach: AppointmentReach): SQL | undefined {
  if (reach.kind === 'any') return undefined;
  if (reach.field === 'providerId') return eq(appointments.providerId, reach.callerId);
  // A patient's own: the appointments of the record linked to their account.
  return inArray(appointments.patientId, patientIdsOfAccount(reach.callerId));
}

function queryCondition(query: AppointmentQuery): SQL[] {
  const conditions: SQL[] = [];
  if (query.from) conditions.push(gte(appointments.startsAt, query.from));
  if (query.before) conditions.push(lt(appointments.startsAt, query.before));
  if (query.providerId) conditions.push(eq(appointments.providerId, query.providerId));
  if (query.patientId) conditions.push(eq(appointments.patientId, query.patientId));
  if (query.statuses?.length) conditions.push(inArray(appointments.status, [...query.statuses]));
  return conditions;
}

const viewColumns = {
  ...getTableColumns(appointments),
  patientFirstName: patient.firstName,
  patientLastName: patient.lastName,
  providerFirstName: providers.firstName,
  providerLastName: providers.lastName,
};

function selectViews(executor: Executor) {
  return executor
    .select(viewColumns)
    .from(appointments)
    .innerJoin(patient, eq(patient.id, appointments.patientId))
    .innerJoin(providers, eq(providers.id, appointments.providerId));
}

/**
 * The columns of selectViews with the names given column names of their own, for a page read as a common table
 * expression (the patient's and the provider's `first_name` would otherwise clash there): only `columns` (all
 * without), and always what the cursor and the audit entry read.
 */
function pageViewColumns(columns: ReadonlySet<keyof AppointmentView> | null) {
  return {
    ...pickColumns(
      {
        ...getTableColumns(appointments),
        patientFirstName: sql<string>`${patient.firstName}`.as('patient_first_name'),
        patientLastName: sql<string>`${patient.lastName}`.as('patient_last_name'),
        providerFirstName: sql<string>`${providers.firstName}`.as('provider_first_name'),
        providerLastName: sql<string>`${providers.lastName}`.as('provider_last_name'),
      },
      columns,
    ),
    id: appointments.id,
    patientId: appointments.patientId,
    startsAt: appointments.startsAt,
  };
}

const open = (keyring: Keyring) => (row: AppointmentView) => appointmentsEncrypted.open(keyring, row);

/** The appointment, if the caller's reach includes it (and its patient record is not deleted). */
export async function findVisibleAppointment(
  executor: Executor,
  id: string,
  reach: AppointmentReach,
  keyring: Keyring,
  options: { forUpdate?: boolean } = {},
): Promise<AppointmentView | undefined> {
  const where = and(eq(appointments.id, id), isNull(patient.deletedAt), reachCondition(reach));
  const query = selectViews(executor).where(where);
  const [row] = options.forUpdate ? await query.for('update', { of: appointments }) : await query;
  return row && open(keyring)(row);
}

/** Whether an appointment with this id exists for anyone: tells a denial from a miss. */
export async function appointmentExists(executor: Executor, id: string): Promise<boolean> {
  const [row] = await executor.select({ id: appointments.id }).from(appointments).where(eq(appointments.id, id));
  return row !== undefined;
}

/**
 * One page in start order (then id), after the cursor; one extra row tells whether more follow.
 * With `audit`, the same statement writes that audit entry, its details getting the ids on the page
 * (`appointmentIds`, in page order), their patients (`patientIds`, each once, in order of first appearance) and
 * their `count`: one round trip, no transaction (as listPatientsPage).
 */
export async function listAppointmentsPage(
  executor: Executor,
  options: {
    reach: AppointmentReach;
    query: AppointmentQuery;
    after: AppointmentCursor | null;
    limit: number;
    audit?: AuditRecord;
    /**
     * With `audit`: only these columns (and the id, patient and start): the rows are then partial, for a reader
     * that reads no other field.
     */
    columns?: ReadonlySet<keyof AppointmentView> | null;
  },
  keyring: Keyring,
): Promise<{ rows: AppointmentView[]; next: AppointmentCursor | null }> {
  const { reach, query, after, limit, audit, columns } = options;
  const conditions = [isNull(patient.deletedAt), ...queryCondition(query)];
  const own = reachCondition(reach);
  if (own) conditions.push(own);
  if (after) {
    conditions.push(
      or(
        gt(appointments.startsAt, new Date(after[0])),
        and(eq(appointments.startsAt, new Date(after[0])), gt(appointments.id, after[1])),
      )!,
    );
  }
  const order = [asc(appointments.startsAt), asc(appointments.id)];
  let rows: AppointmentView[];
  if (!audit) {
    rows = await selectViews(executor)
      .where(and(...conditions))
      .orderBy(...order)
      .limit(limit + 1);
  } else {
    const selection = pageViewColumns(columns ?? null);
    const page = executor.$with('page').as(
      executor
        .select(selection)
        .from(appointments)
        .innerJoin(patient, eq(patient.id, appointments.patientId))
        .innerJoin(providers, eq(providers.id, appointments.providerId))
        .where(and(...conditions))
        .orderBy(...order)
        .limit(limit + 1),
    );
    // The rows shown (the page without its look-ahead row), numbered in page order.
    const shown = sql`(SELECT ${page.id} AS id, ${page.patientId} AS patient_id,
      row_number() OVER (ORDER BY ${page.startsAt}, ${page.id}) AS n
      FROM ${page} ORDER BY ${page.startsAt}, ${page.id} LIMIT ${limit})`;
    const entry = executor.$with('audit_entry', {}).as(
      auditEntryInsertSql(audit, {
        extraDetails: sql`(SELECT jsonb_build_object(
          'appointmentIds', coalesce(jsonb_agg(shown.id ORDER BY shown.n), '[]'::jsonb),
          'patientIds', coalesce((SELECT jsonb_agg(first.patient_id ORDER BY first.n)
            FROM (SELECT patient_id, min(n) AS n FROM ${shown} ids GROUP BY patient_id) first), '[]'::jsonb),
          'count', count(*)) FROM ${shown} shown)`,
      }),
    );
    // Run as raw rows and mapped once per selection, not per field of every row (Drizzle's mapper): the same values.
    const result = await executor.execute<Record<string, unknown>>(
      executor.with(page, entry).select().from(page).orderBy(asc(page.startsAt), asc(page.id)),
    );
    rows = result.rows.map(rawRowMapper<AppointmentView>(selection));
  }
  const shown = rows.slice(0, limit);
  const last = shown.at(-1);
  return {
    rows: shown.map(open(keyring)),
    next: rows.length > limit && last ? [last.startsAt.toISOString(), last.id] : null,
  };
}

/** The appointments of a series from a start on (this and the following ones), oldest first. */
export async function findSeriesFrom(
  executor: Executor,
  seriesId: string,
  from: Date,
  keyring: Keyring,
): Promise<AppointmentView[]> {
  const rows = await selectViews(executor)
    .where(and(eq(appointments.seriesId, seriesId), gte(appointments.startsAt, from)))
    .orderBy(asc(appointments.startsAt))
    .for('update', { of: appointments });
  return rows.map(open(keyring));
}

/** Inserts appointments with their ids chosen here (the encrypted values are bound to them). */
export async function insertAppointments(
  tx: Executor,
  values: NewAppointmentRow[],
  keyring: Keyring,
): Promise<AppointmentRow[]> {
  if (values.length === 0) return [];
  const sealed = values.map((v) => {
    const id = v.id ?? randomUUID();
    return { ...appointmentsEncrypted.seal(keyring, id, v), id };
  });
  const rows = await tx.insert(appointments).values(sealed).returning();
  return rows.map((row) => appointmentsEncrypted.open(keyring, row));
}

export async function updateAppointmentRow(
  tx: Executor,
  id: string,
  values: Partial<NewAppointmentRow>,
  keyring: Keyring,
): Promise<void> {
  await tx
    .update(appointments)
    .set({ ...appointmentsEncrypted.seal(keyring, id, values), updatedAt: new Date() })
    .where(eq(appointments.id, id));
}

export async function insertAppointmentHistory(
  tx: Executor,
  entries: (typeof appointmentHistory.$inferInsert)[],
): Promise<void> {
  if (entries.length > 0) await tx.insert(appointmentHistory).values(entries);
}

export async function listAppointmentHistory(executor: Executor, appointmentId: string) {
  return executor
    .select({
      ...getTableColumns(appointmentHistory),
      actorName: userNameOrNullOf(appointmentHistory.actorId),
    })
    .from(appointmentHistory)
    .where(eq(appointmentHistory.appointmentId, appointmentId))
    .orderBy(asc(appointmentHistory.id));
}

export interface Interval {
  startsAt: Date;
  endsAt: Date;
}

/**
 * The slot-holding appointments of a provider or a patient that overlap any of the intervals, apart from the
 * appointments in `except` (those being moved). What a series checks before it writes anything.
 */
export async function findOverlaps(
  executor: Executor,
  options: { providerId: string; patientId: string; intervals: Interval[]; except?: string[] },
): Promise<{ id: string; providerId: string; patientId: string; status: string; startsAt: Date; endsAt: Date }[]> {
  if (options.intervals.length === 0) return [];
  const ranges = options.intervals.map(
    (i) => sql`tstzrange(${i.startsAt.toISOString()}::timestamptz, ${i.endsAt.toISOString()}::timestamptz, '[)')`,
  );
  const conditions: SQL[] = [
    sql`${appointments.status} IN ${HOLDING}`,
    or(eq(appointments.providerId, options.providerId), eq(appointments.patientId, options.patientId))!,
    sql`tstzrange(${appointments.startsAt}, ${appointments.endsAt}, '[)') && ANY (ARRAY[${sql.join(ranges, sql`, `)}])`,
  ];
  for (const id of options.except ?? []) conditions.push(ne(appointments.id, id));
  return executor
    .select({
      id: appointments.id,
      providerId: appointments.providerId,
      patientId: appointments.patientId,
      status: appointments.status,
      startsAt: appointments.startsAt,
      endsAt: appointments.endsAt,
    })
    .from(appointments)
    .where(and(...conditions));
}

/**
 * Ends completed visits that began before `at` at `at` (See now, decision 046): the booked time they no longer use
 * is free again. Only rows still completed, begun before `at` and booked past it. Answers the ids changed.
 */
export async function releaseCompletedTime(tx: Executor, ids: string[], at: Date, by: string): Promise<string[]> {
  if (ids.length === 0) return [];
  const rows = await tx
    .update(appointments)
    .set({ endsAt: at, updatedAt: sql`now()`, updatedBy: by })
    .where(
      and(
        inArray(appointments.id, ids),
        eq(appointments.status, 'completed'),
        lt(appointments.startsAt, at),
        gt(appointments.endsAt, at),
      ),
    )
    .returning({ id: appointments.id });
  return rows.map((r) => r.id);
}

/** The slot-holding appointments of a provider that overlap [from, to): what availableSlots leaves out. */
export async function findProviderBusy(
  executor: Executor,
  providerId: string,
  from: Date,
  to: Date,
): Promise<Interval[]> {
  return executor
    .select({ startsAt: appointments.startsAt, endsAt: appointments.endsAt })
    .from(appointments)
    .where(
      and(
        eq(appointments.providerId, providerId),
        sql`${appointments.status} IN ${HOLDING}`,
        lt(appointments.startsAt, to),
        gt(appointments.endsAt, from),
      ),
    );
}

/** An appointment with the addresses and languages its mails go to, locked until the transaction ends. */
export async function lockAppointmentForMail(tx: Executor, id: string) {
  const patientAccount = userAccounts('patient_account');
  const providerAccount = userAccounts('provider_account');
  const [row] = await tx
    .select({
      appointment: appointments,
      patientFirstName: patient.firstName,
      patientLastName: patient.lastName,
      patientEmail: patient.email,
      patientLanguage: patientAccount.language,
      providerFirstName: providers.firstName,
      providerLastName: providers.lastName,
      providerEmail: providerAccount.email,
      providerLanguage: providerAccount.language,
    })
    .from(appointments)
    .innerJoin(patient, eq(patient.id, appointments.patientId))
    .innerJoin(providers, eq(providers.id, appointments.providerId))
    .innerJoin(providerAccount, eq(providerAccount.id, providers.id))
    .leftJoin(patientAccount, eq(patientAccount.id, patient.accountId))
    .where(eq(appointments.id, id))
    .for('update', { of: appointments });
  return row;
}

/** A provider's appointments starting in [from, to), with the patient's name, in start order (the calendar feed). */
export async function findFeedAppointments(executor: Executor, providerId: string, from: Date, to: Date) {
  return executor
    .select({
      id: appointments.id,
      patientId: appointments.patientId,
      startsAt: appointments.startsAt,
      endsAt: appointments.endsAt,
      sequence: appointments.sequence,
      status: appointments.status,
      appointmentType: appointments.appointmentType,
      firstName: patient.firstName,
      lastName: patient.lastName,
    })
    .from(appointments)
    .innerJoin(patient, eq(patient.id, appointments.patientId))
    .where(
      and(eq(appointments.providerId, providerId), gte(appointments.startsAt, from), lt(appointments.startsAt, to)),
    )
    .orderBy(asc(appointments.startsAt));
}

/** Records the SEQUENCE whose invitation was queued (not a change of the appointment: updated_at stays). */
export async function markInvitationQueued(tx: Executor, id: string, sequence: number): Promise<void> {
  await tx.update(appointments).set({ invitationSequence: sequence }).where(eq(appointments.id, id));
}

/** Records a reminder as sent; false when it already was (a job run twice, or again after a restart). */
export async function claimReminder(
  tx: Executor,
  values: { appointmentId: string; hoursBefore: number; startsAt: Date },
): Promise<boolean> {
  const rows = await tx
    .insert(appointmentReminders)
    .values(values)
    .onConflictDoNothing()
    .returning({ id: appointmentReminders.appointmentId });
  return rows.length > 0;
}

/** Where a patient stands with their visits: for the "before your first visit" flow (decision 068). */
export interface PatientVisitFacts {
  patientId: string;
  /** Appointments not cancelled, past or ahead (1 right after the first booking). */
  booked: number;
  /** Appointments not cancelled that have already started (the first visit is behind when this is not 0). */
  started: number;
  /** The next slot-holding appointment's start, if one is ahead. */
  nextStartsAt: Date | null;
  /** Of the appointments asked about (by id), how many are this patient's and not cancelled. */
  asked: number;
}

/**
 * Of `patientIds`, those with a visit with the provider `providerId` in any status but cancelled: the patients a
 * provider's calendar shows, whose readiness for the visit they may see (decision 068).
 */
export async function findPatientsWithVisitsOf(
  executor: Executor,
  providerId: string,
  patientIds: readonly string[],
): Promise<Set<string>> {
  if (patientIds.length === 0) return new Set();
  const rows = await executor
    .selectDistinct({ patientId: appointments.patientId })
    .from(appointments)
    .where(
      and(
        eq(appointments.providerId, providerId),
        inArray(appointments.patientId, [...patientIds]),
        ne(appointments.status, 'cancelled'),
      ),
    );
  return new Set(rows.map((row) => row.patientId));
}

/** The facts of the patients of these appointments (or of these patients), one row per patient. */
export async function findPatientVisitFacts(
  executor: Executor,
  of: { appointmentIds: readonly string[] } | { patientIds: readonly string[] },
): Promise<PatientVisitFacts[]> {
  const ids = 'appointmentIds' in of ? of.appointmentIds : of.patientIds;
  if (ids.length === 0) return [];
  const patientIds =
    'appointmentIds' in of
      ? sql`SELECT DISTINCT patient_id FROM appointments WHERE id = ANY(${`{${ids.join(',')}}`}::uuid[])`
      : sql`SELECT unnest(${`{${ids.join(',')}}`}::uuid[])`;
  const asked = 'appointmentIds' in of ? `{${ids.join(',')}}` : '{}';
  const result = await executor.execute<{
    patient_id: string;
    booked: number;
    started: number;
    next: string | null;
    asked: number;
  }>(
    sql`SELECT p.id AS patient_id,
               count(a.id) FILTER (WHERE a.status <> 'cancelled' AND a.id = ANY(${asked}::uuid[]))::int AS asked,
               count(a.id) FILTER (WHERE a.status <> 'cancelled')::int AS booked,
               count(a.id) FILTER (WHERE a.status <> 'cancelled' AND a.starts_at <= now())::int AS started,
               min(a.starts_at) FILTER (WHERE a.status IN ${HOLDING} AND a.starts_at > now()) AS next
          FROM (${patientIds}) AS p(id)
          LEFT JOIN appointments a ON a.patient_id = p.id
         GROUP BY p.id`,
  );
  return result.rows.map((r) => ({
    patientId: r.patient_id,
    booked: Number(r.booked),
    started: Number(r.started),
    nextStartsAt: r.next ? new Date(r.next) : null,
    asked: Number(r.asked),
  }));
}
