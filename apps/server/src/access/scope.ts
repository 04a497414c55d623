import type { AuditEvent, AuditLevel, MessageId, ResourceAction } from '@telehealth/shared';
import { appendAuditEntry, SYSTEM_ACTOR, type AuditActor, type AuditRecord } from '../audit/audit.repository.ts';
import type { SessionUser } from '../auth/session-user.ts';
import type { Database, Executor } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import { notFound } from '../errors.ts';
import type { IdempotentRequest } from '../idempotency/idempotent-request.ts';
import { authorize, recordOutOfReach, refuse, type Reach } from './authorize.ts';
import { activeEmergencyGrants, type EmergencyGrant } from './emergency-grants.ts';
import type { Caller } from './caller.ts';

/**
 * How `Scope.find` reaches one record by id (decision 054), in one of two ways:
 * - `read` answers the record if the caller's reach holds it (the repository's query with the reach as its
 *   condition), and `exists` whether a record with the id exists at all (or the record), asked only when `read`
 *   found none;
 * - or `load` reads the record whatever the reach, and `within` says whether the caller reaches it.
 * `missing` is what the caller is answered without the record: the specification's not-found message, or an error
 * built from the existing record (a field's error, a refusal of the record's own patient). `denial` holds the
 * details of the UNAUTHORIZED_ACCESS entry of an attempt on an existing record out of reach.
 */
export type FindSpec<T, E = boolean> = FindByReach<T, E> | FindByCheck<T>;

interface FindAnswers<E> {
  missing: MessageId | ((existing: E | undefined) => Error);
  denial: Record<string, unknown> | ((existing: E) => Record<string, unknown>);
}

export interface FindByReach<T, E> extends FindAnswers<E> {
  read: (executor: Executor, id: string) => Promise<T | null | undefined | false>;
  exists: (executor: Executor, id: string) => Promise<E | null | undefined | false>;
}

export interface FindByCheck<T> extends FindAnswers<T> {
  load: (executor: Executor, id: string) => Promise<T | null | undefined>;
  within: (row: T) => boolean;
}

/** Inside `Scope.transaction`: finds that record their out-of-reach attempts once the transaction has ended. */
export interface ScopedTransaction {
  /** `Scope.find` on the transaction: the record, or the not-found error thrown (the attempt recorded after). */
  find<T>(action: ResourceAction, id: string, spec: FindByCheck<T>): Promise<T>;
  find<T, E = boolean>(action: ResourceAction, id: string, spec: FindByReach<T, E>): Promise<T>;
  /**
   * An attempt on an existing record out of reach, found by the service's own reading: answers the error to
   * throw (`missing`), and records the attempt (`denial`) after the transaction.
   */
  outOfReach(action: ResourceAction, denial: Record<string, unknown>, missing: MessageId | Error): Error;
}

/**
 * What a request knows of its signed-in caller, built once per request (the GraphQL context and plain routes
 * alike, `scopePlugin`): who, its audit actor, and its emergency access grants, loaded at most once and only when
 * a read asks. `as(operation)` gives the `Scope` (the `Caller`) of one operation of the request.
 */
export class RequestScope {
  readonly db: Database;
  readonly user: SessionUser;
  readonly actor: AuditActor;
  #grants: Promise<readonly EmergencyGrant[]> | null = null;

  constructor(db: Database, user: SessionUser, actor: AuditActor) {
    this.db = db;
    this.user = user;
    this.actor = actor;
  }

  /** The caller of one operation of this request (the audit entries' url). */
  as(operation: string): Scope {
    return new Scope(this, operation);
  }

  /** The caller's active emergency access grants (decision 036), read once per request, when first asked. */
  emergencyGrants(): Promise<readonly EmergencyGrant[]> {
    this.#grants ??= activeEmergencyGrants(this.db, this.user.id).catch((error: unknown) => {
      this.#grants = null;
      throw error;
    });
    return this.#grants;
  }

  /** A grant started or ended during the request: the next read asks the database again. */
  forgetEmergencyGrants(): void {
    this.#grants = null;
  }
}

