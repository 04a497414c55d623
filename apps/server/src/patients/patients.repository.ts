import { randomUUID } from 'node:crypto';
import { and, asc, eq, getTableColumns, gt, inArray, isNull, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import type { Reach } from '../access/authorize.ts';
import { orEmergencyGrants } from '../access/emergency-grants.ts';
import { auditEntryInsertSql, type AuditRecord } from '../audit/audit.repository.ts';
import type { Executor } from '../db/client.ts';
import { pickColumns } from '../db/pick-columns.ts';
import { patients } from './patients.table.ts';
import { patientsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { PatientCursor } from '../db/cursor.ts';
import { userAccounts } from '../users/users.repository.ts';
import { containsPattern } from '../db/like.ts';

export type PatientRow = typeof patients.$inferSelect;
export type NewPatientRow = typeof patients.$inferInsert;

/** Which patients a caller may see: all of them, or their own (primary provider, or the patient's own record). */
export type PatientScope = Reach<'patient'>;

export interface PatientFilter {
  search?: string | null | undefined;
  isActive?: boolean | null | undefined;
}

const lowerLast = sql`lower(${patients.lastName})`;
const lowerFirst = sql`lower(${patients.firstName})`;
const searchText = sql`lower(${patients.firstName} || ' ' || ${patients.lastName} || ' ' || ${patients.email})`;

function visible(scope: PatientScope, filter: PatientFilter = {}): SQL {
  const conditions: SQL[] = [isNull(patients.deletedAt)];
  if (scope.kind === 'own') {
    conditions.push(orEmergencyGrants(eq(patients[scope.field], scope.callerId), patients.id, scope.emergency));
  }
  if (filter.isActive != null) conditions.push(eq(patients.isActive, filter.isActive));
  const term = filter.search?.trim().toLowerCase();
  if (term) {
    conditions.push(sql`${searchText} LIKE ${containsPattern(term)}`);
  }
  return and(...conditions)!;
}

/**
 * The patient, if the caller's scope reaches it. With `audit`, the same statement writes that audit entry
 * (details get `patientIds`) when the patient is found: one round trip, no transaction.
 *
 * The clinical free text is stored encrypted: rows leave this repository readable (each value decrypted when first
 * read) and values enter it encrypted for their row, so every function that reads or writes them takes the keyring.
 */
export async function findVisiblePatient(
  executor: Executor,
  id: string,
  scope: PatientScope,
  keyring: Keyring,
  audit?: AuditRecord,
): Promise<PatientRow | undefined> {
  const where = and(eq(patients.id, id), visible(scope));
  if (!audit) {
    const [row] = await executor.select().from(patients).where(where);
    return row && patientsEncrypted.open(keyring, row);
  }
  const found = executor.$with('found').as(executor.select().from(patients).where(where));
  const entry = executor.$with('audit_entry', {}).as(
    auditEntryInsertSql(audit, {
      from: sql`${found}`,
      extraDetails: sql`jsonb_build_object('patientIds', jsonb_build_array(${found.id}))`,
    }),
  );
  const [row] = await executor.with(found, entry).select().from(found);
  return row && patientsEncrypted.open(keyring, row);
}

/** Whether the caller's scope reaches the patient: its id alone, for a check that shows nothing of the record. */
export async function isVisiblePatient(executor: Executor, id: string, scope: PatientScope): Promise<boolean> {
  const [row] = await executor
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.id, id), visible(scope)));
  return row !== undefined;
}

/** Of `ids`, those the caller's scope reaches, in one query (`isVisiblePatient` for many). */
export async function visiblePatientIds(
  executor: Executor,
  ids: readonly string[],
  scope: PatientScope,
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await executor
    .select({ id: patients.id })
    .from(patients)
    .where(and(inArray(patients.id, [...ids]), visible(scope)));
  return new Set(rows.map((row) => row.id));
}

/** Whether a (not deleted) patient with this id exists for anyone: tells a denial from a miss. */
export async function patientExists(tx: Executor, id: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: patients.id })
    .from(patients)
    .where(and(eq(patients.id, id), isNull(patients.deletedAt)));
  return row !== undefined;
}

/**
 * One page in the list order, starting after the cursor; fetches one extra row to know if more follow.
 * With `audit`, the same statement writes that audit entry, its details getting the ids on the page
 * (`patientIds`) and their `count`: one round trip, no transaction.
 */
