import { eq, sql } from 'drizzle-orm';
import { ChangeUserRoleInputSchema } from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf } from '../access/scope.ts';
import {
  calendarFeeds,
  providerSchedules,
  providerTimeOff,
  providerWorkingHours,
} from '../appointments/appointments.table.ts';
import { revokeAccountTokens } from '../auth/account-tokens.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { SessionLifetime } from '../auth/session-lifetime.ts';
import type { Database, Executor } from '../db/client.ts';
import { postgresErrorOf } from '../db/retry.ts';
import { badUserInput, fieldError, forbidden, parseInput } from '../errors.ts';
import { notes } from '../notes/notes.table.ts';
import { providers } from '../providers/providers.table.ts';
import { createProviderRecord } from './accounts.ts';
import { lockedAccount, refuseUserChange, Refusal, runUserChange, userListRow } from './user-changes.ts';
import {
  findActiveAdministratorIds,
  setUserActive,
  setUserRole,
  type UserListRow,
  type UserRow,
} from './users.repository.ts';

/** Serialises every change that could remove an administrator (decision 033): demotion and deactivation. */
const ADMINISTRATORS_LOCK = sql`SELECT pg_advisory_xact_lock(hashtext('users:administrators'))`;

/**
 * An account's standing (`/admin/users`, decision 033): its role (administrator or provider, and the provider record
 * that goes with it) and whether it may sign in (deactivate, reactivate). These change together: a demotion and a
 * deactivation may both remove an administrator, so both take the administrators' lock, keep the caller from
 * removing themselves and never remove the last active administrator; both end the account's sessions.
 */
export class UserAccessService {
  readonly #db: Database;
  readonly #authService: AuthService;
  readonly #sessions: SessionLifetime;

  constructor(options: { db: Database; authService: AuthService; sessionLifetime: SessionLifetime }) {
    this.#db = options.db;
    this.#authService = options.authService;
    this.#sessions = options.sessionLifetime;
  }

