import {
  CreatePatientInputSchema,
  hasPermission,
  MAX_PAGE_SIZE,
  PAGE_SIZE,
  PATIENT_MESSAGES,
  PatientFilterSchema,
  UpdatePatientInputSchema,
  type AuditEvent,
} from '@telehealth/shared';
import { appendAuditEntry, type AuditActor, type AuditRecord } from '../audit/audit.repository.ts';
import type { SessionUser } from '../auth/auth.service.ts';
import type { Database, Executor } from '../db/client.ts';
import { AppError, forbidden, notFound, parseInput } from '../errors.ts';
import { ERROR_CODES } from '@telehealth/shared';
import { CursorCodec } from './cursor.ts';
import {
  countPatients,
  findVisiblePatient,
  insertPatient,
  listPatientsPage,
  patientExists,
  softDeletePatient,
  updatePatientRow,
  type PatientFilter,
  type PatientRow,
  type PatientScope,
} from './patients.repository.ts';
import { isProviderAccount } from '../providers/providers.repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface Caller {
  user: SessionUser;
  actor: AuditActor;
  operation: string;
}

/**
 * The one checkpoint for patient records: every operation checks the caller's permission and scope, reads or
 * writes, and records the audit entry in the same transaction.
 */
export class PatientsService {
  readonly #db: Database;
  readonly #cursors: CursorCodec;

  constructor(options: { db: Database; secret: string }) {
    this.#db = options.db;
    this.#cursors = new CursorCodec(options.secret);
  }

  async list(
    caller: Caller,
    args: { limit?: number | null; nextToken?: string | null; filter?: PatientFilter | null },
  ) {
    const scope = await this.#scopeFor(caller, 'patients.read', PATIENT_MESSAGES.cannotView);
    const filter = parseInput(PatientFilterSchema, args.filter ?? {});
    const limit = Math.min(Math.max(args.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#cursors.decode(args.nextToken) : null;
    // The page and its audit entry in one statement.
    const page = await listPatientsPage(this.#db, {
      scope,
      filter,
      after,
      limit,
      audit: this.#auditRecord(caller, 'PATIENT_VIEW', { page: after ? 'next' : 'first' }),
    });
    return { items: page.rows, nextToken: page.next ? this.#cursors.encode(page.next) : null };
  }

  async count(caller: Caller, filter: PatientFilter | null | undefined): Promise<number> {
    const scope = await this.#scopeFor(caller, 'patients.read', PATIENT_MESSAGES.cannotView);
    return countPatients(this.#db, scope, parseInput(PatientFilterSchema, filter ?? {}));
  }

  async get(caller: Caller, id: string): Promise<PatientRow> {
    const scope = await this.#scopeFor(caller, 'patients.read', PATIENT_MESSAGES.cannotViewOne);
    // The record and its audit entry in one statement.
    const row = UUID.test(id)
      ? await findVisiblePatient(this.#db, id, scope, this.#auditRecord(caller, 'PATIENT_VIEW', {}))
      : undefined;
    if (row) return row;
    // Answered like a missing record; an existing one outside the caller's scope is recorded.
    if (UUID.test(id) && (await patientExists(this.#db, id))) await this.#recordOutOfScope(caller, id);
    throw notFound(PATIENT_MESSAGES.notFound);
  }

  async create(caller: Caller, input: unknown): Promise<PatientRow> {
    await this.#scopeFor(caller, 'patients.write', PATIENT_MESSAGES.cannotCreate);
    const data = parseInput(CreatePatientInputSchema, input);
    const { owner, isActive, ...fields } = data;
    let ownerId: string | null = caller.user.role === 'provider' ? caller.user.id : null;
    if (owner != null && owner !== ownerId) {
      if (caller.user.role !== 'admin') return this.#deny(caller, PATIENT_MESSAGES.cannotAssign, {});
      await this.#requireProvider(owner);
      ownerId = owner;
    }
    return this.#db.transaction(async (tx) => {
      const row = await insertPatient(tx, { ...fields, isActive: isActive ?? true, ownerId });
      await this.#audit(tx, caller, 'PATIENT_CREATE', [row.id], {});
      return row;
    });
  }

  async update(caller: Caller, input: unknown): Promise<PatientRow> {
    const scope = await this.#scopeFor(caller, 'patients.write', PATIENT_MESSAGES.cannotUpdate);
    const { id, owner, ...changes } = parseInput(UpdatePatientInputSchema, input);
    const values: Record<string, unknown> = Object.fromEntries(
      Object.entries(changes).filter(([, v]) => v !== undefined),
    );
    if (owner !== undefined) {
      if (caller.user.role !== 'admin') return this.#deny(caller, PATIENT_MESSAGES.cannotAssign, { patientId: id });
      if (owner !== null) await this.#requireProvider(owner);
      values.ownerId = owner;
    }
    return this.#withVisiblePatient(caller, id, scope, async (tx) => {
      const row = await updatePatientRow(tx, id, values);
      // Which fields changed, never their values: the audit trail is no second copy of the record.
      await this.#audit(tx, caller, 'PATIENT_UPDATE', [id], { fields: Object.keys(values).sort() });
      return row;
    });
  }

  async delete(caller: Caller, id: string): Promise<{ id: string }> {
    const scope = await this.#scopeFor(caller, 'patients.delete', PATIENT_MESSAGES.cannotDelete);
    return this.#withVisiblePatient(caller, id, scope, async (tx) => {
      await softDeletePatient(tx, id, caller.user.id);
      await this.#audit(tx, caller, 'PATIENT_DELETE', [id], { retained: true });
      return { id };
    });
  }

  /** The records a caller may reach for a permission; a caller without it is refused (and recorded). */
  async #scopeFor(
    caller: Caller,
    permission: 'patients.read' | 'patients.write' | 'patients.delete',
    message: string,
  ): Promise<PatientScope> {
    if (!hasPermission(caller.user.role, permission)) return this.#deny(caller, message, { permission });
    return caller.user.role === 'admin' ? { kind: 'all' } : { kind: 'owner', ownerId: caller.user.id };
  }