export async function listPatientsPage(
  executor: Executor,
  options: {
    scope: PatientScope;
    filter: PatientFilter;
    after: PatientCursor | null;
    limit: number;
    audit?: AuditRecord;
    /** Only these columns (and the id): the rows are then partial, for a reader that reads no other field. */
    columns?: ReadonlySet<keyof PatientRow> | null;
  },
  keyring: Keyring,
): Promise<{ rows: PatientRow[]; next: PatientCursor | null }> {
  const { scope, filter, after, limit, audit, columns } = options;
  const where = after
    ? and(
        visible(scope, filter),
        sql`(${lowerLast}, ${lowerFirst}, ${patients.id}) > (${after[0]}, ${after[1]}, ${after[2]}::uuid)`,
      )
    : visible(scope, filter);
  // The cursor takes the sort keys as the database computed them, so its lower() and ours never disagree.
  const page = executor.$with('page').as(
    executor
      .select({
        ...pickColumns(getTableColumns(patients), columns),
        id: patients.id,
        sortLast: sql<string>`${lowerLast}`.as('sort_last'),
        sortFirst: sql<string>`${lowerFirst}`.as('sort_first'),
      })
      .from(patients)
      .where(where)
      .orderBy(asc(lowerLast), asc(lowerFirst), asc(patients.id))
      .limit(limit + 1),
  );
  const shown = sql`(SELECT ${page.id}, ${page.sortLast}, ${page.sortFirst} FROM ${page}
    ORDER BY ${page.sortLast}, ${page.sortFirst}, ${page.id} LIMIT ${limit}) shown`;
  const withs = audit
    ? [
        page,
        executor.$with('audit_entry', {}).as(
          auditEntryInsertSql(audit, {
            extraDetails: sql`(SELECT jsonb_build_object(
              'patientIds', coalesce(jsonb_agg(shown.id ORDER BY shown.sort_last, shown.sort_first, shown.id), '[]'::jsonb),
              'count', count(*)) FROM ${shown})`,
          }),
        ),
      ]
    : [page];
  const rows = await executor
    .with(...withs)
    .select()
    .from(page)
    .orderBy(asc(page.sortLast), asc(page.sortFirst), asc(page.id));
  const shownRows = rows.slice(0, limit);
  const last = shownRows.at(-1);
  const next = rows.length > limit && last ? ([last.sortLast, last.sortFirst, last.id] as const) : null;
  return {
    rows: shownRows.map(({ sortLast: _last, sortFirst: _first, ...patient }) =>
      patientsEncrypted.open(keyring, patient),
    ),
    next,
  };
}

export async function countPatients(tx: Executor, scope: PatientScope, filter: PatientFilter): Promise<number> {
  const [row] = await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(patients)
    .where(visible(scope, filter));
  return row?.n ?? 0;
}

export async function insertPatient(tx: Executor, values: NewPatientRow, keyring: Keyring): Promise<PatientRow> {
  const [row] = await tx.insert(patients).values(sealPatient(values, keyring)).returning();
  if (!row) throw new Error('insert returned no row');
  return patientsEncrypted.open(keyring, row);
}

/** Many patients in one statement (demo practice, seeding); answers their ids in order. */
export async function insertPatients(tx: Executor, values: NewPatientRow[], keyring: Keyring): Promise<string[]> {
  if (values.length === 0) return [];
  const rows = await tx
    .insert(patients)
    .values(values.map((v) => sealPatient(v, keyring)))
    .returning({ id: patients.id });
  return rows.map((r) => r.id);
}

/** The values with an id (the encrypted ones are bound to it, so it is chosen here) and the clinical text sealed. */
function sealPatient(values: NewPatientRow, keyring: Keyring): NewPatientRow & { id: string } {
  const id = values.id ?? randomUUID();
  return { ...patientsEncrypted.seal(keyring, id, values), id };
}

export async function updatePatientRow(
  tx: Executor,
  id: string,
  values: Partial<NewPatientRow>,
  keyring: Keyring,
): Promise<PatientRow> {
  const [row] = await tx
    .update(patients)
    .set({ ...patientsEncrypted.seal(keyring, id, values), updatedAt: new Date() })
    .where(and(eq(patients.id, id), isNull(patients.deletedAt)))
    .returning();
  if (!row) throw new Error('update returned no row');
  return patientsEncrypted.open(keyring, row);
}

export async function softDeletePatient(tx: Executor, id: string, deletedBy: string): Promise<void> {
  await tx.update(patients).set({ deletedAt: new Date(), deletedBy, isActive: false }).where(eq(patients.id, id));
}

// Building blocks of other domains' queries (decision 060) --------------------------------------------------------

/**
 * The patient records as another domain's query joins them (a patient's name beside an appointment, a note, a
 * conversation; the record's account and primary provider for a reach check): `(SELECT id, first_name, ... FROM
 * patients) <alias>`, with only the columns other domains read, deleted records included (each caller says
 * whether it wants them: `isNull(patient.deletedAt)`). PostgreSQL pulls such a subquery up into the join, so the
 * plan is the one of a join on `patients` itself. No clinical field leaves here this way: those are encrypted and
 * read through this repository's own functions.
 */
export function patientRecords<TAlias extends string>(alias: TAlias) {
  return new QueryBuilder()
    .select({
      id: patients.id,
      firstName: patients.firstName,
      lastName: patients.lastName,
      email: patients.email,
      accountId: patients.accountId,
      ownerId: patients.ownerId,
      isActive: patients.isActive,
      deletedAt: patients.deletedAt,
    })
    .from(patients)
    .as(alias);
}

/** The ids of the (not deleted) records linked to this account, as a subquery: `column IN <this>`. */
export function patientIdsOfAccount(accountId: string): SQL {
  return sql`(SELECT ${patients.id} FROM ${patients} WHERE ${patients.accountId} = ${accountId} AND ${patients.deletedAt} IS NULL)`;
}

