import {
  CreatePatientInputSchema,
  MAX_PAGE_SIZE,
  PAGE_SIZE,
  PatientFilterSchema,
  UpdatePatientInputSchema,
} from '@telehealth/shared';
import { authorize, type Reach } from '../access/authorize.ts';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import { emergencyAuditDetails } from '../access/emergency-grants.ts';
import type { Database, Executor } from '../db/client.ts';
import { fieldProblem, parseInput, validationFailed } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import { CursorCodec } from '../db/cursor.ts';
import {
  countPatients,
  findVisiblePatient,
  insertPatient,
  listPatientsPage,
  patientExists,
  softDeletePatient,
  updatePatientRow,
  type PatientFilter,
  type NewPatientRow,
  type PatientRow,
} from './patients.repository.ts';
import { isActiveProvider } from '../providers/providers.repository.ts';
import { recordIdempotencyKey } from '../idempotency/idempotency-keys.ts';

/**
 * Patient records: every operation asks the access checkpoint for the caller's reach (every record, or their
 * own), reads or writes within it, and records the audit entry in the same statement or transaction.
 */
export class PatientsService {
  readonly #db: Database;
  readonly #cursors: CursorCodec;
  readonly #keyring: Keyring;

  constructor(options: { db: Database; secret: string; keyring: Keyring }) {
    this.#db = options.db;
    this.#cursors = new CursorCodec(options.secret);
    this.#keyring = options.keyring;
  }

