import {
  proposedCoding,
  todayIn,
  VisitCodingInputSchema,
  zonedDateTime,
  type MessageId,
  type PlaceOfService,
} from '@telehealth/shared';
import type { Reach } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf } from '../access/scope.ts';
import type { DiagnosesService } from '../clinical-record/diagnoses.service.ts';
import type { Database, Executor } from '../db/client.ts';
import { badUserInput, fieldError, parseInput } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import {
  appendLedgerEntries,
  findCurrentCoding,
  findFeeItems,
  insertCodingVersion,
  openChargesOfVisit,
  listFeeItems,
  type FeeItemRow,
  type VisitCodingLineRow,
  type VisitCodingRow,
} from './billing.repository.ts';
import { billingReachHolds } from './billing-reach.ts';
import { findVisitForCoding, hasSignedNote, type VisitForCoding } from './visit-coding.repository.ts';

/** The reason written on the reversals of a visit's charges when it is coded again. */
export const CODING_CORRECTED_REASON = 'Coding corrected';

/** A visit's coding as the form reads it: the current version (or none), what is proposed, what may be chosen. */
export interface VisitCodingView {
  appointmentId: string;
  patientId: string;
  appointmentType: 'in-person' | 'video';
  current: { coding: VisitCodingRow; lines: VisitCodingLineRow[]; codedByName: string } | null;
  proposal: { placeOfService: PlaceOfService; modifiers: string[] };
  problems: { code: string; title: string }[];
  /** The fee schedule's active services, by code, to choose from. */
  feeItems: FeeItemRow[];
  codable: boolean;
  notCodableReason: MessageId | null;
}

/**
 * Coding a visit (decision 073): the patient's primary provider (or an administrator) gives a completed visit (its
 * note signed, when the practice says so) its place of service, diagnoses from the problem list and services from
 * the fee schedule. Each version is kept; coding again reverses the previous version's charges and charges the new
 * one's, in one transaction with its audit entry (ids only).
 */
