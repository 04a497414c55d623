import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { LedgerEntryKind, PaymentMethod, PlaceOfService } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { ledgerEntriesEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { userNameOf } from '../users/users.repository.ts';
import { feeSchedule, ledgerEntries, visitCodingLines, visitCodings } from './billing.table.ts';

// The billing domain's core reads and writes (decision 073). Services build on these; the ledger is only ever
// appended to (appendLedgerEntries), and a coding version only ever added (insertCodingVersion).

export type FeeItemRow = typeof feeSchedule.$inferSelect;
export type VisitCodingRow = typeof visitCodings.$inferSelect;
export type VisitCodingLineRow = typeof visitCodingLines.$inferSelect;
export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;

// --- Fee schedule --------------------------------------------------------------------------------------------

/** Every service of the fee schedule, by code. */
export function listFeeItems(executor: Executor): Promise<FeeItemRow[]> {
  return executor.select().from(feeSchedule).orderBy(asc(feeSchedule.code));
}

/** The services with these ids (any order; ids naming nothing are left out). */
export function findFeeItems(executor: Executor, ids: readonly string[]): Promise<FeeItemRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  return executor
    .select()
    .from(feeSchedule)
    .where(inArray(feeSchedule.id, [...ids]));
}

export interface NewFeeItem {
  code: string;
  shortName: string;
  feeCents: number;
  addOn: boolean;
  active?: boolean;
  example?: boolean;
  updatedBy?: string | null;
}

/** Adds services; a code already on the schedule is left as it is. Answers the rows added. */
export function insertFeeItems(executor: Executor, items: readonly NewFeeItem[]): Promise<FeeItemRow[]> {
  if (items.length === 0) return Promise.resolve([]);
  return executor
    .insert(feeSchedule)
    .values(items.map((item) => ({ ...item, id: randomUUID() })))
    .onConflictDoNothing({ target: feeSchedule.code })
    .returning();
}

// --- Coding --------------------------------------------------------------------------------------------------

/** The visit's current coding (the newest version) with its lines in order and who coded it, or undefined. */
export async function findCurrentCoding(
  executor: Executor,
  appointmentId: string,
  options: { lock?: boolean } = {},
): Promise<{ coding: VisitCodingRow; lines: VisitCodingLineRow[]; codedByName: string } | undefined> {
  const query = executor
    .select({ coding: visitCodings, codedByName: userNameOf(visitCodings.codedBy) })
    .from(visitCodings)
    .where(and(eq(visitCodings.appointmentId, appointmentId), isNull(visitCodings.supersededAt)));
  const [found] = options.lock ? await query.for('update', { of: visitCodings }) : await query;
  if (!found) return undefined;
  const { coding, codedByName } = found;
  const lines = await executor
    .select()
    .from(visitCodingLines)
    .where(eq(visitCodingLines.codingId, coding.id))
    .orderBy(asc(visitCodingLines.position));
  return { coding, lines, codedByName };
}

export interface NewCodingLine {
  feeItemId: string;
  code: string;
  shortName: string;
  addOn: boolean;
  units: number;
  modifiers: string[];
  diagnosisPointers: number[];
  unitFeeCents: number;
}

export interface NewCoding {
  appointmentId: string;
  patientId: string;
  providerId: string;
  placeOfService: PlaceOfService;
  diagnosisCodes: string[];
  serviceDate: string;
  codedBy: string;
  lines: readonly NewCodingLine[];
}

/**
 * Writes the visit's next coding version (the current one, if any, marked superseded in the same statement
 * order) and its lines. Call in a transaction, with the current coding read `lock`ed. Answers the new version.
 */
export async function insertCodingVersion(
  executor: Executor,
  coding: NewCoding,
  previous: VisitCodingRow | undefined,
): Promise<{ coding: VisitCodingRow; lines: VisitCodingLineRow[] }> {
  if (previous) {
    await executor
      .update(visitCodings)
      .set({ supersededAt: sql`now()` })
      .where(eq(visitCodings.id, previous.id));
  }
  const { lines, ...fields } = coding;
  const [row] = await executor
    .insert(visitCodings)
    .values({ ...fields, id: randomUUID(), version: (previous?.version ?? 0) + 1 })
    .returning();
  const lineRows = await executor
    .insert(visitCodingLines)
    .values(lines.map((line, index) => ({ ...line, id: randomUUID(), codingId: row!.id, position: index + 1 })))
    .returning();
  return { coding: row!, lines: lineRows.sort((a, b) => a.position - b.position) };
}