  /**
   * A page of the patients the caller may see. With `columns`, the rows hold only those (and the id): for a
   * reader that shows only those fields (the GraphQL list), so nothing else is read or decrypted.
   */
  async list(
    caller: Caller,
    args: { limit?: number | null; nextToken?: string | null; filter?: PatientFilter | null },
    options: { columns?: ReadonlySet<keyof PatientRow> | null } = {},
  ) {
    const scope = await authorize(this.#db, caller, 'patient:read');
    const filter = parseInput(PatientFilterSchema, args.filter ?? {});
    const limit = Math.min(Math.max(args.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#cursors.decode(args.nextToken) : null;
    // The page and its audit entry in one statement.
    const page = await listPatientsPage(
      this.#db,
      {
        scope,
        filter,
        after,
        limit,
        columns: options.columns ?? null,
        audit: scopeOf(this.#db, caller).auditRecord('PATIENT_VIEW', { page: after ? 'next' : 'first' }),
      },
      this.#keyring,
    );
    return { items: page.rows, nextToken: page.next ? this.#cursors.encode(page.next) : null };
  }

  async count(caller: Caller, filter: PatientFilter | null | undefined): Promise<number> {
    const scope = await authorize(this.#db, caller, 'patient:read');
    return countPatients(this.#db, scope, parseInput(PatientFilterSchema, filter ?? {}));
  }

  /**
   * One patient. `PATIENT_VIEW` is the record read (the details dialog, the edit form); the patient chart, which
   * goes on to show the notes, measures and alerts, is recorded as a `PATIENT_CHART_VIEW`.
   */
  async get(
    caller: Caller,
    id: string,
    event: 'PATIENT_VIEW' | 'PATIENT_CHART_VIEW' = 'PATIENT_VIEW',
  ): Promise<PatientRow> {
    // Emergency access (decision 036) opens the chart (read only), never the list or the edit form.
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('patient:read', {
      message: 'patientMessages.cannotViewOne',
      emergency: event === 'PATIENT_CHART_VIEW',
    });
    const emergency = reach.kind === 'own' ? emergencyAuditDetails(reach.emergency, [id]) : {};
    // The record and its audit entry in one statement; answered like a missing record when out of reach.
    return scope.find('patient:read', id, {
      read: (db) => findVisiblePatient(db, id, reach, this.#keyring, scope.auditRecord(event, emergency)),
      exists: (db) => patientExists(db, id),
      missing: 'patientMessages.notFound',
      denial: { patientIds: [id] },
    });
  }

  async create(caller: Caller, input: unknown): Promise<PatientRow> {
    const reach = await authorize(this.#db, caller, 'patient:create');
    const data = parseInput(CreatePatientInputSchema, input);
    const { owner, isActive, ...fields } = data;
    // Created with the own scope, the record is the caller's own; naming another primary provider takes `any`.
    const ownership: Pick<NewPatientRow, 'ownerId' | 'accountId'> =
      reach.kind === 'own' ? { [reach.field]: reach.callerId } : {};
    if (owner != null) {
      ownership.ownerId = owner;
      await authorize(this.#db, caller, 'patient:create', {
        record: ownership,
        message: 'patientMessages.cannotAssign',
      });
      await this.#requireProvider(owner);
    }
    return this.#db.transaction(async (tx) => {
      const row = await insertPatient(tx, { ...fields, isActive: isActive ?? true, ...ownership }, this.#keyring);
      await scopeOf(this.#db, caller).audit(tx, 'PATIENT_CREATE', { patientIds: [row.id] });
      await recordIdempotencyKey(tx, caller, row.id);
      return row;
    });
  }

  async update(caller: Caller, input: unknown): Promise<PatientRow> {
    const scope = await authorize(this.#db, caller, 'patient:update');
    const { id, owner, ...changes } = parseInput(UpdatePatientInputSchema, input);
    const values: Record<string, unknown> = Object.fromEntries(
      Object.entries(changes).filter(([, v]) => v !== undefined),
    );
    if (owner !== undefined) {
      // The changed record must stay within the caller's reach: with `own`, only the caller can be named.
      await authorize(this.#db, caller, 'patient:update', {
        record: { ownerId: owner },
        message: 'patientMessages.cannotAssign',
        details: { patientIds: [id] },
      });
      if (owner !== null) await this.#requireProvider(owner);
      values.ownerId = owner;
    }
    return this.#withVisiblePatient(caller, 'patient:update', id, scope, async (tx) => {
      const row = await updatePatientRow(tx, id, values, this.#keyring);
      // Which fields changed, never their values: the audit trail is no second copy of the record.
      await scopeOf(this.#db, caller).audit(tx, 'PATIENT_UPDATE', {
        patientIds: [id],
        fields: Object.keys(values).sort(),
      });
      return row;
    });
  }

  async delete(caller: Caller, id: string): Promise<{ id: string }> {
    const scope = await authorize(this.#db, caller, 'patient:delete');
    return this.#withVisiblePatient(caller, 'patient:delete', id, scope, async (tx) => {
      await softDeletePatient(tx, id, caller.user.id);
      await scopeOf(this.#db, caller).audit(tx, 'PATIENT_DELETE', { patientIds: [id], retained: true });
      return { id };
    });
  }

  /**
   * Runs `work` in a transaction with the patient, if the caller may see it. A record the caller may not see
   * answers exactly like one that does not exist; an attempt on an existing one is recorded, after the
   * transaction (whose connection is then free again) has ended.
   */
  async #withVisiblePatient<T>(
    caller: Caller,
    action: 'patient:update' | 'patient:delete',
    id: string,
    scope: Reach<'patient'>,
    work: (tx: Executor, row: PatientRow) => Promise<T>,
  ): Promise<T> {
    return scopeOf(this.#db, caller).transaction(async (tx, scoped) => {
      const row = await scoped.find(action, id, {
        read: (db) => findVisiblePatient(db, id, scope, this.#keyring),
        exists: (db) => patientExists(db, id),
        missing: 'patientMessages.notFound',
        denial: { patientIds: [id] },
      });
      return work(tx, row);
    });
  }

  async #requireProvider(providerId: string): Promise<void> {
    if (!(await isActiveProvider(this.#db, providerId))) {
      throw validationFailed([fieldProblem('owner', 'accessRequestMessages.chooseProvider')]);
    }
  }
}
