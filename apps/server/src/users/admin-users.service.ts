import { eq } from 'drizzle-orm';
import {
  INVITABLE_PATIENTS_LIMIT,
  InviteUserInputSchema,
  isRole,
  MAX_PAGE_SIZE,
  PAGE_SIZE,
  UserListFilterSchema,
} from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf } from '../access/scope.ts';
import type { InvitationsService } from '../auth/invitations.service.ts';
import type { PasswordResetService } from '../auth/password-reset.service.ts';
import type { TwoFactorService } from '../auth/two-factor.service.ts';
import { signInFailures, twoFactors } from '../auth/auth.table.ts';
import { CursorCodec } from '../db/cursor.ts';
import type { Database } from '../db/client.ts';
import { badUserInput, fieldError, notFound, parseInput } from '../errors.ts';
import {
  findInvitablePatients,
  linkPatientAccount,
  lockPatientAccountLink,
} from '../patients/patient-accounts.repository.ts';
import { createAccount } from './accounts.ts';
import { isAccountId, lockedAccount, runUserChange, userListRow } from './user-changes.ts';
import { findUserByEmail, isUserLocked, listUsersPage, type UserCursor, type UserListRow } from './users.repository.ts';
import { containsPattern } from '../db/like.ts';

/** A patient record an invitation may be linked to (no account yet). */
export interface InvitablePatient {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  dateOfBirth: string;
}

/**
 * Users (`/admin/users`, issue 16, decision 033): every account for administrators, inviting a person, and the
 * help an account may need: a password reset, a two-factor reset, an unlock. An account's role and whether it may
 * sign in are user-access.service.ts's. Every call asks the access checkpoint for `user:manage`; every change is
 * audited in its own transaction.
 */
export class AdminUsersService {
  readonly #db: Database;
  readonly #invitations: InvitationsService;
  readonly #passwordReset: PasswordResetService;
  readonly #twoFactor: TwoFactorService;
  readonly #cursors: CursorCodec<UserCursor>;

  constructor(options: {
    db: Database;
    secret: string;
    invitations: InvitationsService;
    passwordReset: PasswordResetService;
    twoFactor: TwoFactorService;
  }) {
    this.#db = options.db;
    this.#invitations = options.invitations;
    this.#passwordReset = options.passwordReset;
    this.#twoFactor = options.twoFactor;
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
      await scopeOf(this.#db, caller).audit(tx, 'USER_LIST_VIEW', {
        accountIds: page.rows.map((row) => row.id),
        page: after ? 'next' : 'first',
        // Which filters, not the search text (it may be a name).
        filters: { ...filters, search: filters.search !== null },
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
    const pattern = containsPattern(term);
    return this.#db.transaction(async (tx) => {
      const rows = await findInvitablePatients(tx, pattern, INVITABLE_PATIENTS_LIMIT);
      if (rows.length > 0) {
        await scopeOf(this.#db, caller).audit(tx, 'PATIENT_VIEW', {
          patientIds: rows.map((row) => row.id),
          purpose: 'invite an account',
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
    const accountId = await runUserChange(this.#db, caller, { role: data.role }, async (tx) => {
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
      await scopeOf(this.#db, caller).audit(tx, 'USER_INVITED', {
        accountId: id,
        role: data.role,
        invitationId: invitation.invitationId,
        ...(patientId ? { patientIds: [patientId] } : {}),
      });
      return id;
    });
    return userListRow(this.#db, accountId);
  }

  /** E-mails the account a password-reset code and link (the Forgot Password mail), valid 15 minutes. */
  async sendPasswordReset(caller: Caller, accountId: string): Promise<UserListRow> {
    await authorize(this.#db, caller, 'user:manage', { details: { accountId } });
    await runUserChange(this.#db, caller, { accountId }, async (tx) => {
      const account = await lockedAccount(tx, accountId);
      if (!account.isActive || !isRole(account.role)) throw badUserInput('userMessages.inactive');
      const resetId = await this.#passwordReset.issue(tx, account, account.language === 'es' ? 'es' : 'en');
      await scopeOf(this.#db, caller).audit(tx, 'USER_PASSWORD_RESET_SENT', { accountId: account.id, resetId });
    });
    return userListRow(this.#db, accountId);
  }

  /** Turns off the account's two-factor (the two-factor service's reset, audited as TWO_FACTOR_RESET). */
  async resetTwoFactor(caller: Caller, accountId: string): Promise<UserListRow> {
    await authorize(this.#db, caller, 'user:manage', { details: { accountId } });
    if (!isAccountId(accountId)) throw notFound('userMessages.notFound');
    await this.#twoFactor.reset(caller, accountId);
    return userListRow(this.#db, accountId);
  }

  /** Ends a lockout at once: the failed sign-ins of the window are forgotten, and two-factor's own lock too. */
  async unlock(caller: Caller, accountId: string): Promise<UserListRow> {
    await authorize(this.#db, caller, 'user:manage', { details: { accountId } });
    await runUserChange(this.#db, caller, { accountId }, async (tx) => {
      const account = await lockedAccount(tx, accountId);
      const wasLocked = await isUserLocked(tx, account.id);
      const cleared = await tx
        .delete(signInFailures)
        .where(eq(signInFailures.email, account.email))
        .returning({ id: signInFailures.id });
      await tx
        .update(twoFactors)
        .set({ failedVerificationCount: 0, lockedUntil: null })
        .where(eq(twoFactors.userId, account.id));
      await scopeOf(this.#db, caller).audit(tx, 'USER_UNLOCKED', {
        accountId: account.id,
        wasLocked,
        failuresCleared: cleared.length,
      });
    });
    return userListRow(this.#db, accountId);
  }
}
