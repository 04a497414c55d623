import { eq, sql } from 'drizzle-orm';
import {
  ChangeUserRoleInputSchema,
  INVITABLE_PATIENTS_LIMIT,
  InviteUserInputSchema,
  isRole,
  MAX_PAGE_SIZE,
  PAGE_SIZE,
  UserListFilterSchema,
  type MessageId,
} from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { appendAuditEntry } from '../audit/audit.repository.ts';
import { revokeAccountTokens } from '../auth/account-tokens.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { InvitationsService } from '../auth/invitations.service.ts';
import type { PasswordResetService } from '../auth/password-reset.service.ts';
import { endAccountSessions } from '../auth/sessions.repository.ts';
import type { TwoFactorService } from '../auth/two-factor.service.ts';
import { CursorCodec } from '../db/cursor.ts';
import type { Database, Executor } from '../db/client.ts';
import { postgresErrorOf } from '../db/retry.ts';
import {
  calendarFeeds,
  providerSchedules,
  providerTimeOff,
  providerWorkingHours,
} from '../appointments/appointments.table.ts';
import { signInFailures, twoFactors } from '../auth/auth.table.ts';
import { notes } from '../notes/notes.table.ts';
import { providers } from '../providers/providers.table.ts';
import { type AppError, badUserInput, fieldError, forbidden, notFound, parseInput } from '../errors.ts';
import { createAccount, createProviderRecord } from './accounts.ts';
import {
  findActiveAdministratorIds,
  findUserByEmail,
  findUserById,
  findUserListRows,
  isUserLocked,
  listUsersPage,
  setUserActive,
  setUserRole,
  type UserCursor,
  type UserListRow,
  type UserRow,
} from './users.repository.ts';
import { findInvitablePatients, linkPatientAccount, lockPatientAccountLink } from '../patients/patients.repository.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Serialises every change that could remove an administrator (decision 033): demotion and deactivation. */
const ADMINISTRATORS_LOCK = sql`SELECT pg_advisory_xact_lock(hashtext('users:administrators'))`;

/** A patient record an invitation may be linked to (no account yet). */
export interface InvitablePatient {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  dateOfBirth: string;
}

/** A refusal decided inside a transaction: rolled back, then recorded (USER_CHANGE_REFUSED) and thrown. */
class Refusal extends Error {
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
 * Users (`/admin/users`, issue 16, decision 033): every account for administrators, and what they may do to one:
 * invite, change a role, deactivate and reactivate, send a password reset, reset two-factor, unlock. Every call
 * asks the access checkpoint for `user:manage`; every change is audited in its own transaction. An administrator
 * cannot remove themselves, and the last active administrator cannot be removed.
 */
export class AdminUsersService {
  readonly #db: Database;
  readonly #invitations: InvitationsService;
  readonly #passwordReset: PasswordResetService;
  readonly #twoFactor: TwoFactorService;
  readonly #authService: AuthService;
  readonly #cursors: CursorCodec<UserCursor>;

  constructor(options: {
    db: Database;
    secret: string;
    invitations: InvitationsService;
    passwordReset: PasswordResetService;
    twoFactor: TwoFactorService;
    authService: AuthService;
  }) {
    this.#db = options.db;
    this.#invitations = options.invitations;
    this.#passwordReset = options.passwordReset;
    this.#twoFactor = options.twoFactor;
    this.#authService = options.authService;
    this.#cursors = new CursorCodec<UserCursor>(`${options.secret}:admin-users`, 4);
  }

