import { and, asc, eq, gte, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { LedgerEntryKind } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { providers } from '../providers/providers.table.ts';
import { ledgerEntries, visitCodingLines, visitCodings } from './billing.table.ts';

// The reads of superbills, statements and the patient's billing page (decision 073): the current codings of a
// patient's visits with their provider's billing identity, and the ledger with each charge's service code.
// Nothing here reads a note, a reason or a payment's reference.

export interface CodedVisitRow {
  codingId: string;
  appointmentId: string;
  serviceDate: string;
  placeOfService: string;
  diagnosisCodes: string[];
  provider: {
    id: string;
    firstName: string;
    lastName: string;
    npi: string | null;
    taxonomyCode: string | null;
    licenseState: string | null;
    licenseNumber: string | null;
  };
}

export interface CodedVisitLine {
  codingId: string;
  position: number;
  code: string;
  shortName: string;
  units: number;
  modifiers: string[];
  diagnosisPointers: number[];
  unitFeeCents: number;
}

/**
 * The patient's coded visits (each visit's current coding) with their provider, oldest first: one visit
 * (`appointmentId`), or those whose date of service is within `range` (inclusive), or all.
 */
export async function listCodedVisits(
  executor: Executor,
  patientId: string,
  filter: { appointmentId?: string; range?: { from: string; to: string } } = {},
): Promise<CodedVisitRow[]> {
  return executor
    .select({
      codingId: visitCodings.id,
      appointmentId: visitCodings.appointmentId,
      serviceDate: visitCodings.serviceDate,
      placeOfService: visitCodings.placeOfService,
      diagnosisCodes: visitCodings.diagnosisCodes,
      provider: {
        id: providers.id,
        firstName: providers.firstName,
        lastName: providers.lastName,
        npi: providers.npi,
        taxonomyCode: providers.taxonomyCode,
        licenseState: providers.licenseState,
        licenseNumber: providers.licenseNumber,
      },
    })
    .from(visitCodings)
    .innerJoin(providers, eq(providers.id, visitCodings.providerId))
    .where(
      and(
        eq(visitCodings.patientId, patientId),
        isNull(visitCodings.supersededAt),
        filter.appointmentId ? eq(visitCodings.appointmentId, filter.appointmentId) : undefined,
        filter.range ? gte(visitCodings.serviceDate, filter.range.from) : undefined,
        filter.range ? lte(visitCodings.serviceDate, filter.range.to) : undefined,
      ),
    )
    .orderBy(asc(visitCodings.serviceDate), asc(visitCodings.codedAt));
}

/** The lines of these codings, in each coding's order. */
export async function listCodingLines(executor: Executor, codingIds: readonly string[]): Promise<CodedVisitLine[]> {
  if (codingIds.length === 0) return [];
  return executor
    .select({
      codingId: visitCodingLines.codingId,
      position: visitCodingLines.position,
      code: visitCodingLines.code,
      shortName: visitCodingLines.shortName,
      units: visitCodingLines.units,
      modifiers: visitCodingLines.modifiers,
      diagnosisPointers: visitCodingLines.diagnosisPointers,
      unitFeeCents: visitCodingLines.unitFeeCents,
    })
    .from(visitCodingLines)
    .where(inArray(visitCodingLines.codingId, [...codingIds]))
    .orderBy(asc(visitCodingLines.codingId), asc(visitCodingLines.position));
}

/** A ledger entry as the documents show it: no reference, no reason. */
export interface DocumentLedgerEntry {
  id: string;
  kind: LedgerEntryKind;
  amountCents: number;
  entryDate: string;
  appointmentId: string | null;
  /** The service code of a charge (or of the charge a reversal takes back); null for the rest. */
  code: string | null;
  /** For a reversal: the kind of the entry it reverses. */
  reversesKind: LedgerEntryKind | null;
}

/** The patient's ledger, oldest first, with each charge's code and each reversal's reversed kind. */
export async function listDocumentLedger(executor: Executor, patientId: string): Promise<DocumentLedgerEntry[]> {
  const rows = await executor
    .select({
      id: ledgerEntries.id,
      kind: ledgerEntries.kind,
      amountCents: ledgerEntries.amountCents,
      entryDate: ledgerEntries.entryDate,
      appointmentId: ledgerEntries.appointmentId,
      code: sql<
        string | null
      >`(SELECT l.code FROM visit_coding_lines l WHERE l.id = coalesce(${ledgerEntries.codingLineId},
        (SELECT o.coding_line_id FROM ledger_entries o WHERE o.id = ${ledgerEntries.reversesId})))`,
      reversesKind: sql<string | null>`(SELECT o.kind FROM ledger_entries o WHERE o.id = ${ledgerEntries.reversesId})`,
    })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.patientId, patientId))
    .orderBy(asc(ledgerEntries.entryDate), asc(ledgerEntries.enteredAt), asc(ledgerEntries.id));
  return rows.map((row) => ({
    ...row,
    kind: row.kind as LedgerEntryKind,
    amountCents: Number(row.amountCents),
    reversesKind: row.reversesKind as LedgerEntryKind | null,
  }));
}
