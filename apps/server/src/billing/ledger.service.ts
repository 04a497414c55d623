import { AdjustmentInputSchema, PaymentInputSchema, ReversalInputSchema, todayIn } from '@telehealth/shared';
import type { Reach } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf, type Scope } from '../access/scope.ts';
import type { Database, Executor } from '../db/client.ts';
import { badUserInput, fieldError, parseInput } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import {
  appendLedgerEntries,
  balanceOf,
  findLedgerEntry,
  listLedger,
  type LedgerEntryRow,
  type LedgerListRow,
} from './billing.repository.ts';
import { billingReachHolds, type BillingOwners } from './billing-reach.ts';
import { findLineCodes, findPatientOwners, findVisitForCoding } from './visit-coding.repository.ts';

/** A ledger entry as the chart shows it: who entered it, its reversal, and a charge's code and modifiers. */
export interface LedgerEntryView extends LedgerListRow {
  code: string | null;
  modifiers: string[];
}

export interface PatientLedgerView {
  patientId: string;
  balanceCents: number;
  entries: LedgerEntryView[];
}

/**
 * The patient's ledger (decision 073): read by whoever reaches the patient's billing record, written (a payment, an
 * adjustment, a reversal) by their primary provider or an administrator. Entries are only ever added; each write
 * is one transaction with its audit entry, which carries ids and the kind, never an amount or a reason.
 */
