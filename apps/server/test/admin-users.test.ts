import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, LIVE_CLOSE_CODES, MESSAGES, USER_MESSAGES } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { sessions, users } from '../src/auth/auth.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { providers } from '../src/providers/providers.table.ts';
import { createAccount, signIn } from './factories/accounts.ts';
import { createTestApp, TestClient, type TestApp } from './helpers.ts';
import { liveUrl, openLiveOrFail } from './live-helpers.ts';
import { linkToken } from './mail-helpers.ts';

const USER =
  'id firstName lastName email role isActive twoFactorEnabled locked invitationPending lastSignInAt patientId';
const LIST = `query ($search: String, $role: String, $status: String, $locked: Boolean, $twoFactor: Boolean, $limit: Int, $nextToken: String) {
  adminUsers(search: $search, role: $role, status: $status, locked: $locked, twoFactor: $twoFactor, limit: $limit, nextToken: $nextToken) { items { ${USER} } nextToken } }`;
const INVITE = `mutation ($input: InviteUserInput!) { inviteUser(input: $input) { ${USER} } }`;
const CHANGE_ROLE = `mutation ($id: ID!, $role: String!, $specialty: String) { changeUserRole(accountId: $id, role: $role, specialty: $specialty) { ${USER} } }`;
const DEACTIVATE = `mutation ($id: ID!) { deactivateUser(accountId: $id) { ${USER} } }`;
const REACTIVATE = `mutation ($id: ID!) { reactivateUser(accountId: $id) { ${USER} } }`;
const RESET_PASSWORD = `mutation ($id: ID!) { sendUserPasswordReset(accountId: $id) { ${USER} } }`;
const RESET_TWO_FACTOR = `mutation ($id: ID!) { resetUserTwoFactor(accountId: $id) { ${USER} } }`;
const UNLOCK = `mutation ($id: ID!) { unlockUser(accountId: $id) { ${USER} } }`;
const INVITABLE = 'query ($search: String) { invitablePatients(search: $search) { id firstName lastName email } }';
const ACCEPT =
  'mutation ($token: String!, $password: String!) { acceptInvitation(token: $token, password: $password) { success email } }';

interface AdminUser {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  role: string;
  isActive: boolean;
  twoFactorEnabled: boolean;
  locked: boolean;
  invitationPending: boolean;
  lastSignInAt: string | null;
  patientId: string | null;
}

const PASSWORD = 'Users-Screen-Pass-1!';
let t: TestApp;
let admin: TestClient;
let adminId: string;
let provider: TestClient;
let patient: TestClient;
let counter = 0;

const uniqueEmail = (name: string) => `${name}.${++counter}.${Math.random().toString(36).slice(2, 8)}@clinic.example`;

/** A new account of the role (Robin Vale unless `names` say), with this file's password. */
const newAccount = (role: 'admin' | 'provider' | 'patient', names: { firstName?: string; lastName?: string } = {}) =>
  createAccount(t, role, {
    email: uniqueEmail(role),
    firstName: 'Robin',
    lastName: 'Vale',
    ...names,
    password: PASSWORD,
  });

/** A client signed in as `email`. */
const signedIn = async (email: string, password = PASSWORD) => (await signIn(t, email, password)).client;

async function auditFor(event: string, accountId: string) {
  return t.runtime.database.db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.event, event), sql`${auditEntries.details}->>'accountId' = ${accountId}`))
    .orderBy(auditEntries.id);
}

async function ok<T>(client: TestClient, query: string, variables: Record<string, unknown>): Promise<T> {
  const response = await client.gql<T>(query, variables);
  if (!response.data || response.errors) throw new Error(JSON.stringify(response.errors));
  return response.data;
}

async function newPatientRecord(firstName: string, lastName: string): Promise<{ id: string; email: string }> {
  const email = uniqueEmail(firstName.toLowerCase());
  const data = await ok<{ createPatient: { id: string } }>(
    provider,
    'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
    { input: { firstName, lastName, email, dateOfBirth: '1988-03-04' } },
  );
  return { id: data.createPatient.id, email };
}

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app);
  adminId = (await admin.signIn('admin@demo.test', DEMO_PASSWORD)).user!.userId;
  provider = await signedIn('provider@demo.test', DEMO_PASSWORD);
  patient = await signedIn('patient@demo.test', DEMO_PASSWORD);
});