export class VisitCodingService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #settings: SettingsService;
  readonly #diagnoses: DiagnosesService;

  constructor(options: { db: Database; keyring: Keyring; settings: SettingsService; diagnoses: DiagnosesService }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#settings = options.settings;
    this.#diagnoses = options.diagnoses;
  }

  /** The visit's coding and what the form offers; the visit out of reach answers not found. Audited. */
  async get(caller: Caller, appointmentId: string): Promise<VisitCodingView> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('billing:read');
    const visit = await scope.find('billing:read', appointmentId, this.#visitSpec(appointmentId, reach));
    return this.#db.transaction(async (tx) => {
      const current = await findCurrentCoding(tx, appointmentId);
      const problems = await this.#diagnoses.problemCodesFor(tx, visit.patientId);
      const notCodableReason = await this.#notCodableReason(tx, visit);
      await scope.audit(tx, 'VISIT_CODING_VIEW', {
        appointmentIds: [appointmentId],
        patientIds: [visit.patientId],
        ...(current ? { codingId: current.coding.id, version: current.coding.version } : {}),
      });
      return {
        appointmentId,
        patientId: visit.patientId,
        appointmentType: visit.appointmentType,
        current: current ?? null,
        proposal: proposedCoding(visit.appointmentType),
        problems,
        feeItems: (await listFeeItems(tx)).filter((item) => item.active),
        codable: notCodableReason === null,
        notCodableReason,
      };
    });
  }

  /** Codes the visit (its next version) and corrects its charges. Answers the visit's coding as `get` does. */
  async code(caller: Caller, input: unknown): Promise<VisitCodingView> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('billing:write');
    const data = parseInput(VisitCodingInputSchema, input);
    const { appointmentId } = data;
    await scope.find('billing:write', appointmentId, this.#visitSpec(appointmentId, reach));
    const zone = this.#settings.current().timeZone;
    await this.#db.transaction(async (tx) => {
      const visit = (await findVisitForCoding(tx, appointmentId, { lock: true }))!;
      const notCodable = await this.#notCodableReason(tx, visit);
      if (notCodable) throw badUserInput(notCodable);

      const onList = new Set((await this.#diagnoses.problemCodesFor(tx, visit.patientId)).map((d) => d.code));
      const offList = data.diagnosisCodes.findIndex((code) => !onList.has(code));
      if (offList >= 0) throw fieldError(`diagnosisCodes.${offList}`, 'billingMessages.diagnosisNotPatients');

      const items = new Map(
        (await findFeeItems(tx, [...new Set(data.services.map((s) => s.feeItemId))])).map((i) => [i.id, i]),
      );
      data.services.forEach((service, index) => {
        const item = items.get(service.feeItemId);
        if (!item) throw fieldError(`services.${index}.feeItemId`, 'billingMessages.feeItemNotFound');
        if (!item.active) throw fieldError(`services.${index}.feeItemId`, 'billingMessages.feeItemInactive');
      });
      if (!data.services.some((service) => !items.get(service.feeItemId)!.addOn))
        throw fieldError('services', 'billingMessages.addOnNeedsPrimary');

      const previous = await findCurrentCoding(tx, appointmentId, { lock: true });
      if ((previous?.coding.version ?? 0) !== data.expectedVersion) throw badUserInput('billingMessages.codingStale');

      const written = await insertCodingVersion(
        tx,
        {
          appointmentId,
          patientId: visit.patientId,
          providerId: visit.providerId,
          placeOfService: data.placeOfService,
          diagnosisCodes: data.diagnosisCodes,
          serviceDate: zonedDateTime(visit.startsAt, zone).date,
          codedBy: caller.user.id,
          lines: data.services.map((service) => {
            const item = items.get(service.feeItemId)!;
            return {
              feeItemId: item.id,
              code: item.code,
              shortName: item.shortName,
              addOn: item.addOn,
              units: service.units,
              modifiers: service.modifiers,
              diagnosisPointers: service.diagnosisPointers,
              unitFeeCents: item.feeCents,
            };
          }),
        },
        previous?.coding,
      );
      const today = todayIn(zone);
      const reversals = (await openChargesOfVisit(tx, appointmentId)).map((charge) => ({
        patientId: charge.patientId,
        providerId: charge.providerId,
        appointmentId,
        kind: 'reversal' as const,
        amountCents: -charge.amountCents,
        entryDate: today,
        reason: CODING_CORRECTED_REASON,
        reversesId: charge.id,
        enteredBy: caller.user.id,
      }));
      const charges = written.lines
        .filter((line) => line.unitFeeCents > 0)
        .map((line) => ({
          patientId: visit.patientId,
          providerId: visit.providerId,
          appointmentId,
          codingLineId: line.id,
          kind: 'charge' as const,
          amountCents: line.unitFeeCents * line.units,
          entryDate: written.coding.serviceDate,
          enteredBy: caller.user.id,
        }));
      await appendLedgerEntries(tx, this.#keyring, [...reversals, ...charges]);
      await scope.audit(tx, 'VISIT_CODED', {
        appointmentId,
        patientId: visit.patientId,
        patientIds: [visit.patientId],
        version: written.coding.version,
      });
    });
    return this.get(caller, appointmentId);
  }

  /** Why the visit may not be coded yet (a message id), or null when it may. */
  async #notCodableReason(executor: Executor, visit: VisitForCoding): Promise<MessageId | null> {
    if (visit.status !== 'completed') return 'billingMessages.visitNotReady';
    if (this.#settings.current().visitCodingAfter === 'note-signed' && !(await hasSignedNote(executor, visit.id)))
      return 'billingMessages.visitNotReadySigned';
    return null;
  }

  #visitSpec(appointmentId: string, reach: Reach<'billing'>) {
    return {
      load: (db: Executor) => findVisitForCoding(db, appointmentId),
      within: (visit: VisitForCoding) => billingReachHolds(reach, visit),
      missing: 'billingMessages.visitNotFound' as const,
      denial: (visit: VisitForCoding) => ({ appointmentIds: [appointmentId], patientIds: [visit.patientId] }),
    };
  }
}