/** The ids of the (not deleted) records whose primary provider this is, as a subquery: `column IN <this>`. */
export function patientIdsOwnedBy(providerId: string): SQL {
  return sql`(SELECT ${patients.id} FROM ${patients} WHERE ${patients.ownerId} = ${providerId} AND ${patients.deletedAt} IS NULL)`;
}

/** The account linked to the record (deleted or not; null when none) as a column of another table's query. */
export function patientAccountIdOf(patientIdColumn: SQL | AnyColumn): SQL<string | null> {
  return sql<string | null>`(SELECT ${patients.accountId} FROM ${patients} WHERE ${eq(patients.id, patientIdColumn)})`;
}

/**
 * A condition on a `patient_id` column: the patient is one whose care team the provider is on. Today that is the
 * primary provider (`patients.ownerId`); a wider team (covering providers, a therapist beside the psychiatrist)
 * changes only this and `findCareTeam`, and every check that follows the care team follows (decision 029).
 */
export function onCareTeamOf(patientIdColumn: SQL | { name: string }, providerId: string): SQL {
  return sql`${patientIdColumn} IN ${patientIdsOwnedBy(providerId)}`;
}

/** The active providers on the patient's care team (account ids). */
export async function findCareTeam(executor: Executor, patientId: string): Promise<string[]> {
  const owner = userAccounts('owner');
  const rows = await executor
    .select({ id: owner.id })
    .from(patients)
    .innerJoin(owner, eq(owner.id, patients.ownerId))
    .where(and(eq(patients.id, patientId), isNull(patients.deletedAt), eq(owner.isActive, true)));
  return rows.map((r) => r.id);
}

/**
 * A page of whole (not deleted) records in id order after `after`, as stored (the clinical text still sealed):
 * the FHIR export, which reads no clinical field. With `patientId`, only that record.
 */
export async function findExportablePatientRows(
  executor: Executor,
  options: { after: string; patientId?: string | undefined; limit: number },
): Promise<PatientRow[]> {
  return executor
    .select()
    .from(patients)
    .where(
      and(
        isNull(patients.deletedAt),
        gt(patients.id, options.after),
        options.patientId ? eq(patients.id, options.patientId) : undefined,
      ),
    )
    .orderBy(asc(patients.id))
    .limit(options.limit);
}

// Queries other domains make about a patient record ------------------------------------------------------------
// (Those about its link to the patient's account are in patient-accounts.repository.ts.)

/** The patient's primary provider (deleted record or not), as a list: empty when it has none. */
export async function findPatientOwnerIds(executor: Executor, patientId: string): Promise<string[]> {
  const rows = await executor
    .select({ ownerId: patients.ownerId })
    .from(patients)
    .where(and(eq(patients.id, patientId), sql`${patients.ownerId} IS NOT NULL`));
  return rows.map((r) => r.ownerId!);
}

/** Every row of the table, deleted ones too (whether the demo practice was seeded; numbering seeded patients). */
export async function countPatientRows(executor: Executor): Promise<number> {
  const [row] = await executor.select({ n: sql<number>`count(*)::int` }).from(patients);
  return row?.n ?? 0;
}

/** A provider's active (not deleted) patients, ordered by the given name columns (demo data picks from them). */
export async function findActivePatientsOf(
  executor: Executor,
  ownerId: string,
  order: readonly ('lastName' | 'firstName')[],
): Promise<{ id: string; accountId: string | null }[]> {
  return executor
    .select({ id: patients.id, accountId: patients.accountId })
    .from(patients)
    .where(and(eq(patients.ownerId, ownerId), isNull(patients.deletedAt), eq(patients.isActive, true)))
    .orderBy(...order.map((column) => asc(patients[column])));
}

/** The (not deleted) record with its primary provider. */
export async function findPatientOwner(
  executor: Executor,
  id: string,
): Promise<{ id: string; ownerId: string | null } | undefined> {
  const [row] = await executor
    .select({ id: patients.id, ownerId: patients.ownerId })
    .from(patients)
    .where(and(eq(patients.id, id), isNull(patients.deletedAt)));
  return row;
}

/**
 * The (not deleted) records whose name (either case) and date of birth are these, at most `limit` (emergency
 * access looks a patient up this way, and wants to know whether exactly one matched).
 */
export async function findPatientsByNameAndBirth(
  executor: Executor,
  person: { firstName: string | null; lastName: string | null; dateOfBirth: string | null },
  limit: number,
): Promise<{ id: string; ownerId: string | null }[]> {
  return executor
    .select({ id: patients.id, ownerId: patients.ownerId })
    .from(patients)
    .where(
      and(
        isNull(patients.deletedAt),
        sql`lower(${patients.firstName}) = lower(${person.firstName})`,
        sql`lower(${patients.lastName}) = lower(${person.lastName})`,
        sql`${patients.dateOfBirth} = ${person.dateOfBirth}`,
      ),
    )
    .limit(limit);
}