describe('only administrators reach the Users operations', () => {
  const operations: [string, string, () => Record<string, unknown>][] = [
    ['adminUsers', LIST, () => ({})],
    ['invitablePatients', INVITABLE, () => ({ search: 'an' })],
    [
      'inviteUser',
      INVITE,
      () => ({ input: { role: 'admin', email: uniqueEmail('x'), firstName: 'Al', lastName: 'Bo' } }),
    ],
    ['changeUserRole', CHANGE_ROLE, () => ({ id: adminId, role: 'provider', specialty: 'Psychiatry' })],
    ['deactivateUser', DEACTIVATE, () => ({ id: adminId })],
    ['reactivateUser', REACTIVATE, () => ({ id: adminId })],
    ['sendUserPasswordReset', RESET_PASSWORD, () => ({ id: adminId })],
    ['resetUserTwoFactor', RESET_TWO_FACTOR, () => ({ id: adminId })],
    ['unlockUser', UNLOCK, () => ({ id: adminId })],
  ];

  it.each(operations)(
    '%s: provider and patient FORBIDDEN, signed-out UNAUTHENTICATED, nothing changed',
    async (name, query, vars) => {
      const before = await t.runtime.database.db.select().from(users).where(eq(users.id, adminId));
      for (const [client, code] of [
        [provider, 'FORBIDDEN'],
        [patient, 'FORBIDDEN'],
        [new TestClient(t.app), 'UNAUTHENTICATED'],
      ] as const) {
        const response = await client.gql(query, vars());
        expect(response.data?.[name as never] ?? null).toBeNull();
        expect(response.errors?.[0]?.extensions?.code).toBe(code);
      }
      const denied = await t.runtime.database.db
        .select({ url: auditEntries.url, role: auditEntries.userRole })
        .from(auditEntries)
        .where(and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), eq(auditEntries.url, name)));
      expect(denied.map((d) => d.role).sort()).toEqual(expect.arrayContaining(['patient', 'provider']));
      expect(await t.runtime.database.db.select().from(users).where(eq(users.id, adminId))).toEqual(before);
    },
  );

  it('an administrator reaches the list', async () => {
    const data = await ok<{ adminUsers: { items: AdminUser[] } }>(admin, LIST, { search: 'demo.test' });
    expect(data.adminUsers.items.map((u) => u.email)).toEqual(expect.arrayContaining(['admin@demo.test']));
  });
});

describe('inviting', () => {
  it('a provider: account without a password, provider record, single-use link; then a sign-in', async () => {
    const email = uniqueEmail('nia');
    const { inviteUser: invited } = await ok<{ inviteUser: AdminUser }>(admin, INVITE, {
      input: { role: 'provider', email, firstName: 'Nia', lastName: 'Okafor', specialty: 'Psychology' },
    });
    expect(invited).toMatchObject({ role: 'provider', isActive: true, invitationPending: true, lastSignInAt: null });
    expect(await t.runtime.database.db.select().from(providers).where(eq(providers.id, invited.id))).toHaveLength(1);

    const [mail] = await t.runtime.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, email))
      .orderBy(desc(mailOutbox.createdAt));
    expect(mail?.kind).toBe('invitation');
    const token = linkToken(mail!.textBody!, '/invite');
    const visitor = new TestClient(t.app);
    expect(
      (await visitor.gql<{ acceptInvitation: { success: boolean } }>(ACCEPT, { token, password: PASSWORD })).data,
    ).toEqual({ acceptInvitation: { success: true, email } });
    const again = await visitor.gql(ACCEPT, { token, password: 'Other-Pass-2026!' });
    expect(again.errors?.[0]?.extensions).toMatchObject({ reason: 'used' });
    const person = await signedIn(email);
    expect((await person.me())?.role).toBe('provider');

    const [audited] = await auditFor('USER_INVITED', invited.id);
    expect(audited).toMatchObject({ userId: adminId, url: 'inviteUser', level: 'INFO' });
    expect(audited?.details).toMatchObject({ role: 'provider' });
    expect(JSON.stringify(audited?.details)).not.toContain(email);
    expect(await auditFor('INVITATION_SENT', invited.id)).toHaveLength(1);

    const listed = await ok<{ adminUsers: { items: AdminUser[] } }>(admin, LIST, { search: email });
    expect(listed.adminUsers.items).toHaveLength(1);
    expect(listed.adminUsers.items[0]).toMatchObject({ invitationPending: false });
    expect(listed.adminUsers.items[0]?.lastSignInAt).not.toBeNull();
  });

  it('an administrator, and refuses an address that has an account', async () => {
    const email = uniqueEmail('ada');
    const { inviteUser } = await ok<{ inviteUser: AdminUser }>(admin, INVITE, {
      input: { role: 'admin', email, firstName: 'Ada', lastName: 'Quinn', language: 'es' },
    });
    expect(inviteUser.role).toBe('admin');
    const [mail] = await t.runtime.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
    expect(mail?.language).toBe('es');
    const twice = await admin.gql(INVITE, {
      input: {
        role: 'provider',
        email: email.toUpperCase(),
        firstName: 'Ada',
        lastName: 'Quinn',
        specialty: 'Psychiatry',
      },
    });
    expect(twice.errors?.[0]).toMatchObject({
      message: USER_MESSAGES.emailTaken,
      extensions: { code: 'BAD_USER_INPUT', fieldErrors: { email: USER_MESSAGES.emailTaken } },
    });
  });

  it('a patient linked to an existing record, once; bad input changes nothing', async () => {
    const record = await newPatientRecord('Linnea', 'Invitable');
    const found = await ok<{ invitablePatients: { id: string }[] }>(admin, INVITABLE, { search: 'invitable' });
    expect(found.invitablePatients.map((p) => p.id)).toContain(record.id);
    const viewed = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'PATIENT_VIEW'), eq(auditEntries.url, 'invitablePatients')));
    expect((viewed.at(-1)?.details as { patientIds?: string[] } | undefined)?.patientIds).toContain(record.id);

    const { inviteUser } = await ok<{ inviteUser: AdminUser }>(admin, INVITE, {
      input: { role: 'patient', email: record.email, patientId: record.id },
    });
    expect(inviteUser).toMatchObject({
      role: 'patient',
      firstName: 'Linnea',
      lastName: 'Invitable',
      patientId: record.id,
    });
    const [linked] = await t.runtime.database.db.select().from(patients).where(eq(patients.id, record.id));
    expect(linked?.accountId).toBe(inviteUser.id);
    const after = await ok<{ invitablePatients: { id: string }[] }>(admin, INVITABLE, { search: 'invitable' });
    expect(after.invitablePatients.map((p) => p.id)).not.toContain(record.id);

    const countBefore = (await t.runtime.database.db.select().from(users)).length;
    const again = await admin.gql(INVITE, {
      input: { role: 'patient', email: uniqueEmail('p'), patientId: record.id },
    });
    expect(again.errors?.[0]?.message).toBe(USER_MESSAGES.patientHasAccount);
    const bad = await admin.gql(INVITE, { input: { role: 'provider', email: 'not-an-address', firstName: 'A' } });
    expect(bad.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect((await t.runtime.database.db.select().from(users)).length).toBe(countBefore);
  });
});

