import type { MessageId } from '@telehealth/shared';
import type { Caller } from '../access/caller.ts';
import { scopeOf } from '../access/scope.ts';
import type { Database, Executor } from '../db/client.ts';
import { postgresErrorOf } from '../db/retry.ts';
import { type AppError, badUserInput, fieldError, notFound } from '../errors.ts';
import { findUserById, findUserListRows, type UserListRow, type UserRow } from './users.repository.ts';

// What every administrator's change to an account shares (admin-users.service.ts, user-access.service.ts): the
// change's transaction, whose refusals are rolled back and then recorded (USER_CHANGE_REFUSED); the account it is
// about, locked for the transaction; and the account as the Users list shows it once changed.

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether `id` can name an account at all (anything else is answered like a missing account, without a query). */
export function isAccountId(id: string): boolean {
  return UUID.test(id);
}

/** A refusal decided inside a transaction: rolled back, then recorded (USER_CHANGE_REFUSED) and thrown. */
export class Refusal extends Error {
  readonly error: AppError;
  readonly reason: string;
  constructor(error: AppError, reason: string) {
    super(error.message);
    this.name = 'Refusal';
    this.error = error;
    this.reason = reason;
  }
}

/**
 * Runs a change in a transaction. A Refusal thrown inside rolls it back and is recorded afterwards
 * (USER_CHANGE_REFUSED), so a refusal holds no second connection and leaves nothing half-written.
 */
export async function runUserChange<T>(
  db: Database,
  caller: Caller,
  details: Record<string, unknown>,
  work: (tx: Executor) => Promise<T>,
): Promise<T> {
  try {
    return await db.transaction((tx) => work(tx));
  } catch (error) {
    if (error instanceof Refusal) {
      await scopeOf(db, caller).audit(
        db,
        'USER_CHANGE_REFUSED',
        { ...details, reason: error.reason },
        { level: 'WARNING' },
      );
      throw error.error;
    }
    if (postgresErrorOf(error)?.code === '23505' && 'role' in details) {
      // Two invitations of one address at once: the second meets the first's account.
      throw fieldError('email', 'userMessages.emailTaken');
    }
    throw error;
  }
}

/** Refuses a change before it starts (the caller's own account): recorded (USER_CHANGE_REFUSED), then thrown. */
export async function refuseUserChange(
  db: Database,
  caller: Caller,
  accountId: string,
  message: MessageId,
  reason: string,
): Promise<never> {
  await scopeOf(db, caller).audit(db, 'USER_CHANGE_REFUSED', { accountId, reason }, { level: 'WARNING' });
  throw badUserInput(message);
}

/** The account a change is about, locked for the transaction; answered like a missing one when it is not there. */
export async function lockedAccount(tx: Executor, accountId: string): Promise<UserRow> {
  if (!isAccountId(accountId)) throw notFound('userMessages.notFound');
  const account = await findUserById(tx, accountId, { lock: true });
  if (!account) throw notFound('userMessages.notFound');
  return account;
}

/** One account as the list shows it (after a change: the screen replaces its row). */
export async function userListRow(db: Database, accountId: string): Promise<UserListRow> {
  const [row] = await findUserListRows(db, [accountId]);
  if (!row) throw notFound('userMessages.notFound');
  return row;
}