  /** A page of accounts in name order with the filters; the page's accounts are recorded (USER_LIST_VIEW). */
  async list(
    caller: Caller,
    args: {
      search?: string | null;
      role?: string | null;
      status?: string | null;
      locked?: boolean | null;
      twoFactor?: boolean | null;
      limit?: number | null;
      nextToken?: string | null;
    },
  ): Promise<{ items: UserListRow[]; nextToken: string | null }> {
    await authorize(this.#db, caller, 'user:manage');
    const parsed = parseInput(UserListFilterSchema, {
      search: args.search ?? null,
      role: args.role || null,
      status: args.status || null,
      locked: args.locked ?? null,
      twoFactor: args.twoFactor ?? null,
    });
    const filters = {
      search: parsed.search,
      role: parsed.role ?? null,
      status: parsed.status ?? null,
      locked: parsed.locked ?? null,
      twoFactor: parsed.twoFactor ?? null,
    };
    const filterKey = JSON.stringify(filters);
    const limit = Math.min(Math.max(args.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#cursors.decode(args.nextToken) : null;
    // A token belongs to the list it came from; with other filters it would skip or repeat accounts.
    if (after && after[3] !== filterKey) throw badUserInput('patientMessages.invalidToken');
    return this.#db.transaction(async (tx) => {
      const page = await listUsersPage(tx, { filters, after, limit, filterKey });
      await appendAuditEntry(tx, {
        event: 'USER_LIST_VIEW',
        level: 'INFO',
        actor: caller.actor,
        url: caller.operation,
        details: {
          accountIds: page.rows.map((row) => row.id),
          page: after ? 'next' : 'first',
          // Which filters, not the search text (it may be a name).
          filters: { ...filters, search: filters.search !== null },
        },
      });
      return { items: page.rows, nextToken: page.next ? this.#cursors.encode(page.next) : null };
    });
  }

  /** Patient records without an account, by name or e-mail, for inviting a patient (a PATIENT_VIEW of those shown). */
  async invitablePatients(caller: Caller, search: string | null | undefined): Promise<InvitablePatient[]> {
    await authorize(this.#db, caller, 'user:manage');
    await authorize(this.#db, caller, 'patient:read');
    const { search: term } = parseInput(UserListFilterSchema, { search: search ?? null });
    if (!term) return [];
    const pattern = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.#db.transaction(async (tx) => {
      const rows = await findInvitablePatients(tx, pattern, INVITABLE_PATIENTS_LIMIT);
      if (rows.length > 0) {
        await appendAuditEntry(tx, {
          event: 'PATIENT_VIEW',
          level: 'INFO',
          actor: caller.actor,
          url: caller.operation,
          details: { patientIds: rows.map((row) => row.id), purpose: 'invite an account' },
        });
      }
      return rows;
    });
  }

  /**
   * Invites a person: an account of the chosen role without a password (a provider with their directory record,
   * a patient linked to their existing record) and a single-use link to set one (the account-setup flow).
   */
  async invite(caller: Caller, input: unknown): Promise<UserListRow> {
    await authorize(this.#db, caller, 'user:manage');
    const data = parseInput(InviteUserInputSchema, input);
    const accountId = await this.#run(caller, { role: data.role }, async (tx) => {
      if (await findUserByEmail(tx, data.email)) throw fieldError('email', 'userMessages.emailTaken');
      const by = { actor: caller.actor, url: caller.operation, details: { invitedBy: caller.user.id } };
      let id: string;
      let patientId: string | null = null;
      if (data.role === 'patient') {
        const record = await lockPatientAccountLink(tx, data.patientId);
        if (!record) throw fieldError('patientId', 'userMessages.patientNotFound');
        if (record.accountId) throw fieldError('patientId', 'userMessages.patientHasAccount');
        ({ id } = await createAccount(
          tx,
          {
            email: data.email,
            firstName: record.firstName,
            lastName: record.lastName,
            role: 'patient',
            language: data.language,
          },
          by,
        ));
        await linkPatientAccount(tx, record.id, id);
        patientId = record.id;
      } else if (data.role === 'provider') {
        const { email, firstName, lastName, language, specialty } = data;
        ({ id } = await createAccount(
          tx,
          { email, firstName, lastName, language, role: 'provider', provider: { specialty } },
          by,
        ));
      } else {
        const { email, firstName, lastName, language } = data;
        ({ id } = await createAccount(tx, { email, firstName, lastName, language, role: 'admin' }, by));
      }
      const invitation = await this.#invitations.issue(tx, {
        userId: id,
        email: data.email,
        language: data.language,
        reason: 'added',
        accessRequestId: null,
        actor: caller.actor,
        url: caller.operation,
      });
      await this.#audit(tx, caller, 'USER_INVITED', 'INFO', {
        accountId: id,
        role: data.role,
        invitationId: invitation.invitationId,
        ...(patientId ? { patientIds: [patientId] } : {}),
      });
      return id;
    });
    return this.#row(accountId);
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
    if (accountId === caller.user.id) await this.#refuse(caller, accountId, 'userMessages.selfRole', 'own role');
    await this.#run(caller, { accountId }, async (tx) => {
      await tx.execute(ADMINISTRATORS_LOCK);
      await this.#requireActiveAdministrator(tx, caller);
      const account = await this.#target(tx, accountId);
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
      const ended = await endAccountSessions(tx, account.id, 'ACCOUNT_DISABLED');
      await this.#audit(tx, caller, 'USER_ROLE_CHANGED', 'WARNING', {
        accountId: account.id,
        from,
        to: data.role,
        providerRecord,
        sessionsEnded: ended.length,
      });
    });
    await this.#authService.discardChallengesOf(accountId);
    return this.#row(accountId);
  }

  /**
   * Deactivates an account: it cannot sign in, and every session of it ends at once (open live channels close on
   * the session-ended notice). Open invitation and reset links stop working; a provider leaves the directory.
   */
  async deactivate(caller: Caller, accountId: string): Promise<UserListRow> {
    await authorize(this.#db, caller, 'user:manage', { details: { accountId } });
    if (accountId === caller.user.id) {
      await this.#refuse(caller, accountId, 'userMessages.selfDeactivate', 'own account');
    }
    await this.#run(caller, { accountId }, async (tx) => {
      await tx.execute(ADMINISTRATORS_LOCK);
      await this.#requireActiveAdministrator(tx, caller);
      const account = await this.#target(tx, accountId);
      if (!account.isActive) throw badUserInput('userMessages.alreadyDeactivated');
      if (account.role === 'admin') await this.#requireAnotherAdministrator(tx, account);
      await setUserActive(tx, account.id, false);
      await tx.update(providers).set({ isActive: false, updatedAt: new Date() }).where(eq(providers.id, account.id));
      const revoked =
        (await revokeAccountTokens(tx, account.id, 'invitation')) +
        (await revokeAccountTokens(tx, account.id, 'password_reset'));
      const ended = await endAccountSessions(tx, account.id, 'ACCOUNT_DISABLED');
      await this.#audit(tx, caller, 'USER_DEACTIVATED', 'WARNING', {
        accountId: account.id,
        role: account.role,
        sessionsEnded: ended.length,
        linksRevoked: revoked,
      });
    });
    await this.#authService.discardChallengesOf(accountId);
    return this.#row(accountId);
  }

  /** Lets a deactivated account sign in again (a provider returns to the directory). */
  async reactivate(caller: Caller, accountId: string): Promise<UserListRow> {
    await authorize(this.#db, caller, 'user:manage', { details: { accountId } });
    await this.#run(caller, { accountId }, async (tx) => {
      const account = await this.#target(tx, accountId);
      if (account.isActive) throw badUserInput('userMessages.alreadyActive');
      await setUserActive(tx, account.id, true);
      await tx.update(providers).set({ isActive: true, updatedAt: new Date() }).where(eq(providers.id, account.id));
      await this.#audit(tx, caller, 'USER_REACTIVATED', 'INFO', { accountId: account.id, role: account.role });
    });
    return this.#row(accountId);
  }

  /** E-mails the account a password-reset code and link (the Forgot Password mail), valid 15 minutes. */
  async sendPasswordReset(caller: Caller, accountId: string): Promise<UserListRow> {
    await authorize(this.#db, caller, 'user:manage', { details: { accountId } });
    await this.#run(caller, { accountId }, async (tx) => {
      const account = await this.#target(tx, accountId);
      if (!account.isActive || !isRole(account.role)) throw badUserInput('userMessages.inactive');
      const resetId = await this.#passwordReset.issue(tx, account, account.language === 'es' ? 'es' : 'en');
      await this.#audit(tx, caller, 'USER_PASSWORD_RESET_SENT', 'INFO', { accountId: account.id, resetId });
    });
    return this.#row(accountId);
  }

  /** Turns off the account's two-factor (the two-factor service's reset, audited as TWO_FACTOR_RESET). */
  async resetTwoFactor(caller: Caller, accountId: string): Promise<UserListRow> {
    await authorize(this.#db, caller, 'user:manage', { details: { accountId } });
    if (!UUID.test(accountId)) throw notFound('userMessages.notFound');
    await this.#twoFactor.reset(caller, accountId);
    return this.#row(accountId);
  }

  /** Ends a lockout at once: the failed sign-ins of the window are forgotten, and two-factor's own lock too. */
  async unlock(caller: Caller, accountId: string): Promise<UserListRow> {
    await authorize(this.#db, caller, 'user:manage', { details: { accountId } });
    await this.#run(caller, { accountId }, async (tx) => {
      const account = await this.#target(tx, accountId);
      const wasLocked = await isUserLocked(tx, account.id);
      const cleared = await tx
        .delete(signInFailures)
        .where(eq(signInFailures.email, account.email))
        .returning({ id: signInFailures.id });
      await tx
        .update(twoFactors)
        .set({ failedVerificationCount: 0, lockedUntil: null })
        .where(eq(twoFactors.userId, account.id));
      await this.#audit(tx, caller, 'USER_UNLOCKED', 'INFO', {
        accountId: account.id,
        wasLocked,
        failuresCleared: cleared.length,
      });
    });
    return this.#row(accountId);
  }

  /** One account as the list shows it (after a change: the screen replaces its row). */
  async #row(accountId: string): Promise<UserListRow> {
    const [row] = await findUserListRows(this.#db, [accountId]);
    if (!row) throw notFound('userMessages.notFound');
    return row;
  }

  /** The account a change is about, locked for the transaction; answered like a missing one when it is not there. */
  async #target(tx: Executor, accountId: string): Promise<UserRow> {
    if (!UUID.test(accountId)) throw notFound('userMessages.notFound');
    const account = await findUserById(tx, accountId, { lock: true });
    if (!account) throw notFound('userMessages.notFound');
    return account;
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

  /**
   * Runs a change in a transaction. A Refusal thrown inside rolls it back and is recorded afterwards
   * (USER_CHANGE_REFUSED), so a refusal holds no second connection and leaves nothing half-written.
   */
  async #run<T>(caller: Caller, details: Record<string, unknown>, work: (tx: Executor) => Promise<T>): Promise<T> {
    try {
      return await this.#db.transaction((tx) => work(tx));
    } catch (error) {
      if (error instanceof Refusal) {
        await this.#recordRefusal(caller, details, error.reason);
        throw error.error;
      }
      if (postgresErrorOf(error)?.code === '23505' && 'role' in details) {
        // Two invitations of one address at once: the second meets the first's account.
        throw fieldError('email', 'userMessages.emailTaken');
      }
      throw error;
    }
  }

  async #refuse(caller: Caller, accountId: string, message: MessageId, reason: string): Promise<never> {
    await this.#recordRefusal(caller, { accountId }, reason);
    throw badUserInput(message);
  }

  #recordRefusal(caller: Caller, details: Record<string, unknown>, reason: string): Promise<void> {
    return appendAuditEntry(this.#db, {
      event: 'USER_CHANGE_REFUSED',
      level: 'WARNING',
      actor: caller.actor,
      url: caller.operation,
      details: { ...details, reason },
    });
  }

  #audit(
    tx: Executor,
    caller: Caller,
    event:
      | 'USER_INVITED'
      | 'USER_ROLE_CHANGED'
      | 'USER_DEACTIVATED'
      | 'USER_REACTIVATED'
      | 'USER_PASSWORD_RESET_SENT'
      | 'USER_UNLOCKED',
    level: 'INFO' | 'WARNING',
    details: Record<string, unknown>,
  ): Promise<void> {
    return appendAuditEntry(tx, { event, level, actor: caller.actor, url: caller.operation, details });
  }
}