describe('deactivation and reactivation', () => {
  it('ends every session of the account at once, its open live channel too; it cannot sign in; reactivation lets it', async () => {
    const { id, email } = await newAccount('provider');
    const first = await signedIn(email);
    const second = await signedIn(email);
    const socket = await openLiveOrFail(await liveUrl(t.app), {
      cookie: first.cookie,
      origin: t.runtime.config.publicUrl,
    });
    await socket.next('hello');

    const { deactivateUser } = await ok<{ deactivateUser: AdminUser }>(admin, DEACTIVATE, { id });
    expect(deactivateUser.isActive).toBe(false);
    expect(await socket.closed).toEqual({ code: LIVE_CLOSE_CODES.sessionEnded, reason: 'ACCOUNT_DISABLED' });
    expect(await t.runtime.database.db.select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
    expect(await first.me()).toBeNull();
    expect(await second.me()).toBeNull();
    const refused = await new TestClient(t.app).signIn(email, PASSWORD);
    expect(refused).toMatchObject({ success: false, error: MESSAGES.accountDisabled });
    const [provider] = await t.runtime.database.db.select().from(providers).where(eq(providers.id, id));
    expect(provider?.isActive).toBe(false);
    const [entry] = await auditFor('USER_DEACTIVATED', id);
    expect(entry).toMatchObject({ level: 'WARNING', userId: adminId });
    expect(entry?.details).toMatchObject({ sessionsEnded: 2, role: 'provider' });

    const twice = await admin.gql(DEACTIVATE, { id });
    expect(twice.errors?.[0]?.message).toBe(USER_MESSAGES.alreadyDeactivated);

    const { reactivateUser } = await ok<{ reactivateUser: AdminUser }>(admin, REACTIVATE, { id });
    expect(reactivateUser.isActive).toBe(true);
    await signedIn(email);
    expect(await auditFor('USER_REACTIVATED', id)).toHaveLength(1);
  });

  it('refuses to deactivate or demote oneself, and records the refusal', async () => {
    const self = await admin.gql(DEACTIVATE, { id: adminId });
    expect(self.errors?.[0]).toMatchObject({ message: USER_MESSAGES.selfDeactivate });
    const demote = await admin.gql(CHANGE_ROLE, { id: adminId, role: 'provider', specialty: 'Psychiatry' });
    expect(demote.errors?.[0]).toMatchObject({ message: USER_MESSAGES.selfRole });
    const [row] = await t.runtime.database.db.select().from(users).where(eq(users.id, adminId));
    expect(row).toMatchObject({ role: 'admin', isActive: true });
    expect((await auditFor('USER_CHANGE_REFUSED', adminId)).map((e) => e.details)).toEqual(
      expect.arrayContaining([expect.objectContaining({ reason: 'own account' })]),
    );
  });

  it('never leaves the practice without an active administrator: two administrators removing each other at once', async () => {
    const a = await newAccount('admin');
    const b = await newAccount('admin');
    const clientA = await signedIn(a.email);
    const clientB = await signedIn(b.email);
    const results = await Promise.all([
      clientA.gql(DEACTIVATE, { id: b.id }),
      clientB.gql(CHANGE_ROLE, { id: a.id, role: 'provider', specialty: 'Psychiatry' }),
    ]);
    // The second to take the administrators' lock is no longer an administrator: refused, nothing changed.
    // Which refusal depends on timing: demoted, it is FORBIDDEN; deactivated, its sessions end with it, so a
    // request that had not been signed in by then is UNAUTHENTICATED.
    expect(results.filter((r) => !r.errors)).toHaveLength(1);
    expect(['FORBIDDEN', 'UNAUTHENTICATED']).toContain(results.find((r) => r.errors)?.errors?.[0]?.extensions?.code);
    const active = await t.runtime.database.db
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.role, 'admin'), eq(users.isActive, true), sql`${users.id} IN (${a.id}, ${b.id})`));
    expect(active).toHaveLength(1);
  });
});

