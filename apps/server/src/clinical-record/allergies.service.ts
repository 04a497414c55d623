import {
  AddAllergyInputSchema,
  allergySubstanceKey,
  RemoveAllergyInputSchema,
  type IntakeAllergy,
} from '@telehealth/shared';
import type { Reach } from '../access/authorize.ts';
import { emergencyAuditDetails } from '../access/emergency-grants.ts';
import { scopeOf, type Scope } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { Database, Executor } from '../db/client.ts';
import { badUserInput, fieldError, parseInput } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import {
  findAllergy,
  findAllergyRow,
  insertAllergy,
  listAllergies,
  lockActiveSubstances,
  markAllergyRemoved,
  type AllergyListRow,
} from './allergies.repository.ts';
import { entryThroughPatient, reachRecordPatient, recordPatientReach } from './record-access.ts';

export type { AllergyListRow };

/**
 * The structured allergies (issue 27, decision 062), beside the record's free-text allergies. A provider adds
 * their own patient's allergies (a substance once while it is active, compared case-insensitively) and removes
 * them; a removal is kept (who, when, why). The patient reads their own; an emergency grant opens them read only;
 * administrators never see them. Every read and change is audited with ids only, never a substance.
 */
export class AllergiesService {
  readonly #db: Database;
  readonly #keyring: Keyring;

  constructor(options: { db: Database; keyring: Keyring }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
  }

  /** The patient's allergies, active first, removed ones too. Audited as a read of their clinical record. */
  async list(caller: Caller, patientId: string): Promise<AllergyListRow[]> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:read', { emergency: true });
    await reachRecordPatient(scope, 'clinical-record:read', reach, patientId);
    return this.#db.transaction(async (tx) => {
      const rows = await listAllergies(tx, this.#keyring, patientId);
      await scope.audit(tx, 'CLINICAL_RECORD_VIEW', {
        part: 'allergies',
        patientIds: [patientId],
        allergyIds: rows.map((r) => r.allergy.id),
        ...(reach.kind === 'own' ? emergencyAuditDetails(reach.emergency, [patientId]) : {}),
      });
      return rows;
    });
  }

  /** Adds an allergy to the provider's own patient's list. */
  async add(caller: Caller, input: unknown): Promise<AllergyListRow> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:write');
    const data = parseInput(AddAllergyInputSchema, input);
    await reachRecordPatient(scope, 'clinical-record:write', reach, data.patientId);
    const id = await this.#db.transaction(async (tx) => {
      const active = await lockActiveSubstances(tx, this.#keyring, data.patientId);
      const key = allergySubstanceKey(data.substance);
      if (active.some((substance) => allergySubstanceKey(substance) === key)) {
        throw fieldError('substance', 'clinicalRecordMessages.allergyAlreadyListed');
      }
      const id = await insertAllergy(tx, this.#keyring, { ...data, by: caller.user.id });
      await scope.audit(tx, 'ALLERGY_ADD', {
        allergyId: id,
        severity: data.severity,
        patientIds: [data.patientId],
      });
      return id;
    });
    return (await findAllergy(this.#db, this.#keyring, id))!;
  }

  /**
   * Adds the allergies a patient reported in an intake the provider accepts (decision 067), in the acceptance's
   * transaction, with the source "reported by patient" and severity unknown. A substance already active is
   * skipped; nothing on the list is changed. Each addition is audited (ALLERGY_ADD, ids only).
   */
  async addReported(
    tx: Executor,
    scope: Pick<Scope, 'audit'>,
    values: { patientId: string; intakeId: string; allergies: readonly IntakeAllergy[]; by: string },
  ): Promise<{ added: string[]; skipped: string[] }> {
    const keys = new Set(
      (await lockActiveSubstances(tx, this.#keyring, values.patientId)).map((s) => allergySubstanceKey(s)),
    );
    const added: string[] = [];
    const skipped: string[] = [];
    for (const reported of values.allergies) {
      const key = allergySubstanceKey(reported.substance);
      if (keys.has(key)) {
        skipped.push(reported.substance);
        continue;
      }
      keys.add(key);
      const id = await insertAllergy(tx, this.#keyring, {
        patientId: values.patientId,
        substance: reported.substance,
        reaction: reported.reaction ?? null,
        severity: 'unknown',
        category: null,
        notedDate: null,
        by: values.by,
        source: 'patient',
      });
      await scope.audit(tx, 'ALLERGY_ADD', {
        allergyId: id,
        severity: 'unknown',
        source: 'patient',
        intakeId: values.intakeId,
        patientIds: [values.patientId],
      });
      added.push(id);
    }
    return { added, skipped };
  }

  /** Removes an allergy from the list: it stays in the record, marked removed, with who, when and why. */
  async remove(caller: Caller, input: unknown): Promise<AllergyListRow> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:write');
    const data = parseInput(RemoveAllergyInputSchema, input);
    await scope.transaction(async (tx, scoped) => {
      const row = await scoped.find('clinical-record:write', data.id, this.#entrySpec(data.id, reach, { lock: true }));
      if (row.status === 'removed') throw badUserInput('clinicalRecordMessages.allergyAlreadyRemoved');
      await markAllergyRemoved(tx, this.#keyring, data.id, data.reason, caller.user.id);
      await scope.audit(tx, 'ALLERGY_REMOVE', {
        allergyId: data.id,
        withReason: data.reason !== null,
        patientIds: [row.patientId],
      });
    });
    return (await findAllergy(this.#db, this.#keyring, data.id))!;
  }

  /** How `Scope.find` reaches one allergy: through its patient (record-access.ts). */
  #entrySpec(id: string, reach: Reach<'clinical-record'>, options: { lock?: boolean } = {}) {
    return entryThroughPatient({
      id,
      patientReach: recordPatientReach(reach),
      load: (db, entryId) => findAllergyRow(db, this.#keyring, entryId, options),
      exists: (db, entryId) => findAllergyRow(db, this.#keyring, entryId),
      missing: 'clinicalRecordMessages.allergyNotFound',
      idsKey: 'allergyIds',
    });
  }
}
