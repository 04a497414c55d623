/**
 * Billing data for server tests, written through the billing repository (decision 073): a coded visit with its
 * charges, a payment, an adjustment. For tests about what reads the ledger (superbills, statements, reports); the
 * coding and ledger services have their own tests through the API.
 */
import type { PaymentMethod, PlaceOfService } from '@telehealth/shared';
import {
  appendLedgerEntries,
  findCurrentCoding,
  insertCodingVersion,
  insertFeeItems,
  listFeeItems,
  type LedgerEntryRow,
  type VisitCodingLineRow,
  type VisitCodingRow,
} from '../../src/billing/billing.repository.ts';
import type { TestApp } from '../helpers.ts';

export interface CodedServiceFields {
  code: string;
  /** The unit fee (default: the fee schedule's, or 10000 when the code is added here). */
  feeCents?: number;
  units?: number;
  modifiers?: string[];
  diagnosisPointers?: number[];
  addOn?: boolean;
}

export interface CodedVisitFields {
  appointmentId: string;
  patientId: string;
  providerId: string;
  /** Who coded it (an account id). */
  codedBy: string;
  serviceDate: string;
  placeOfService?: PlaceOfService;
  diagnosisCodes?: string[];
  services: CodedServiceFields[];
}

/**
 * Writes a visit's next coding version and a charge per line with a fee, as the coding service does, without the
 * service's checks (the appointment's state, the problem list). Fee items missing from the schedule are added.
 */
export async function insertCodedVisit(
  t: TestApp,
  fields: CodedVisitFields,
): Promise<{ coding: VisitCodingRow; lines: VisitCodingLineRow[]; charges: LedgerEntryRow[] }> {
  const { db } = t.runtime.database;
  return db.transaction(async (tx) => {
    await insertFeeItems(
      tx,
      fields.services.map((service) => ({
        code: service.code,
        shortName: `Service ${service.code}`,
        feeCents: service.feeCents ?? 10000,
        addOn: service.addOn ?? false,
      })),
    );
    const items = new Map((await listFeeItems(tx)).map((item) => [item.code, item]));
    const previous = await findCurrentCoding(tx, fields.appointmentId, { lock: true });
    const written = await insertCodingVersion(
      tx,
      {
        appointmentId: fields.appointmentId,
        patientId: fields.patientId,
        providerId: fields.providerId,
        placeOfService: fields.placeOfService ?? '10',
        diagnosisCodes: fields.diagnosisCodes ?? ['F32.9'],
        serviceDate: fields.serviceDate,
        codedBy: fields.codedBy,
        lines: fields.services.map((service) => {
          const item = items.get(service.code)!;
          return {
            feeItemId: item.id,
            code: item.code,
            shortName: item.shortName,
            addOn: item.addOn,
            units: service.units ?? 1,
            modifiers: service.modifiers ?? (fields.placeOfService === '11' ? [] : ['95']),
            diagnosisPointers: service.diagnosisPointers ?? [1],
            unitFeeCents: service.feeCents ?? item.feeCents,
          };
        }),
      },
      previous?.coding,
    );
    const charges = await appendLedgerEntries(
      tx,
      t.runtime.keyring,
      written.lines
        .filter((line) => line.unitFeeCents > 0)
        .map((line) => ({
          patientId: fields.patientId,
          providerId: fields.providerId,
          appointmentId: fields.appointmentId,
          codingLineId: line.id,
          kind: 'charge' as const,
          amountCents: line.unitFeeCents * line.units,
          entryDate: fields.serviceDate,
          enteredBy: fields.codedBy,
        })),
    );
    return { ...written, charges };
  });
}

/** A payment of `amountCents` received on `receivedOn`. */
export async function insertPayment(
  t: TestApp,
  fields: {
    patientId: string;
    providerId?: string;
    appointmentId?: string;
    amountCents: number;
    receivedOn: string;
    method?: PaymentMethod;
    enteredBy: string;
  },
): Promise<LedgerEntryRow> {
  const [row] = await appendLedgerEntries(t.runtime.database.db, t.runtime.keyring, [
    {
      patientId: fields.patientId,
      providerId: fields.providerId ?? null,
      appointmentId: fields.appointmentId ?? null,
      kind: 'payment',
      amountCents: -fields.amountCents,
      entryDate: fields.receivedOn,
      method: fields.method ?? 'card',
      enteredBy: fields.enteredBy,
    },
  ]);
  return row!;
}

/** An adjustment: negative `amountCents` lowers what the patient owes (a write-off), positive raises it. */
export async function insertAdjustment(
  t: TestApp,
  fields: {
    patientId: string;
    providerId?: string;
    amountCents: number;
    entryDate: string;
    reason?: string;
    enteredBy: string;
  },
): Promise<LedgerEntryRow> {
  const [row] = await appendLedgerEntries(t.runtime.database.db, t.runtime.keyring, [
    {
      patientId: fields.patientId,
      providerId: fields.providerId ?? null,
      kind: 'adjustment',
      amountCents: fields.amountCents,
      entryDate: fields.entryDate,
      reason: fields.reason ?? 'Courtesy discount',
      enteredBy: fields.enteredBy,
    },
  ]);
  return row!;
}
