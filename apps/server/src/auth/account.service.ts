import { sql } from 'drizzle-orm';
import { ChangePasswordInputSchema, UpdateMyAccountInputSchema, type Locale } from '@telehealth/shared';
import { actorScope } from '../access/scope.ts';
import type { Database } from '../db/client.ts';
import { setLinkedPatientPhone } from '../patients/patient-accounts.repository.ts';
import { findMyAccountRow, updateUserFields, type AccountFieldsUpdate } from '../users/users.repository.ts';
import { badUserInput, parseInput } from '../errors.ts';
import { rateLimited } from '../rate-limit/rate-limiter.ts';
import { actorFor, type ActiveSession, type RequestMeta } from './auth.service.ts';
import type { Auth } from './auth.ts';
import { hashPassword, storePasswordHash, verifyPassword } from './passwords.ts';
import { endSessions } from './sessions.repository.ts';
import type { SignInLockout } from './sign-in-lockout.ts';

export interface MyAccount {
  email: string;
  firstName: string;
  lastName: string;
  role: string;
  language: Locale;
  /** The person chose the language in My account: the app follows it on every device after sign-in. */
  languageChosen: boolean;
  /** The phone of the patient's record (a patient changes it here); null for staff and a patient without one. */
  phone: string | null;
  hasPatientRecord: boolean;
  twoFactorEnabled: boolean;
  /** How many other sessions of the account are signed in now. */
  otherSessions: number;
}

/**
 * My account (issue 15, decision 031), for every role, always on the signed-in person's own account: name and
 * contact details (a patient's name, date of birth and e-mail go through the practice), the language the app and
 * the e-mails follow, the password (the current one checked like a sign-in), and signing out every other session.
 * Every change is audited.
 */
export class AccountService {
  readonly #db: Database;
  readonly #auth: Auth;
  readonly #lockout: SignInLockout;

  constructor(options: { db: Database; auth: Auth; lockout: SignInLockout }) {
    this.#db = options.db;
    this.#auth = options.auth;
    this.#lockout = options.lockout;
  }

  async myAccount(session: ActiveSession): Promise<MyAccount> {
    const row = await findMyAccountRow(this.#db, session.user.id, session.id);
    if (!row) throw new Error('the session has no account');
    return {
      email: row.email,
      firstName: row.firstName,
      lastName: row.lastName,
      role: row.role ?? session.user.role,
      language: row.language === 'es' ? 'es' : 'en',
      languageChosen: row.languageChosen,
      phone: row.phone,
      hasPatientRecord: row.patientId !== null,
      twoFactorEnabled: row.twoFactorEnabled,
      otherSessions: row.otherSessions,
    };
  }

  /**
   * Changes what the person may change themselves: the language (everyone), their name (staff; a patient's name is
   * the record's, corrected by the practice), their phone (a patient, on their record).
   */
  async updateMyAccount(session: ActiveSession, meta: RequestMeta, input: unknown): Promise<MyAccount> {
    const data = parseInput(UpdateMyAccountInputSchema, input);
    const isPatient = session.user.role === 'patient';
    const namesGiven = data.firstName != null || data.lastName != null;
    if (namesGiven && isPatient) throw badUserInput('portalRecordMessages.nameThroughPractice');
    if (namesGiven && (!data.firstName || !data.lastName)) throw badUserInput('portalRecordMessages.nameRequired');
    const scope = actorScope(actorFor(session, meta), meta.url);
    await this.#db.transaction(async (tx) => {
      const fields: string[] = [];
      const values: AccountFieldsUpdate = {};
      if (data.language) {
        values.language = data.language;
        values.languageChosen = true;
        fields.push('language');
      }
      if (namesGiven && data.firstName && data.lastName) {
        Object.assign(values, {
          firstName: data.firstName,
          lastName: data.lastName,
          name: `${data.firstName} ${data.lastName}`,
        });
        fields.push('name');
      }
      if (fields.length > 0) {
        await updateUserFields(tx, session.user.id, values);
      }
      if (data.phone !== undefined && data.phone !== null && isPatient) {
        const record = await setLinkedPatientPhone(tx, session.user.id, data.phone || null);
        if (record) {
          fields.push('phone');
          await scope.audit(tx, 'PATIENT_UPDATE', { patientIds: [record.id], fields: ['phone'], bySelf: true });
        }
      }
      if (fields.length > 0) {
        await scope.audit(tx, 'ACCOUNT_UPDATE', { accountId: session.user.id, fields });
      }
    });
    return this.myAccount(session);
  }

  /**
   * Changes the password: the current one is checked like a sign-in (a wrong one counts toward the lockout), the
   * new one must meet the policy. Every other session of the account ends (this one stays): whoever else held one
   * may have known the old password.
   */
  async changePassword(session: ActiveSession, meta: RequestMeta, input: unknown): Promise<{ sessionsEnded: number }> {
    const data = parseInput(ChangePasswordInputSchema, input);
    const { user } = session;
    const actor = actorFor(session, meta);
    const lockedFor = await this.#lockout.lockRemainingMs(user.email);
    if (lockedFor > 0) throw rateLimited(lockedFor, 'messages.accountLocked');
    if (!(await verifyPassword(this.#auth, this.#db, user.id, data.currentPassword))) {
      const message = await this.#lockout.recordFailure(user.email, meta, {
        reason: 'invalid current password',
        event: 'PASSWORD_CHANGE_FAILED',
        actor,
      });
      if (message.id !== 'messages.invalidCredentials') {
        throw rateLimited(await this.#lockout.lockRemainingMs(user.email), 'messages.accountLocked');
      }
      throw badUserInput('portalRecordMessages.wrongCurrentPassword');
    }
    const hash = await hashPassword(this.#auth, data.newPassword);
    return this.#db.transaction(async (tx) => {
      await storePasswordHash(tx, user.id, hash);
      const ended = await endSessions(
        tx,
        sql`s.user_id = ${user.id} AND s.id <> ${session.id}`,
        'SIGNED_OUT_ELSEWHERE',
      );
      await actorScope(actor, meta.url).audit(
        tx,
        'PASSWORD_CHANGED',
        { accountId: user.id, sessionsEnded: ended.length },
        { level: 'WARNING' },
      );
      return { sessionsEnded: ended.length };
    });
  }

  /** Ends every other session of the account at once (their live channels close too); this one stays. */
  async signOutEverywhereElse(session: ActiveSession, meta: RequestMeta): Promise<{ sessionsEnded: number }> {
    return this.#db.transaction(async (tx) => {
      const ended = await endSessions(
        tx,
        sql`s.user_id = ${session.user.id} AND s.id <> ${session.id}`,
        'SIGNED_OUT_ELSEWHERE',
      );
      await actorScope(actorFor(session, meta), meta.url).audit(tx, 'SESSIONS_ENDED_ELSEWHERE', {
        accountId: session.user.id,
        sessionsEnded: ended.length,
      });
      return { sessionsEnded: ended.length };
    });
  }
}