  /**
   * Moves an account between administrator and provider (decision 033). A provider becomes an administrator only
   * when their provider record can go (nothing clinical or scheduled refers to it); an administrator becoming a
   * provider gets a provider record (a specialty is needed). Patient accounts keep their role. The account's
   * sessions end, so it signs in again with its new role.
   */
  async changeRole(caller: Caller, input: unknown): Promise<UserListRow> {
    await authorize(this.#db, caller, 'user:manage');
    const data = parseInput(ChangeUserRoleInputSchema, input);
    const accountId = data.accountId;
    if (accountId === caller.user.id)
      await refuseUserChange(this.#db, caller, accountId, 'userMessages.selfRole', 'own role');
    await runUserChange(this.#db, caller, { accountId }, async (tx) => {
      await tx.execute(ADMINISTRATORS_LOCK);
      await this.#requireActiveAdministrator(tx, caller);
      const account = await lockedAccount(tx, accountId);
      const from = account.role;
      if (from === 'patient') throw new Refusal(badUserInput('userMessages.patientRoleFixed'), 'patient account');
      if (from === data.role) throw badUserInput('userMessages.sameRole');
      let providerRecord: 'created' | 'reactivated' | 'removed';
      if (from === 'admin') {
        await this.#requireAnotherAdministrator(tx, account);
        const [existing] = await tx.select({ id: providers.id }).from(providers).where(eq(providers.id, account.id));
        if (existing) {
          await tx
            .update(providers)
            .set({ isActive: account.isActive, updatedAt: new Date() })
            .where(eq(providers.id, account.id));
          providerRecord = 'reactivated';
        } else {
          if (!data.specialty) throw fieldError('specialty', 'userMessages.specialtyRequired');
          await createProviderRecord(
            tx,
            account,
            { specialty: data.specialty, isActive: account.isActive },
            { actor: caller.actor, url: caller.operation, details: { roleChange: true } },
          );
          providerRecord = 'created';
        }
      } else {
        await this.#removeProviderRecord(tx, account.id);
        providerRecord = 'removed';
      }
      await setUserRole(tx, account.id, data.role);
      const ended = await this.#sessions.endAccountSessions(tx, account.id, 'ACCOUNT_DISABLED');
      await scopeOf(this.#db, caller).audit(
        tx,
        'USER_ROLE_CHANGED',
        { accountId: account.id, from, to: data.role, providerRecord, sessionsEnded: ended.length },
        { level: 'WARNING' },
      );
    });
    await this.#authService.discardChallengesOf(accountId);
    return userListRow(this.#db, accountId);
  }

  /**
   * Deactivates an account: it cannot sign in, and every session of it ends at once (open live channels close on
   * the session-ended notice). Open invitation and reset links stop working; a provider leaves the directory.
   */
  async deactivate(caller: Caller, accountId: string): Promise<UserListRow> {
    await authorize(this.#db, caller, 'user:manage', { details: { accountId } });
    if (accountId === caller.user.id) {
      await refuseUserChange(this.#db, caller, accountId, 'userMessages.selfDeactivate', 'own account');
    }
    await runUserChange(this.#db, caller, { accountId }, async (tx) => {
      await tx.execute(ADMINISTRATORS_LOCK);
      await this.#requireActiveAdministrator(tx, caller);
      const account = await lockedAccount(tx, accountId);
      if (!account.isActive) throw badUserInput('userMessages.alreadyDeactivated');
      if (account.role === 'admin') await this.#requireAnotherAdministrator(tx, account);
      await setUserActive(tx, account.id, false);
      await tx.update(providers).set({ isActive: false, updatedAt: new Date() }).where(eq(providers.id, account.id));
      const revoked =
        (await revokeAccountTokens(tx, account.id, 'invitation')) +
        (await revokeAccountTokens(tx, account.id, 'password_reset'));
      const ended = await this.#sessions.endAccountSessions(tx, account.id, 'ACCOUNT_DISABLED');
      await scopeOf(this.#db, caller).audit(
        tx,
        'USER_DEACTIVATED',
        { accountId: account.id, role: account.role, sessionsEnded: ended.length, linksRevoked: revoked },
        { level: 'WARNING' },
      );
    });
    await this.#authService.discardChallengesOf(accountId);
    return userListRow(this.#db, accountId);
  }

  /** Lets a deactivated account sign in again (a provider returns to the directory). */
  async reactivate(caller: Caller, accountId: string): Promise<UserListRow> {
    await authorize(this.#db, caller, 'user:manage', { details: { accountId } });
    await runUserChange(this.#db, caller, { accountId }, async (tx) => {
      const account = await lockedAccount(tx, accountId);
      if (account.isActive) throw badUserInput('userMessages.alreadyActive');
      await setUserActive(tx, account.id, true);
      await tx.update(providers).set({ isActive: true, updatedAt: new Date() }).where(eq(providers.id, account.id));
      await scopeOf(this.#db, caller).audit(tx, 'USER_REACTIVATED', { accountId: account.id, role: account.role });
    });
    return userListRow(this.#db, accountId);
  }

  /** The caller must still be an active administrator now that the lock is held (another may just have removed them). */
  async #requireActiveAdministrator(tx: Executor, caller: Caller): Promise<void> {
    const admins = await findActiveAdministratorIds(tx);
    if (!admins.includes(caller.user.id))
      throw new Refusal(forbidden('messages.adminRequired'), 'caller no longer an administrator');
  }

  /** Removing `account` (an administrator) must leave at least one other active administrator. */
  async #requireAnotherAdministrator(tx: Executor, account: UserRow): Promise<void> {
    if (!account.isActive) return;
    const others = (await findActiveAdministratorIds(tx)).filter((id) => id !== account.id);
    if (others.length === 0) {
      throw new Refusal(badUserInput('userMessages.lastAdministrator'), 'last active administrator');
    }
  }

  /**
   * A provider becoming an administrator: their working hours, time off and calendar feed go with the provider
   * record; anything clinical or scheduled that refers to it (patients, appointments, waitlist) or notes they
   * wrote keep the role as it is.
   */
  async #removeProviderRecord(tx: Executor, accountId: string): Promise<void> {
    const [authored] = await tx.select({ id: notes.id }).from(notes).where(eq(notes.authorId, accountId)).limit(1);
    if (authored) throw new Refusal(badUserInput('userMessages.providerHasRecords'), 'provider has notes');
    try {
      await tx.transaction(async (savepoint) => {
        await savepoint.delete(providerWorkingHours).where(eq(providerWorkingHours.providerId, accountId));
        await savepoint.delete(providerSchedules).where(eq(providerSchedules.providerId, accountId));
        await savepoint.delete(providerTimeOff).where(eq(providerTimeOff.providerId, accountId));
        await savepoint.delete(calendarFeeds).where(eq(calendarFeeds.providerId, accountId));
        await savepoint.delete(providers).where(eq(providers.id, accountId));
      });
    } catch (error) {
      // A foreign key: a patient, appointment, waitlist entry (or a later feature's record) refers to the provider.
      if (postgresErrorOf(error)?.code === '23503') {
        throw new Refusal(badUserInput('userMessages.providerHasRecords'), 'provider has records');
      }
      throw error;
    }
  }
}