export class LedgerService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #settings: SettingsService;

  constructor(options: { db: Database; keyring: Keyring; settings: SettingsService }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#settings = options.settings;
  }

  /** The patient's ledger, oldest first, and the balance. Audited (LEDGER_VIEW). */
  async ledger(caller: Caller, patientId: string): Promise<PatientLedgerView> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('billing:read');
    await this.#findPatient(scope, 'billing:read', reach, patientId);
    return this.#db.transaction(async (tx) => {
      const rows = await listLedger(tx, this.#keyring, patientId);
      const balanceCents = await balanceOf(tx, patientId);
      await scope.audit(tx, 'LEDGER_VIEW', { patientId, patientIds: [patientId] });
      return { patientId, balanceCents, entries: await this.#views(tx, rows) };
    });
  }

  /** A payment received (a negative entry), dated the day it was received, not in the future. */
  async recordPayment(caller: Caller, input: unknown): Promise<LedgerEntryView> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('billing:write');
    const data = parseInput(PaymentInputSchema, input);
    if (data.receivedOn > this.#today()) throw fieldError('receivedOn', 'billingMessages.dateInFuture');
    await this.#findPatient(scope, 'billing:write', reach, data.patientId);
    return this.#db.transaction(async (tx) => {
      const providerId = await this.#providerOfVisit(tx, data.patientId, data.appointmentId);
      const [row] = await appendLedgerEntries(tx, this.#keyring, [
        {
          patientId: data.patientId,
          providerId,
          appointmentId: data.appointmentId ?? null,
          kind: 'payment',
          amountCents: -data.amountCents,
          entryDate: data.receivedOn,
          method: data.method,
          reference: data.reference ?? null,
          enteredBy: caller.user.id,
        },
      ]);
      await this.#auditWrite(scope, tx, 'PAYMENT_RECORDED', row!);
      return this.#viewOf(tx, row!);
    });
  }

  /** An adjustment dated today: a decrease lowers what the patient owes, an increase raises it. */
  async recordAdjustment(caller: Caller, input: unknown): Promise<LedgerEntryView> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('billing:write');
    const data = parseInput(AdjustmentInputSchema, input);
    await this.#findPatient(scope, 'billing:write', reach, data.patientId);
    return this.#db.transaction(async (tx) => {
      const providerId = await this.#providerOfVisit(tx, data.patientId, data.appointmentId);
      const [row] = await appendLedgerEntries(tx, this.#keyring, [
        {
          patientId: data.patientId,
          providerId,
          appointmentId: data.appointmentId ?? null,
          kind: 'adjustment',
          amountCents: data.direction === 'decrease' ? -data.amountCents : data.amountCents,
          entryDate: this.#today(),
          reason: data.reason,
          enteredBy: caller.user.id,
        },
      ]);
      await this.#auditWrite(scope, tx, 'ADJUSTMENT_RECORDED', row!);
      return this.#viewOf(tx, row!);
    });
  }

  /** Reverses an entry with its exact opposite, dated today; a reversal, or an entry already reversed, is refused. */
  async reverse(caller: Caller, input: unknown): Promise<LedgerEntryView> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('billing:write');
    const data = parseInput(ReversalInputSchema, input);
    await scope.find('billing:write', data.entryId, {
      load: async (db: Executor) => {
        const found = await findLedgerEntry(db, this.#keyring, data.entryId);
        const owners = found && (await findPatientOwners(db, found.entry.patientId));
        return found && owners ? { ...owners, patientId: found.entry.patientId } : undefined;
      },
      within: (owners: BillingOwners) => billingReachHolds(reach, owners),
      missing: 'billingMessages.entryNotFound',
      denial: (found: { patientId: string }) => ({ entryIds: [data.entryId], patientIds: [found.patientId] }),
    });
    return this.#db.transaction(async (tx) => {
      const { entry, reversedById } = (await findLedgerEntry(tx, this.#keyring, data.entryId, { lock: true }))!;
      if (entry.kind === 'reversal') throw badUserInput('billingMessages.cannotReverseReversal');
      if (reversedById) throw badUserInput('billingMessages.alreadyReversed');
      const [row] = await appendLedgerEntries(tx, this.#keyring, [
        {
          patientId: entry.patientId,
          providerId: entry.providerId,
          appointmentId: entry.appointmentId,
          kind: 'reversal',
          amountCents: -entry.amountCents,
          entryDate: this.#today(),
          reason: data.reason,
          reversesId: entry.id,
          enteredBy: caller.user.id,
        },
      ]);
      await scope.audit(tx, 'LEDGER_ENTRY_REVERSED', {
        patientId: entry.patientId,
        patientIds: [entry.patientId],
        entryId: row!.id,
        reversesId: entry.id,
        kind: entry.kind,
      });
      return this.#viewOf(tx, row!);
    });
  }

  #today(): string {
    return todayIn(this.#settings.current().timeZone);
  }

  /** The patient, if the reach holds them; otherwise (recorded when they exist) not found. */
  async #findPatient(
    scope: Scope,
    action: 'billing:read' | 'billing:write',
    reach: Reach<'billing'>,
    patientId: string,
  ): Promise<void> {
    await scope.find(action, patientId, {
      load: (db: Executor) => findPatientOwners(db, patientId),
      within: (owners: BillingOwners) => billingReachHolds(reach, owners),
      missing: 'patientMessages.notFound',
      denial: { patientIds: [patientId] },
    });
  }

  /** The provider of the patient's visit an entry is for (null without one); another patient's visit is refused. */
  async #providerOfVisit(tx: Executor, patientId: string, appointmentId: string | undefined): Promise<string | null> {
    if (!appointmentId) return null;
    const visit = await findVisitForCoding(tx, appointmentId);
    if (!visit || visit.patientId !== patientId) throw fieldError('appointmentId', 'billingMessages.visitNotFound');
    return visit.providerId;
  }

  async #auditWrite(
    scope: Scope,
    tx: Executor,
    event: 'PAYMENT_RECORDED' | 'ADJUSTMENT_RECORDED',
    row: LedgerEntryRow,
  ) {
    await scope.audit(tx, event, {
      patientId: row.patientId,
      patientIds: [row.patientId],
      entryId: row.id,
      kind: row.kind,
    });
  }

  /** The entry just written, read back as the ledger lists it (who entered it, its line's code). */
  async #viewOf(tx: Executor, entry: LedgerEntryRow): Promise<LedgerEntryView> {
    const [view] = await this.#views(tx, [(await findLedgerEntry(tx, this.#keyring, entry.id))!]);
    return view!;
  }

  async #views(tx: Executor, rows: readonly LedgerListRow[]): Promise<LedgerEntryView[]> {
    const lines = await findLineCodes(
      tx,
      rows.flatMap((row) => (row.entry.codingLineId ? [row.entry.codingLineId] : [])),
    );
    return rows.map((row) => {
      const line = row.entry.codingLineId ? lines.get(row.entry.codingLineId) : undefined;
      return { ...row, code: line?.code ?? null, modifiers: line?.modifiers ?? [] };
    });
  }
}
