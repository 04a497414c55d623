import {
  addDays,
  STATEMENT_DAYS,
  StatementQuerySchema,
  SuperbillQuerySchema,
  todayIn,
  type LedgerEntryKind,
} from '@telehealth/shared';
import type { Reach } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf, type Scope } from '../access/scope.ts';
import type { Database } from '../db/client.ts';
import { badUserInput, notFound, parseInput } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { MailService } from '../mail/mail.service.ts';
import { findLinkedPatient, findPatientAccountId } from '../patients/patient-accounts.repository.ts';
import {
  findVisiblePatient,
  patientExists,
  type PatientRow,
  type PatientScope,
} from '../patients/patients.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { activeUsersContact } from '../users/users.repository.ts';
import {
  listCodedVisits,
  listCodingLines,
  listDocumentLedger,
  type DocumentLedgerEntry,
} from './billing-documents.repository.ts';
import { statementReadyMail } from './billing-mails.ts';
import { balanceOf } from './billing.repository.ts';
import { renderStatement } from './statement-pdf.ts';
import { renderSuperbill, type SuperbillData } from './superbill-pdf.ts';

/** A document to download: its bytes and a file name without the patient's name. */
export interface BillingFile {
  fileName: string;
  data: Buffer;
}

/** The patient's billing page in the portal. */
export interface MyBilling {
  patientId: string;
  balanceCents: number;
  entries: { id: string; date: string; kind: LedgerEntryKind; code: string | null; amountCents: number }[];
  visits: { appointmentId: string; serviceDate: string; providerName: string }[];
}

/**
 * Superbills, statements, the "statement ready" e-mail and the patient's billing page (issue 30, decision 073).
 * Every call reaches the patient through the caller's `billing:read` (or `:write`) and leaves an audit entry with
 * ids and dates only.
 */