describe('changing a role', () => {
  it('a provider without patients becomes an administrator (the provider record goes) and back (a new one)', async () => {
    const { id, email } = await newAccount('provider');
    const person = await signedIn(email);
    const { changeUserRole } = await ok<{ changeUserRole: AdminUser }>(admin, CHANGE_ROLE, { id, role: 'admin' });
    expect(changeUserRole.role).toBe('admin');
    expect(await t.runtime.database.db.select().from(providers).where(eq(providers.id, id))).toEqual([]);
    expect(await person.me()).toBeNull();
    expect((await (await signedIn(email)).me())?.role).toBe('admin');
    const [entry] = await auditFor('USER_ROLE_CHANGED', id);
    expect(entry?.details).toMatchObject({
      from: 'provider',
      to: 'admin',
      providerRecord: 'removed',
      sessionsEnded: 1,
    });

    const noSpecialty = await admin.gql(CHANGE_ROLE, { id, role: 'provider' });
    expect(noSpecialty.errors?.[0]?.message).toBe(USER_MESSAGES.specialtyRequired);
    await ok(admin, CHANGE_ROLE, { id, role: 'provider', specialty: 'Psychiatry' });
    const [record] = await t.runtime.database.db.select().from(providers).where(eq(providers.id, id));
    expect(record).toMatchObject({ specialty: 'Psychiatry', isActive: true });
  });

  it('refuses a provider who has patients, and any change of a patient account', async () => {
    const { id, email } = await newAccount('provider');
    const owner = await signedIn(email);
    await ok(owner, 'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }', {
      input: { firstName: 'Owned', lastName: 'Patient', email: uniqueEmail('owned'), dateOfBirth: '1970-01-01' },
    });
    const refused = await admin.gql(CHANGE_ROLE, { id, role: 'admin' });
    expect(refused.errors?.[0]?.message).toBe(USER_MESSAGES.providerHasRecords);
    const [row] = await t.runtime.database.db.select().from(users).where(eq(users.id, id));
    expect(row?.role).toBe('provider');
    expect(await t.runtime.database.db.select().from(providers).where(eq(providers.id, id))).toHaveLength(1);

    const patientAccount = await newAccount('patient');
    const fixed = await admin.gql(CHANGE_ROLE, { id: patientAccount.id, role: 'admin' });
    expect(fixed.errors?.[0]?.message).toBe(USER_MESSAGES.patientRoleFixed);
    const toPatient = await admin.gql(CHANGE_ROLE, { id, role: 'patient' });
    expect(toPatient.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
  });
});

describe('password reset, two-factor reset, unlock', () => {
  it('queues a password-reset mail for the account', async () => {
    const { id, email } = await newAccount('patient');
    await ok(admin, RESET_PASSWORD, { id });
    const [mail] = await t.runtime.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
    expect(mail?.kind).toBe('password-reset');
    expect(linkToken(mail!.textBody!, '/reset-password')).toBeTruthy();
    const [entry] = await auditFor('USER_PASSWORD_RESET_SENT', id);
    expect(entry?.details).toMatchObject({ accountId: id });
    expect(typeof (entry?.details as { resetId?: unknown } | undefined)?.resetId).toBe('string');
  });

  it('turns two-factor off', async () => {
    const { id } = await newAccount('provider');
    await t.runtime.database.db.update(users).set({ twoFactorEnabled: true }).where(eq(users.id, id));
    const on = await ok<{ adminUsers: { items: AdminUser[] } }>(admin, LIST, { twoFactor: true, limit: 100 });
    expect(on.adminUsers.items.map((u) => u.id)).toContain(id);
    const { resetUserTwoFactor } = await ok<{ resetUserTwoFactor: AdminUser }>(admin, RESET_TWO_FACTOR, { id });
    expect(resetUserTwoFactor.twoFactorEnabled).toBe(false);
    expect(await auditFor('TWO_FACTOR_RESET', id)).toHaveLength(1);
  });

  it('unlocks a locked account at once', async () => {
    const { id, email } = await newAccount('patient', { lastName: 'Lockwood' });
    const guesser = new TestClient(t.app);
    for (let i = 0; i < 5; i++) await guesser.signIn(email, 'Wrong-Password-1!');
    expect((await guesser.signIn(email, PASSWORD)).success).toBe(false);
    const locked = await ok<{ adminUsers: { items: AdminUser[] } }>(admin, LIST, { search: 'lockwood', locked: true });
    expect(locked.adminUsers.items.map((u) => u.id)).toEqual([id]);

    const { unlockUser } = await ok<{ unlockUser: AdminUser }>(admin, UNLOCK, { id });
    expect(unlockUser.locked).toBe(false);
    await signedIn(email);
    const [entry] = await auditFor('USER_UNLOCKED', id);
    expect(entry?.details).toMatchObject({ wasLocked: true, failuresCleared: 5 });
  });
});

describe('the list pages on the server', () => {
  it('keyset pages in name order with search, role and status filters; a token belongs to its filters', async () => {
    const names = ['Aaberg', 'Baptiste', 'Castellanos', 'Dimitrova', 'Eriksen', 'Fujimoto', 'Gallagher'];
    const ids: string[] = [];
    for (const [i, name] of names.entries()) {
      ids.push((await newAccount(i % 2 ? 'patient' : 'provider', { firstName: 'Pagetest', lastName: name })).id);
    }
    const seen: AdminUser[] = [];
    let nextToken: string | null = null;
    let pages = 0;
    do {
      const data: { adminUsers: { items: AdminUser[]; nextToken: string | null } } = await ok(admin, LIST, {
        search: 'pagetest',
        limit: 3,
        nextToken,
      });
      seen.push(...data.adminUsers.items);
      nextToken = data.adminUsers.nextToken;
      pages++;
    } while (nextToken);
    expect(pages).toBe(3);
    expect(seen.map((u) => u.lastName)).toEqual(names);

    const providersOnly = await ok<{ adminUsers: { items: AdminUser[] } }>(admin, LIST, {
      search: 'pagetest',
      role: 'provider',
    });
    expect(providersOnly.adminUsers.items.map((u) => u.lastName)).toEqual([
      'Aaberg',
      'Castellanos',
      'Eriksen',
      'Gallagher',
    ]);

    await ok(admin, DEACTIVATE, { id: ids[1] });
    const deactivated = await ok<{ adminUsers: { items: AdminUser[] } }>(admin, LIST, {
      search: 'pagetest',
      status: 'deactivated',
    });
    expect(deactivated.adminUsers.items.map((u) => u.lastName)).toEqual(['Baptiste']);

    const first = await ok<{ adminUsers: { nextToken: string } }>(admin, LIST, { search: 'pagetest', limit: 2 });
    const mixed = await admin.gql(LIST, {
      search: 'pagetest',
      role: 'patient',
      limit: 2,
      nextToken: first.adminUsers.nextToken,
    });
    expect(mixed.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const badRole = await admin.gql(LIST, { role: 'superuser' });
    expect(badRole.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');

    const views = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.event, 'USER_LIST_VIEW'),
          eq(auditEntries.userId, adminId),
          sql`${auditEntries.details}->'filters'->>'status' = 'deactivated'`,
        ),
      );
    expect(views.at(-1)?.details).toMatchObject({ accountIds: [ids[1]], filters: { search: true } });
    expect(JSON.stringify(views.map((v) => v.details))).not.toContain('agetest');
  });
});
