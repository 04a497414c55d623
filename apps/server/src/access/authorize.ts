import {
  can,
  ownershipField,
  PERMISSION_DENIED_MESSAGES,
  PERMISSIONS,
  scopeOf,
  type MessageId,
  type OwnershipField,
  type Permission,
  type Resource,
  type ResourceAction,
} from '@telehealth/shared';
import { appendAuditEntry } from '../audit/audit.repository.ts';
import type { Database } from '../db/client.ts';
import { forbidden } from '../errors.ts';
import type { Caller } from './caller.ts';
import { activeEmergencyGrants, type EmergencyGrant } from './emergency-grants.ts';

type ResourceOf<A extends ResourceAction> = A extends `${infer R}:${string}` ? R & Resource : never;

/**
 * The records of a resource that one caller may act on: all of them, or their own: those whose `field` holds
 * the caller's id (packages/shared OWN_RECORDS). Repositories turn it into a condition.
 */
export type Reach<R extends Resource> =
  | { kind: 'any' }
  | {
      kind: 'own';
      field: OwnershipField<R>;
      callerId: string;
      /** Asked for with `emergency`: the caller's active emergency access grants (decision 036), which widen it. */
      emergency?: readonly EmergencyGrant[];
    };

/** The ownership fields of a record as it is or will be written (only those the caller sets). */
export type OwnershipValues<R extends Resource> = Partial<Record<OwnershipField<R>, string | null>>;

/**
 * The one access checkpoint. Answers the caller's reach for an action on a resource, from the shared
 * permission table; a caller without the action in any scope is refused: an UNAUTHORIZED_ACCESS entry, then
 * FORBIDDEN with the action's message (or `message`).
 *
 * With `record` (the ownership fields of a record being written, such as a new patient's primary provider),
 * a caller whose reach is `own` must name only itself, in its own field: otherwise it is refused the same
 * way. A record read by id is checked by the repository's query instead (`reach` becomes its condition), and
 * an existing record out of reach is recorded with `recordOutOfReach` and answered like a missing one.
 */
export async function authorize<A extends ResourceAction>(
  db: Database,
  caller: Caller,
  action: A,
  options: {
    message?: MessageId;
    details?: Record<string, unknown>;
    record?: OwnershipValues<ResourceOf<A>>;
    /**
     * A read that emergency access opens (decision 036): an `own` reach of a caller who may break the glass also
     * carries their active grants, which the repository's condition honours (`orEmergencyGrants`).
     */
    emergency?: boolean;
  } = {},
): Promise<Reach<ResourceOf<A>>> {
  const resource = action.slice(0, action.indexOf(':')) as ResourceOf<A>;
  const role = caller.user.role;
  const scope = scopeOf(role, action);
  const message = options.message ?? PERMISSION_DENIED_MESSAGES[action];
  if (scope === 'any') return { kind: 'any' };
  // An own grant without a definition of "own" reaches nothing (the shared table's tests forbid it).
  const field = scope === 'own' ? ownershipField(role, resource) : null;
  if (!field) {
    return refuse(db, caller, message, { permission: narrowestPermission(action), ...options.details });
  }
  const reach: Reach<ResourceOf<A>> = { kind: 'own' as const, field, callerId: caller.user.id };
  if (options.emergency && can(role, 'emergency-access:request')) {
    // The request's scope loads them once, however many reads of the request ask (decision 054).
    const grants = caller.emergencyGrants
      ? await caller.emergencyGrants()
      : await activeEmergencyGrants(db, caller.user.id);
    if (grants.length > 0) reach.emergency = grants;
  }
  if (options.record) {
    const named = Object.entries(options.record) as [string, string | null][];
    if (named.some(([name, value]) => name !== field || value !== caller.user.id)) {
      return refuse(db, caller, message, {
        permission: `${action}:any`,
        reason: "the record would not be the caller's own",
        ...options.details,
      });
    }
  }
  return reach;
}

/**
 * Records an attempt on an existing record outside the caller's reach (the caller is then answered as if it
 * did not exist). Call it after the transaction, so a denial never holds a second pooled connection.
 */
export function recordOutOfReach(
  db: Database,
  caller: Caller,
  action: ResourceAction,
  details: Record<string, unknown>,
): Promise<void> {
  return recordDenial(db, caller, {
    permission: `${action}:any`,
    reason: "not in the caller's scope",
    ...details,
  });
}

/**
 * Refuses a caller for a reason other than the permission table (for example, the outbox while demo mode is
 * off): the same audit entry and error as a missing permission.
 */
export async function refuse(
  db: Database,
  caller: Caller,
  message: MessageId,
  details: Record<string, unknown>,
): Promise<never> {
  await recordDenial(db, caller, details);
  throw forbidden(message);
}

function recordDenial(db: Database, caller: Caller, details: Record<string, unknown>): Promise<void> {
  return appendAuditEntry(db, {
    event: 'UNAUTHORIZED_ACCESS',
    level: 'WARNING',
    actor: caller.actor,
    url: caller.operation,
    details,
  });
}

/** The least permission that would have allowed the call: its own scope where one is declared. */
function narrowestPermission(action: ResourceAction): Permission {
  const own = `${action}:own`;
  return (PERMISSIONS as readonly string[]).includes(own) ? (own as Permission) : (`${action}:any` as Permission);
}