/**
 * The signed-in caller of one operation, bound to its request (Medplum's `ctx.repo`): services take it as
 * `Caller` and reach records through it. `reach` asks the shared permission table; `find` answers a record by id
 * or records the out-of-reach attempt and throws the specification's not-found itself; `audit` writes the
 * caller's audit entries. See docs/decisions/054-caller-bound-scope.md.
 */
export class Scope implements Caller {
  readonly operation: string;
  readonly idempotency?: IdempotentRequest;
  readonly #request: RequestScope;

  /** Use `RequestScope.as` (a request's caller) or `scopeOf` (a caller built outside a request). */
  constructor(request: RequestScope, operation: string, idempotency?: IdempotentRequest) {
    this.#request = request;
    this.operation = operation;
    if (idempotency) this.idempotency = idempotency;
  }

  get user(): SessionUser {
    return this.#request.user;
  }

  get actor(): AuditActor {
    return this.#request.actor;
  }

  /** The same caller and operation, carrying the request's Idempotency-Key (decision 044). */
  withIdempotency(request: IdempotentRequest): Scope {
    return new Scope(this.#request, this.operation, request);
  }

  emergencyGrants(): Promise<readonly EmergencyGrant[]> {
    return this.#request.emergencyGrants();
  }

  forgetEmergencyGrants(): void {
    this.#request.forgetEmergencyGrants();
  }

  /** `authorize` for this caller: its reach for `action`, or FORBIDDEN (recorded) without the permission. */
  reach<A extends ResourceAction>(
    action: A,
    options?: Parameters<typeof authorize<A>>[3],
  ): ReturnType<typeof authorize<A>> {
    return authorize(this.#request.db, this, action, options);
  }

  /**
   * The record `id` if the caller reaches it. Otherwise answered exactly like a missing record (`spec.missing`),
   * and an attempt on an existing one is recorded once (UNAUTHORIZED_ACCESS with `spec.denial`). An id that is
   * not a UUID is missing without a query.
   */
  find<T>(action: ResourceAction, id: string, spec: FindByCheck<T>): Promise<T>;
  find<T, E = boolean>(action: ResourceAction, id: string, spec: FindByReach<T, E>): Promise<T>;
  async find<T, E>(action: ResourceAction, id: string, spec: FindSpec<T, E>): Promise<T> {
    const { row, existing } = await lookUp(this.#request.db, id, spec);
    if (row) return row;
    if (existing) await this.recordOutOfReach(action, denialOf(spec, existing));
    throw missingError(spec, existing);
  }

  /**
   * `work` in one transaction whose finds (and `outOfReach` answers) record the attempt after it has ended, so a
   * denial never holds a second pooled connection.
   */
  async transaction<T>(work: (tx: Executor, scoped: ScopedTransaction) => Promise<T>): Promise<T> {
    const denials: { action: ResourceAction; details: Record<string, unknown> }[] = [];
    try {
      return await this.#request.db.transaction((tx) =>
        work(tx, {
          find: async <T, E>(action: ResourceAction, id: string, spec: FindSpec<T, E>): Promise<T> => {
            const { row, existing } = await lookUp(tx, id, spec);
            if (row) return row;
            if (existing) denials.push({ action, details: denialOf(spec, existing) });
            throw missingError(spec, existing);
          },
          outOfReach: (action, details, missing) => {
            denials.push({ action, details });
            return typeof missing === 'string' ? notFound(missing) : missing;
          },
        }),
      );
    } catch (error) {
      for (const denial of denials) await this.recordOutOfReach(denial.action, denial.details);
      throw error;
    }
  }

  /** Records an attempt on an existing record out of reach (the caller is answered as if it did not exist). */
  recordOutOfReach(action: ResourceAction, details: Record<string, unknown>): Promise<void> {
    return recordOutOfReach(this.#request.db, this, action, details);
  }

  /** Refuses the caller for a reason other than the permission table: UNAUTHORIZED_ACCESS, then FORBIDDEN. */
  refuse(message: MessageId, details: Record<string, unknown>): Promise<never> {
    return refuse(this.#request.db, this, message, details);
  }

  /** The caller's audit entry of `event` (its actor and operation), as a record to write or to run in a statement. */
  auditRecord(event: AuditEvent, details: Record<string, unknown>, options: AuditOptions = {}): AuditRecord {
    return auditRecordOf(this, event, details, options);
  }

  /** Writes the caller's audit entry of `event`, in `executor` (the transaction of the change it records). */
  audit(
    executor: Executor,
    event: AuditEvent,
    details: Record<string, unknown>,
    options: AuditOptions = {},
  ): Promise<void> {
    return appendAuditEntry(executor, auditRecordOf(this, event, details, options));
  }
}

/**
 * The scope of a caller without a session (decision 054): a job acting as SYSTEM, a person on the video signalling
 * socket (signed in or a guest), a public caller (a password reset, an access request, a sign-in). It reaches no
 * record; it writes the caller's audit entries exactly as `Scope.audit` does: its actor, its operation as the url.
 */
export class ActorScope {
  readonly actor: AuditActor;
  /** The audit entries' url: the operation, or null for work no request asked for. */
  readonly operation: string | null;

  constructor(actor: AuditActor, operation: string | null) {
    this.actor = actor;
    this.operation = operation;
  }

  auditRecord(event: AuditEvent, details: Record<string, unknown>, options: AuditOptions = {}): AuditRecord {
    return auditRecordOf(this, event, details, options);
  }

  /** Writes the caller's audit entry of `event`, in `executor` (the transaction of the change it records). */
  audit(
    executor: Executor,
    event: AuditEvent,
    details: Record<string, unknown>,
    options: AuditOptions = {},
  ): Promise<void> {
    return appendAuditEntry(executor, auditRecordOf(this, event, details, options));
  }
}

/** The scope of `actor` without a session, for `operation` (a public caller's, or a socket's fixed name). */
export function actorScope(actor: AuditActor, operation: string | null): ActorScope {
  return new ActorScope(actor, operation);
}

/** The server acting on its own (a job, start-up work): SYSTEM_ACTOR, with the operation's name if it has one. */
export function systemScope(operation: string | null = null): ActorScope {
  return new ActorScope(SYSTEM_ACTOR, operation);
}

interface AuditOptions {
  /** INFO unless told; ERROR for what failed (a broken chain, a backup that did not run). */
  level?: AuditLevel;
  /** The entry's time when it must equal a time the record states (a report's `generatedAt`); now unless told. */
  timestamp?: Date;
}

/** The one shape of an audit entry a scope writes. */
function auditRecordOf(
  who: { readonly actor: AuditActor; readonly operation: string | null },
  event: AuditEvent,
  details: Record<string, unknown>,
  options: AuditOptions,
): AuditRecord {
  const record: AuditRecord = { event, level: options.level ?? 'INFO', actor: who.actor, url: who.operation, details };
  if (options.timestamp) record.timestamp = options.timestamp;
  return record;
}

export type { Reach };

/**
 * The scope of `caller`: itself when it is a request's scope (the usual case), otherwise one built for it (a
 * caller made outside a request: a test, a benchmark), whose grants are then read once per call.
 */
export function scopeOf(db: Database, caller: Caller): Scope {
  if (caller instanceof Scope) return caller;
  return new Scope(new RequestScope(db, caller.user, caller.actor), caller.operation, caller.idempotency);
}

async function lookUp<T, E>(
  executor: Executor,
  id: string,
  spec: FindSpec<T, E>,
): Promise<{ row?: T; existing?: E | T }> {
  if (!isUuid(id)) return {};
  if ('load' in spec) {
    const loaded = await spec.load(executor, id);
    if (!loaded) return {};
    return spec.within(loaded) ? { row: loaded } : { existing: loaded };
  }
  const row = await spec.read(executor, id);
  if (row) return { row };
  const existing = await spec.exists(executor, id);
  return existing ? { existing } : {};
}

// `existing` came from the same spec: its `load` (a T) or its `exists` (an E).
function denialOf<T, E>(spec: FindSpec<T, E>, existing: E | T): Record<string, unknown> {
  const { denial } = spec as FindAnswers<E | T>;
  return typeof denial === 'function' ? denial(existing) : denial;
}

function missingError<T, E>(spec: FindSpec<T, E>, existing: E | T | undefined): Error {
  const { missing } = spec as FindAnswers<E | T>;
  return typeof missing === 'string' ? notFound(missing) : missing(existing);
}