  /**
   * Runs `work` in a transaction with the patient, if the caller may see it. A record the caller may not see
   * answers exactly like one that does not exist; an attempt on an existing one is recorded, after the
   * transaction (whose connection is then free again) has ended.
   */
  async #withVisiblePatient<T>(
    caller: Caller,
    id: string,
    scope: PatientScope,
    work: (tx: Executor, row: PatientRow) => Promise<T>,
  ): Promise<T> {
    const isUuid = UUID.test(id);
    let outOfScope = false;
    try {
      return await this.#db.transaction(async (tx) => {
        const row = isUuid ? await findVisiblePatient(tx, id, scope) : undefined;
        if (row) return await work(tx, row);
        outOfScope = isUuid && (await patientExists(tx, id));
        throw notFound(PATIENT_MESSAGES.notFound);
      });
    } catch (error) {
      if (outOfScope) await this.#recordOutOfScope(caller, id);
      throw error;
    }
  }

  #recordOutOfScope(caller: Caller, id: string): Promise<void> {
    return appendAuditEntry(this.#db, {
      event: 'UNAUTHORIZED_ACCESS',
      level: 'WARNING',
      actor: caller.actor,
      url: caller.operation,
      details: { patientIds: [id], reason: "not in the caller's scope" },
    });
  }

  async #deny(caller: Caller, message: string, details: Record<string, unknown>): Promise<never> {
    await appendAuditEntry(this.#db, {
      event: 'UNAUTHORIZED_ACCESS',
      level: 'WARNING',
      actor: caller.actor,
      url: caller.operation,
      details,
    });
    throw forbidden(message);
  }

  async #requireProvider(accountId: string): Promise<void> {
    if (!(await isProviderAccount(this.#db, accountId))) {
      throw new AppError(ERROR_CODES.badUserInput, 'Validation failed: Please choose a provider', {
        fieldErrors: { owner: 'Please choose a provider' },
      });
    }
  }

  #audit(tx: Executor, caller: Caller, event: AuditEvent, patientIds: string[], details: Record<string, unknown>) {
    return appendAuditEntry(tx, this.#auditRecord(caller, event, { patientIds, ...details }));
  }

  #auditRecord(caller: Caller, event: AuditEvent, details: Record<string, unknown>): AuditRecord {
    return { event, level: 'INFO', actor: caller.actor, url: caller.operation, details };
  }
}