// --- The ledger ----------------------------------------------------------------------------------------------

export interface NewLedgerEntry {
  patientId: string;
  providerId?: string | null;
  appointmentId?: string | null;
  codingLineId?: string | null;
  kind: LedgerEntryKind;
  /** Signed by its effect on what the patient owes (decision 073). */
  amountCents: number;
  entryDate: string;
  method?: PaymentMethod | null;
  reference?: string | null;
  reason?: string | null;
  reversesId?: string | null;
  enteredBy: string;
}

/** Appends entries to the ledger (their reference and reason encrypted). Answers the rows written, readable. */
export async function appendLedgerEntries(
  executor: Executor,
  keyring: Keyring,
  entries: readonly NewLedgerEntry[],
): Promise<LedgerEntryRow[]> {
  if (entries.length === 0) return [];
  const values = entries.map((entry) => {
    const id = randomUUID();
    return ledgerEntriesEncrypted.seal(keyring, id, { ...entry, id });
  });
  const rows = await executor.insert(ledgerEntries).values(values).returning();
  return rows.map((row) => ledgerEntriesEncrypted.open(keyring, row));
}

/** A ledger entry with who entered it, and the id of the entry reversing it (if any). */
export interface LedgerListRow {
  entry: LedgerEntryRow;
  enteredByName: string;
  reversedById: string | null;
}

// Written out: in a select list Drizzle leaves ${ledgerEntries.id} unqualified, and "id" would then be r's own.
const reversal = sql<string | null>`(SELECT r.id FROM ledger_entries r WHERE r.reverses_id = ledger_entries.id)`;

/**
 * The patient's ledger, oldest first (by the day it counts for, then when it was entered), readable. `range`:
 * only the entries whose day is within it (inclusive).
 */
export async function listLedger(
  executor: Executor,
  keyring: Keyring,
  patientId: string,
  range?: { from: string; to: string },
): Promise<LedgerListRow[]> {
  const rows = await executor
    .select({ entry: ledgerEntries, enteredByName: userNameOf(ledgerEntries.enteredBy), reversedById: reversal })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.patientId, patientId),
        range ? gte(ledgerEntries.entryDate, range.from) : undefined,
        range ? lte(ledgerEntries.entryDate, range.to) : undefined,
      ),
    )
    .orderBy(asc(ledgerEntries.entryDate), asc(ledgerEntries.enteredAt), asc(ledgerEntries.id));
  return rows.map((row) => ({ ...row, entry: ledgerEntriesEncrypted.open(keyring, row.entry) }));
}

/** One entry, readable, with its row locked when `lock`; undefined when there is none. */
export async function findLedgerEntry(
  executor: Executor,
  keyring: Keyring,
  id: string,
  options: { lock?: boolean } = {},
): Promise<LedgerListRow | undefined> {
  const query = executor
    .select({ entry: ledgerEntries, enteredByName: userNameOf(ledgerEntries.enteredBy), reversedById: reversal })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.id, id));
  const [row] = options.lock ? await query.for('update', { of: ledgerEntries }) : await query;
  return row && { ...row, entry: ledgerEntriesEncrypted.open(keyring, row.entry) };
}

/** What the patient owes now, in cents (the sum of every entry; negative: a credit). */
export async function balanceOf(executor: Executor, patientId: string): Promise<number> {
  const [row] = await executor
    .select({ balance: sql<string>`coalesce(sum(${ledgerEntries.amountCents}), 0)` })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.patientId, patientId));
  return Number(row?.balance ?? 0);
}

/** The charges made for a visit's coding lines that no reversal has taken back yet, newest coding first. */
export async function openChargesOfVisit(executor: Executor, appointmentId: string): Promise<LedgerEntryRow[]> {
  return executor
    .select()
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.appointmentId, appointmentId),
        eq(ledgerEntries.kind, 'charge'),
        sql`NOT EXISTS (SELECT 1 FROM ledger_entries r WHERE r.reverses_id = ${ledgerEntries.id})`,
      ),
    )
    .orderBy(desc(ledgerEntries.enteredAt));
}