export class BillingDocumentsService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #settings: SettingsService;
  readonly #mail: MailService;

  constructor(deps: { db: Database; keyring: Keyring; settings: SettingsService; mail: MailService }) {
    this.#db = deps.db;
    this.#keyring = deps.keyring;
    this.#settings = deps.settings;
    this.#mail = deps.mail;
  }

  async #patient(scope: Scope, action: 'billing:read' | 'billing:write', patientId: string): Promise<PatientRow> {
    const reach = await scope.reach(action);
    return scope.find(action, patientId, {
      read: (db, id) => findVisiblePatient(db, id, patientReachOf(reach), this.#keyring),
      exists: (db, id) => patientExists(db, id),
      missing: 'patientMessages.notFound',
      denial: { patientIds: [patientId] },
    });
  }

  #identity() {
    const identity = this.#settings.current().billingIdentity;
    if (!identity) throw badUserInput('billingMessages.identityMissing');
    return identity;
  }

  /** A superbill of one coded visit or of a date range's, as a PDF. */
  async superbill(caller: Caller, input: unknown): Promise<BillingFile> {
    const query = parseInput(SuperbillQuerySchema, input);
    const scope = scopeOf(this.#db, caller);
    const patient = await this.#patient(scope, 'billing:read', query.patientId);
    const identity = this.#identity();
    const visits = await listCodedVisits(
      this.#db,
      patient.id,
      query.appointmentId ? { appointmentId: query.appointmentId } : { range: { from: query.from!, to: query.to! } },
    );
    const lines = await listCodingLines(
      this.#db,
      visits.map((v) => v.codingId),
    );
    if (lines.length === 0) throw badUserInput('billingMessages.nothingToBill');
    if (visits.some((v) => !v.provider.npi)) throw badUserInput('billingMessages.providerIdentityMissing');
    const ledger = await listDocumentLedger(this.#db, patient.id);
    const appointmentIds = new Set(visits.map((v) => v.appointmentId));
    const period = query.appointmentId
      ? { from: visits[0]!.serviceDate, to: visits.at(-1)!.serviceDate }
      : { from: query.from!, to: query.to! };
    // A visit's superbill counts what was entered for that visit; a range's, what was entered within the range.
    const counted = ledger.filter((entry) =>
      query.appointmentId
        ? entry.appointmentId !== null && appointmentIds.has(entry.appointmentId)
        : entry.entryDate >= period.from && entry.entryDate <= period.to,
    );
    const paidOf = (entries: DocumentLedgerEntry[]) =>
      -entries.filter((e) => effectiveKind(e) === 'payment').reduce((sum, e) => sum + e.amountCents, 0);
    const adjustmentsCents = counted
      .filter((e) => effectiveKind(e) === 'adjustment')
      .reduce((sum, e) => sum + e.amountCents, 0);
    const byCoding = new Map(visits.map((v) => [v.codingId, v]));
    const services = lines.map((line) => {
      const visit = byCoding.get(line.codingId)!;
      return {
        serviceDate: visit.serviceDate,
        placeOfService: visit.placeOfService,
        code: line.code,
        shortName: line.shortName,
        modifiers: line.modifiers,
        diagnosisCodes: line.diagnosisPointers
          .map((pointer) => visit.diagnosisCodes[pointer - 1])
          .filter((code): code is string => code !== undefined),
        units: line.units,
        chargeCents: line.unitFeeCents * line.units,
        providerNpi: visit.provider.npi!,
      };
    });
    services.sort((a, b) => a.serviceDate.localeCompare(b.serviceDate));
    const chargedCents = services.reduce((sum, s) => sum + s.chargeCents, 0);
    const paidCents = paidOf(counted);
    const providers = [...new Map(visits.map((v) => [v.provider.id, v.provider])).values()].map((p) => ({
      name: `${p.firstName} ${p.lastName}`,
      npi: p.npi!,
      taxonomyCode: p.taxonomyCode,
      license: p.licenseNumber ? `${p.licenseState ?? ''} ${p.licenseNumber}`.trim() : null,
    }));
    const data: SuperbillData = {
      identity,
      issuedOn: todayIn(this.#settings.current().timeZone),
      period,
      patient: {
        name: `${patient.firstName} ${patient.lastName}`,
        dateOfBirth: patient.dateOfBirth,
        address: addressOf(patient),
        insuranceCompany: patient.insuranceProvider,
        memberId: patient.insurancePolicyNumber,
      },
      providers,
      services,
      visits: visits.map((v) => ({
        serviceDate: v.serviceDate,
        paidCents: paidOf(ledger.filter((e) => e.appointmentId === v.appointmentId)),
      })),
      totals: {
        chargedCents,
        paidCents,
        adjustmentsCents,
        balanceCents: chargedCents - paidCents + adjustmentsCents,
      },
    };
    const bytes = await renderSuperbill(data);
    await scope.audit(
      this.#db,
      'SUPERBILL_DOWNLOAD',
      query.appointmentId
        ? { patientIds: [patient.id], patientId: patient.id, appointmentId: query.appointmentId }
        : { patientIds: [patient.id], patientId: patient.id, from: period.from, to: period.to },
    );
    const name = query.appointmentId ? period.from : `${period.from}-to-${period.to}`;
    return { fileName: `superbill-${name}.pdf`, data: bytes };
  }

  /** The patient's statement as of today, in `language`, as a PDF. */
  async statement(caller: Caller, input: unknown, language: 'en' | 'es'): Promise<BillingFile> {
    const query = parseInput(StatementQuerySchema, input);
    const scope = scopeOf(this.#db, caller);
    const patient = await this.#patient(scope, 'billing:read', query.patientId);
    const identity = this.#identity();
    const settings = this.#settings.current();
    const asOf = todayIn(settings.timeZone);
    const since = addDays(asOf, -STATEMENT_DAYS);
    const ledger = await listDocumentLedger(this.#db, patient.id);
    const before = ledger.filter((e) => e.entryDate < since);
    const recent = ledger.filter((e) => e.entryDate >= since);
    const balanceForwardCents = before.reduce((sum, e) => sum + e.amountCents, 0);
    const totalDueCents = ledger.reduce((sum, e) => sum + e.amountCents, 0);
    const bytes = await renderStatement({
      language,
      identity,
      clinicPhone: settings.clinicPhone,
      asOf,
      since,
      patient: { name: `${patient.firstName} ${patient.lastName}`, address: addressOf(patient) },
      balanceForwardCents,
      entries: recent.map((e) => ({
        date: e.entryDate,
        kind: e.kind,
        reversesKind: e.reversesKind,
        code: e.code,
        amountCents: e.amountCents,
      })),
      totalDueCents,
    });
    await scope.audit(this.#db, 'STATEMENT_DOWNLOAD', { patientIds: [patient.id], patientId: patient.id });
    return { fileName: `statement-${asOf}.pdf`, data: bytes };
  }

  /**
   * Queues the "your statement is ready" e-mail to the patient's portal account: no amount, no health
   * information. A patient without an active portal account is refused.
   */
  async sendStatement(caller: Caller, patientId: string): Promise<boolean> {
    const scope = scopeOf(this.#db, caller);
    const patient = await this.#patient(scope, 'billing:write', patientId);
    this.#identity();
    return this.#db.transaction(async (tx) => {
      const accountId = await findPatientAccountId(tx, patient.id);
      const [contact] = accountId ? await activeUsersContact(tx, [accountId]) : [];
      if (!contact) throw badUserInput('billingMessages.noPortalAccount');
      const language = contact.language === 'es' ? 'es' : 'en';
      await this.#mail.enqueue(tx, [
        {
          to: contact.email,
          kind: 'billing-statement-ready',
          language,
          content: statementReadyMail(this.#mail.context, language),
        },
      ]);
      await scope.audit(tx, 'STATEMENT_SENT', { patientIds: [patient.id], patientId: patient.id });
      return true;
    });
  }

  /** The signed-in patient's own balance, ledger and coded visits. */
  async myBilling(caller: Caller): Promise<MyBilling> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('billing:read');
    if (reach.kind !== 'own' || reach.field !== 'patientAccountId') throw notFound('patientMessages.notFound');
    const patient = await findVisiblePatientOfAccount(this.#db, this.#keyring, reach);
    if (!patient) throw notFound('patientMessages.notFound');
    const [balanceCents, ledger, visits] = await Promise.all([
      balanceOf(this.#db, patient.id),
      listDocumentLedger(this.#db, patient.id),
      listCodedVisits(this.#db, patient.id),
    ]);
    await scope.audit(this.#db, 'LEDGER_VIEW', { patientIds: [patient.id], patientId: patient.id });
    return {
      patientId: patient.id,
      balanceCents,
      entries: ledger
        .map((e) => ({ id: e.id, date: e.entryDate, kind: e.kind, code: e.code, amountCents: e.amountCents }))
        .reverse(),
      visits: visits
        .map((v) => ({
          appointmentId: v.appointmentId,
          serviceDate: v.serviceDate,
          providerName: `${v.provider.firstName} ${v.provider.lastName}`,
        }))
        .reverse(),
    };
  }
}

/** A reversal counts as the kind of the entry it takes back (a payment's reversal lowers what was paid). */
function effectiveKind(entry: DocumentLedgerEntry): LedgerEntryKind {
  return entry.kind === 'reversal' ? (entry.reversesKind ?? 'reversal') : entry.kind;
}

function addressOf(patient: PatientRow): string | null {
  const cityLine = [patient.city, [patient.state, patient.zipCode].filter(Boolean).join(' ')]
    .filter(Boolean)
    .join(', ');
  const parts = [patient.street, cityLine].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : null;
}

/** A billing reach as the patients' table's: a provider's own patients, or a patient's own record. */
function patientReachOf(reach: Reach<'billing'>): PatientScope {
  if (reach.kind === 'any') return reach;
  return { ...reach, field: reach.field === 'patientOwnerId' ? 'ownerId' : 'accountId' };
}

async function findVisiblePatientOfAccount(
  db: Database,
  keyring: Keyring,
  reach: Extract<Reach<'billing'>, { kind: 'own' }>,
): Promise<PatientRow | undefined> {
  const linked = await findLinkedPatient(db, reach.callerId);
  return linked ? findVisiblePatient(db, linked.id, patientReachOf(reach), keyring) : undefined;
}
