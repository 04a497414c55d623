import { randomBytes } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { Secret, TOTP, URI } from 'otpauth';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  LIVE_CLOSE_CODES,
  MESSAGES,
  RECOVERY_CODE_COUNT,
  SIGN_IN_LOCKOUT,
  TWO_FACTOR_MESSAGES,
  type Role,
} from '@telehealth/shared';
import { ConfigError, loadConfig } from '../src/config.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { sessions, twoFactors, users, verifications } from '../src/auth/auth.table.ts';
import { createTestAccount, createTestApp, TestClient, type TestApp } from './helpers.ts';
import { liveUrl, openLiveOrFail } from './live-helpers.ts';

const PASSWORD = 'Two-Factor-2026!';

const CONFIRM_SIGN_IN =
  'mutation($r: String!) { confirmSignIn(challengeResponse: $r) { success error nextStep user { userId email role } } }';
const START_SETUP = 'mutation { startTotpSetup { secret otpauthUri } }';
const CONFIRM_SETUP = 'mutation($c: String!) { confirmTotpSetup(code: $c) { recoveryCodes user { email role } } }';
const STATUS = '{ twoFactorStatus { enabled recoveryCodesRemaining } }';
const DISABLE =
  'mutation($c: String!, $p: String!) { disableTwoFactor(code: $c, password: $p) { enabled recoveryCodesRemaining } }';
const RESET = 'mutation($id: ID!) { resetTwoFactor(accountId: $id) }';
const SIGN_OUT = 'mutation { signOut }';
const LIST_PATIENTS = '{ listPatients { items { id } } }';

interface SignInResult {
  success: boolean;
  error: string | null;
  nextStep: string | null;
  user: { userId: string; email: string; role: string } | null;
}

/**
 * What an authenticator app does with the secret it was given: RFC 6238 by an independent implementation
 * (otpauth), `step` periods from now. Successive sign-ins use different steps, since a code is accepted once.
 */
function codeFor(secret: string, step = 0): string {
  const totp = new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' });
  return totp.generate({ timestamp: Date.now() + step * 30_000 });
}

/** A code that no step near now produces. */
function wrongCodeFor(secret: string): string {
  const near = new Set([-1, 0, 1].map((step) => codeFor(secret, step)));
  for (let n = 0; ; n++) {
    const code = String(n).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

async function newAccount(app: TestApp, role: Role = 'patient'): Promise<{ id: string; email: string }> {
  const email = `tf-${randomBytes(5).toString('hex')}@example.test`;
  const id = await createTestAccount(app.runtime, {
    email,
    firstName: 'Toni',
    lastName: 'Factor',
    role,
    password: PASSWORD,
  });
  return { id, email };
}

async function eventsOf(app: TestApp, userId: string): Promise<{ event: string; details: Record<string, unknown> }[]> {
  const rows = await app.runtime.database.db
    .select({ event: auditEntries.event, details: auditEntries.details })
    .from(auditEntries)
    .where(eq(auditEntries.userId, userId))
    .orderBy(auditEntries.id);
  return rows.map((row) => ({ event: row.event, details: row.details as Record<string, unknown> }));
}

async function confirmSignIn(client: TestClient, response: string): Promise<SignInResult> {
  const answer = await client.gql<{ confirmSignIn: SignInResult }>(CONFIRM_SIGN_IN, { r: response });
  if (!answer.data) throw new Error(JSON.stringify(answer.errors));
  return answer.data.confirmSignIn;
}

/** Enrols a signed-in client: answers the secret (as shown to the person) and the recovery codes. */
async function enrol(client: TestClient): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await client.gql<{ startTotpSetup: { secret: string; otpauthUri: string } }>(START_SETUP);
  const secret = setup.data!.startTotpSetup.secret;
  const confirmed = await client.gql<{ confirmTotpSetup: { recoveryCodes: string[] } }>(CONFIRM_SETUP, {
    c: codeFor(secret),
  });
  expect(confirmed.errors).toBeUndefined();
  return { secret, recoveryCodes: confirmed.data!.confirmTotpSetup.recoveryCodes };
}

async function enrolledAccount(
  app: TestApp,
): Promise<{ id: string; email: string; secret: string; recoveryCodes: string[] }> {
  const account = await newAccount(app);
  const client = new TestClient(app.app);
  expect((await client.signIn(account.email, PASSWORD)).success).toBe(true);
  const enrolment = await enrol(client);
  await client.gql(SIGN_OUT);
  return { ...account, ...enrolment };
}

async function sessionCount(app: TestApp, userId: string): Promise<number> {
  const rows = await app.runtime.database.db.select().from(sessions).where(eq(sessions.userId, userId));
  return rows.length;
}

describe('enrolment from the account menu', () => {
  it('gives a key for the app, turns two-factor on with a code from it and answers ten recovery codes once', async () => {
    const account = await newAccount(t, 'provider');
    const client = new TestClient(t.app);
    await client.signIn(account.email, PASSWORD);
    expect((await client.gql(STATUS)).data).toEqual({ twoFactorStatus: { enabled: false, recoveryCodesRemaining: 0 } });

    const setup = await client.gql<{ startTotpSetup: { secret: string; otpauthUri: string } }>(START_SETUP);
    const { secret, otpauthUri } = setup.data!.startTotpSetup;
    expect(secret).toMatch(/^[A-Z2-7]+$/);
    // The QR code's URI carries the same key, the practice as issuer and the account's e-mail as its label.
    const parsed = URI.parse(otpauthUri) as TOTP;
    expect(parsed.secret.base32).toBe(secret);
    expect(parsed.issuer).toBe('Meridian Precision Psychiatry');
    expect(parsed.label).toBe(account.email);
    expect(parsed).toMatchObject({ digits: 6, period: 30, algorithm: 'SHA1' });

    const wrong = await client.gql(CONFIRM_SETUP, { c: wrongCodeFor(secret) });
    expect(wrong.errors?.[0]).toMatchObject({
      message: TWO_FACTOR_MESSAGES.invalidCode,
      extensions: { code: 'BAD_USER_INPUT' },
    });
    expect((await client.gql(STATUS)).data).toEqual({ twoFactorStatus: { enabled: false, recoveryCodesRemaining: 0 } });

    const confirmed = await client.gql<{ confirmTotpSetup: { recoveryCodes: string[]; user: unknown } }>(
      CONFIRM_SETUP,
      { c: codeFor(secret) },
    );
    const codes = confirmed.data!.confirmTotpSetup.recoveryCodes;
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    expect(confirmed.data!.confirmTotpSetup.user).toBeNull();
    expect((await client.gql(STATUS)).data).toEqual({ twoFactorStatus: { enabled: true, recoveryCodesRemaining: 10 } });
    // The session goes on: enrolling is not a sign-in.
    expect(await client.me()).toMatchObject({ email: account.email });

    // Neither the key nor the recovery codes are in the database as such.
    const [row] = await t.runtime.database.db.select().from(twoFactors).where(eq(twoFactors.userId, account.id));
    expect(row?.verified).toBe(true);
    expect(row?.secret).not.toContain(secret);
    for (const code of codes) expect(row?.backupCodes).not.toContain(code);
    const [user] = await t.runtime.database.db.select().from(users).where(eq(users.id, account.id));
    expect(user?.twoFactorEnabled).toBe(true);

    // A second set-up is refused while it is on.
    expect((await client.gql(START_SETUP)).errors?.[0]?.message).toBe(TWO_FACTOR_MESSAGES.alreadyEnabled);

    const events = (await eventsOf(t, account.id)).map((e) => e.event);
    expect(events).toEqual(
      expect.arrayContaining(['TWO_FACTOR_SETUP_STARTED', 'TWO_FACTOR_SETUP_FAILED', 'TWO_FACTOR_ENABLED']),
    );
  });

  it('refuses the set-up to a caller without a session or a set-up challenge', async () => {
    const client = new TestClient(t.app);
    expect((await client.gql(START_SETUP)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await client.gql(CONFIRM_SETUP, { c: '123456' })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect((await client.gql(STATUS)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });
});

describe('signing in with two-factor', () => {
  it('asks for the code without creating a session, then signs in with a code from the app', async () => {
    const account = await enrolledAccount(t);
    const before = await sessionCount(t, account.id);
    const client = new TestClient(t.app);

    const first = await client.signIn(account.email, PASSWORD);
    expect(first).toEqual({
      success: false,
      user: null,
      error: MESSAGES.additionalStepsRequired,
      nextStep: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE',
    });
    expect(client.cookie).toBeUndefined();
    expect(await sessionCount(t, account.id)).toBe(before);
    expect(await client.me()).toBeNull();
    expect((await client.gql(LIST_PATIENTS)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    // The challenge is an httpOnly cookie naming a server-side row bound to the account.
    const challengeCookie = [...client.otherCookies.keys()].find((name) => name.endsWith('two_factor'));
    expect(challengeCookie).toBe('telehealth.two_factor');

    const wrong = await confirmSignIn(client, wrongCodeFor(account.secret));
    expect(wrong).toEqual({
      success: false,
      user: null,
      error: TWO_FACTOR_MESSAGES.invalidCode,
      nextStep: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE',
    });
    expect(client.cookie).toBeUndefined();

    const spentChallenge = client.otherCookies.get('telehealth.two_factor') ?? '';
    // Spaces as some apps show the code do not matter; the set-up's code was step 0, this is the next one.
    const code = codeFor(account.secret, 1);
    const done = await confirmSignIn(client, `${code.slice(0, 3)} ${code.slice(3)}`);
    expect(done).toMatchObject({ success: true, error: null, nextStep: 'DONE', user: { email: account.email } });
    expect(client.cookie).toMatch(/^telehealth\.session_token=/);
    expect(client.otherCookies.has('telehealth.two_factor')).toBe(false);
    expect(await client.me()).toMatchObject({ email: account.email });

    const events = await eventsOf(t, account.id);
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['TWO_FACTOR_CHALLENGE', 'FAILED_LOGIN', 'LOGIN']),
    );
    expect(events.find((e) => e.event === 'FAILED_LOGIN')?.details).toMatchObject({
      reason: 'invalid two-factor code',
    });
    expect(events.findLast((e) => e.event === 'LOGIN')?.details).toMatchObject({ secondFactor: 'totp' });

    // The challenge is spent: it does not sign in a second time.
    const again = new TestClient(t.app);
    again.otherCookies.set('telehealth.two_factor', spentChallenge);
    expect((await confirmSignIn(again, codeFor(account.secret, 1))).success).toBe(false);
  });

  it('accepts a code only once', async () => {
    const account = await enrolledAccount(t);
    const code = codeFor(account.secret, 1);
    const client = new TestClient(t.app);
    await client.signIn(account.email, PASSWORD);
    expect((await confirmSignIn(client, code)).success).toBe(true);
    await client.gql(SIGN_OUT);

    // Someone who saw the code (and knows the password) cannot use it again while it is still valid.
    const other = new TestClient(t.app);
    await other.signIn(account.email, PASSWORD);
    expect(await confirmSignIn(other, code)).toMatchObject({
      success: false,
      error: TWO_FACTOR_MESSAGES.invalidCode,
    });
  });

  it('accepts each recovery code once', async () => {
    const account = await enrolledAccount(t);
    const [recovery] = account.recoveryCodes;
    const client = new TestClient(t.app);
    await client.signIn(account.email, PASSWORD);
    // Copied from paper: capitals, a space instead of the hyphen.
    const done = await confirmSignIn(client, recovery!.toUpperCase().replace('-', ' '));
    expect(done).toMatchObject({ success: true, nextStep: 'DONE' });
    expect((await client.gql(STATUS)).data).toEqual({ twoFactorStatus: { enabled: true, recoveryCodesRemaining: 9 } });
    await client.gql(SIGN_OUT);

    const again = new TestClient(t.app);
    await again.signIn(account.email, PASSWORD);
    expect(await confirmSignIn(again, recovery!)).toMatchObject({
      success: false,
      error: TWO_FACTOR_MESSAGES.invalidCode,
      nextStep: 'CONFIRM_SIGN_IN_WITH_TOTP_CODE',
    });
    // Another one still works.
    expect((await confirmSignIn(again, account.recoveryCodes[1]!)).success).toBe(true);

    const events = await eventsOf(t, account.id);
    const used = events.filter((e) => e.event === 'RECOVERY_CODE_USED');
    expect(used.map((e) => e.details['recoveryCodesRemaining'])).toEqual([9, 8]);
    expect(events.filter((e) => e.event === 'LOGIN').map((e) => e.details['secondFactor'])).toContain('recovery code');
  });

  it('counts wrong codes toward the lockout, which then refuses even the right code', async () => {
    const account = await enrolledAccount(t);
    const client = new TestClient(t.app);
    await client.signIn(account.email, PASSWORD);
    const wrong = wrongCodeFor(account.secret);
    for (let i = 1; i < SIGN_IN_LOCKOUT.maxAttempts; i++) {
      expect((await confirmSignIn(client, wrong)).error).toBe(TWO_FACTOR_MESSAGES.invalidCode);
    }
    const last = await confirmSignIn(client, wrong);
    expect(last.error).toMatch(/^Too many failed sign-in attempts\./);
    expect(last.nextStep).toBeNull();

    expect((await confirmSignIn(client, codeFor(account.secret, 1))).error).toMatch(/locked/);
    expect(client.cookie).toBeUndefined();
    // The password does not open the lock either.
    const fresh = new TestClient(t.app);
    expect((await fresh.signIn(account.email, PASSWORD)).error).toMatch(/locked/);

    const events = (await eventsOf(t, account.id)).map((e) => e.event);
    expect(events.filter((e) => e === 'FAILED_LOGIN').length).toBeGreaterThanOrEqual(SIGN_IN_LOCKOUT.maxAttempts);
    expect(events).toContain('ACCOUNT_LOCKED');
  });

  it('does not forget earlier failures when the password is right but the code is still owed', async () => {
    const account = await enrolledAccount(t);
    const client = new TestClient(t.app);
    for (let i = 1; i < SIGN_IN_LOCKOUT.maxAttempts; i++) await client.signIn(account.email, `Wrong-${i}-Password!`);
    expect((await client.signIn(account.email, PASSWORD)).nextStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    expect((await confirmSignIn(client, wrongCodeFor(account.secret))).error).toMatch(/locked/);
  });

  it('answers an expired, missing or forged challenge with "sign in again"', async () => {
    const account = await enrolledAccount(t);
    const none = new TestClient(t.app);
    expect(await confirmSignIn(none, codeFor(account.secret, 1))).toEqual({
      success: false,
      user: null,
      error: TWO_FACTOR_MESSAGES.challengeExpired,
      nextStep: null,
    });

    const forged = new TestClient(t.app);
    forged.otherCookies.set('telehealth.two_factor', encodeURIComponent(`2fa-made-up.${'A'.repeat(43)}=`));
    expect((await confirmSignIn(forged, codeFor(account.secret, 1))).error).toBe(TWO_FACTOR_MESSAGES.challengeExpired);

    const client = new TestClient(t.app);
    await client.signIn(account.email, PASSWORD);
    await t.runtime.database.db
      .update(verifications)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(and(eq(verifications.value, account.id), sql`${verifications.identifier} LIKE '2fa-%'`));
    expect(await confirmSignIn(client, codeFor(account.secret, 1))).toMatchObject({
      success: false,
      error: TWO_FACTOR_MESSAGES.challengeExpired,
      nextStep: null,
    });
  });
});

describe('turning two-factor off', () => {
  it('needs the password and a current code; wrong ones count toward the lockout', async () => {
    const account = await enrolledAccount(t);
    const client = new TestClient(t.app);
    await client.signIn(account.email, PASSWORD);
    await confirmSignIn(client, codeFor(account.secret, 1));

    const wrongPassword = await client.gql(DISABLE, { c: codeFor(account.secret), p: 'Not-The-Password-1!' });
    expect(wrongPassword.errors?.[0]?.message).toBe(TWO_FACTOR_MESSAGES.invalidPasswordOrCode);
    const wrongCode = await client.gql(DISABLE, { c: wrongCodeFor(account.secret), p: PASSWORD });
    expect(wrongCode.errors?.[0]?.message).toBe(TWO_FACTOR_MESSAGES.invalidPasswordOrCode);
    expect((await client.gql(STATUS)).data).toEqual({ twoFactorStatus: { enabled: true, recoveryCodesRemaining: 10 } });

    const off = await client.gql(DISABLE, { c: codeFor(account.secret), p: PASSWORD });
    expect(off.data).toEqual({ disableTwoFactor: { enabled: false, recoveryCodesRemaining: 0 } });
    await client.gql(SIGN_OUT);
    expect((await new TestClient(t.app).signIn(account.email, PASSWORD)).nextStep).toBe('DONE');

    const events = (await eventsOf(t, account.id)).map((e) => e.event);
    expect(events.filter((e) => e === 'TWO_FACTOR_DISABLE_FAILED')).toHaveLength(2);
    expect(events).toContain('TWO_FACTOR_DISABLED');
  });
});

describe('an administrator resetting another account', () => {
  it('turns its two-factor off, audited; anyone else is refused and recorded', async () => {
    const account = await enrolledAccount(t);
    const provider = new TestClient(t.app);
    const providerUser = (await provider.signIn('provider@demo.test', DEMO_PASSWORD)).user!;
    const refused = await provider.gql(RESET, { id: account.id });
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect((await eventsOf(t, providerUser.userId)).map((e) => e.event)).toContain('UNAUTHORIZED_ACCESS');
    expect((await new TestClient(t.app).signIn(account.email, PASSWORD)).nextStep).toBe(
      'CONFIRM_SIGN_IN_WITH_TOTP_CODE',
    );

    const admin = new TestClient(t.app);
    const adminUser = (await admin.signIn('admin@demo.test', DEMO_PASSWORD)).user!;
    expect((await admin.gql(RESET, { id: account.id })).data).toEqual({ resetTwoFactor: true });
    const reset = (await eventsOf(t, adminUser.userId)).find((e) => e.event === 'TWO_FACTOR_RESET');
    expect(reset?.details).toMatchObject({ accountId: account.id, wasEnabled: true });
    expect((await new TestClient(t.app).signIn(account.email, PASSWORD)).nextStep).toBe('DONE');

    expect((await admin.gql(RESET, { id: '00000000-0000-4000-8000-000000000000' })).errors?.[0]?.extensions?.code).toBe(
      'NOT_FOUND',
    );
  });
});

describe('MFA_REQUIRED_ROLES', () => {
  let required: TestApp;
  beforeAll(async () => {
    required = await createTestApp({ MFA_REQUIRED_ROLES: 'admin, provider' });
  });

  it('lets an account of such a role without two-factor do nothing but set it up, then signs it in', async () => {
    const client = new TestClient(required.app);
    const first = await client.signIn('provider@demo.test', DEMO_PASSWORD);
    expect(first).toEqual({
      success: false,
      user: null,
      error: MESSAGES.additionalStepsRequired,
      nextStep: 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP',
    });
    expect(client.cookie).toBeUndefined();
    expect(await client.me()).toBeNull();
    for (const operation of [LIST_PATIENTS, STATUS]) {
      expect((await client.gql(operation)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    }
    expect((await client.gql(DISABLE, { c: '123456', p: DEMO_PASSWORD })).errors?.[0]?.extensions?.code).toBe(
      'UNAUTHENTICATED',
    );
    expect((await client.gql(RESET, { id: crypto.randomUUID() })).errors?.[0]?.extensions?.code).toBe(
      'UNAUTHENTICATED',
    );

    const setup = await client.gql<{ startTotpSetup: { secret: string } }>(START_SETUP);
    const secret = setup.data!.startTotpSetup.secret;
    const wrong = await client.gql(CONFIRM_SETUP, { c: wrongCodeFor(secret) });
    expect(wrong.errors?.[0]?.message).toBe(TWO_FACTOR_MESSAGES.invalidCode);
    expect(client.cookie).toBeUndefined();

    const confirmed = await client.gql<{
      confirmTotpSetup: { recoveryCodes: string[]; user: { email: string; role: string } | null };
    }>(CONFIRM_SETUP, { c: codeFor(secret) });
    expect(confirmed.data?.confirmTotpSetup.recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(confirmed.data?.confirmTotpSetup.user).toEqual({ email: 'provider@demo.test', role: 'provider' });
    expect(client.cookie).toMatch(/^telehealth\.session_token=/);
    expect(client.otherCookies.has('telehealth.two_factor_setup')).toBe(false);
    expect(await client.me()).toMatchObject({ email: 'provider@demo.test' });
    expect((await client.gql(LIST_PATIENTS)).errors).toBeUndefined();

    const [provider] = await required.runtime.database.db
      .select()
      .from(users)
      .where(eq(users.email, 'provider@demo.test'));
    const events = await eventsOf(required, provider!.id);
    expect(events.map((e) => e.event)).toEqual(
      expect.arrayContaining(['TWO_FACTOR_CHALLENGE', 'TWO_FACTOR_SETUP_FAILED', 'TWO_FACTOR_ENABLED', 'LOGIN']),
    );
    expect(events.findLast((e) => e.event === 'LOGIN')?.details).toMatchObject({ secondFactor: 'totp set-up' });

    // It cannot be turned off while the role requires it; the next sign-in asks for a code.
    expect((await client.gql(DISABLE, { c: codeFor(secret, 1), p: DEMO_PASSWORD })).errors?.[0]?.message).toBe(
      TWO_FACTOR_MESSAGES.requiredForRole,
    );
    await client.gql(SIGN_OUT);
    expect((await client.signIn('provider@demo.test', DEMO_PASSWORD)).nextStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
  });

  it('applies to demo sign-in like any other, and not to other roles', async () => {
    const demo = await new TestClient(required.app).gql<{ demoSignIn: SignInResult }>(
      'mutation { demoSignIn(email: "admin@demo.test") { success nextStep error user { email } } }',
    );
    expect(demo.data?.demoSignIn).toMatchObject({ success: false, nextStep: 'CONTINUE_SIGN_IN_WITH_TOTP_SETUP' });
    expect((await new TestClient(required.app).signIn('patient@demo.test', DEMO_PASSWORD)).nextStep).toBe('DONE');
  });

  it('ends the set-up challenge at sign-out', async () => {
    const client = new TestClient(required.app);
    expect((await client.signIn('provider2@demo.test', DEMO_PASSWORD)).nextStep).toBe(
      'CONTINUE_SIGN_IN_WITH_TOTP_SETUP',
    );
    const kept = new Map(client.otherCookies);
    await client.gql(SIGN_OUT);
    expect(client.otherCookies.size).toBe(0);
    expect((await client.gql(START_SETUP)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    // A copy of the cookie kept from before is worth nothing either: the row is gone.
    for (const [name, value] of kept) client.otherCookies.set(name, value);
    expect((await client.gql(START_SETUP)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it("made required for a role by an administrator, ends that role's open sessions without two-factor, on every instance", async () => {
    // Two instances on one database: the administrator changes the setting on one, the providers use the other.
    const changing = await createTestApp();
    const other = await createTestApp({}, { databaseUrl: changing.databaseUrl });
    const admin = new TestClient(changing.app);
    expect((await admin.signIn('admin@demo.test', DEMO_PASSWORD)).success).toBe(true);
    const without = await newAccount(other, 'provider');
    const withoutClient = new TestClient(other.app);
    expect((await withoutClient.signIn(without.email, PASSWORD)).success).toBe(true);
    const enrolled = await newAccount(other, 'provider');
    const enrolledClient = new TestClient(other.app);
    expect((await enrolledClient.signIn(enrolled.email, PASSWORD)).success).toBe(true);
    const { secret } = await enrol(enrolledClient);
    await enrolledClient.gql(SIGN_OUT);
    expect((await enrolledClient.signIn(enrolled.email, PASSWORD)).nextStep).toBe('CONFIRM_SIGN_IN_WITH_TOTP_CODE');
    expect((await confirmSignIn(enrolledClient, codeFor(secret, 1))).success).toBe(true);
    expect((await enrolledClient.gql(LIST_PATIENTS)).errors).toBeUndefined();
    const socket = await openLiveOrFail(await liveUrl(other.app), {
      cookie: withoutClient.cookie,
      origin: other.runtime.config.publicUrl,
    });
    await socket.next('hello');

    const changed = await admin.gql(
      'mutation($input: UpdatePracticeSettingsInput!) { updatePracticeSettings(input: $input) { values { twoFactorRequiredRoles } } }',
      { input: { twoFactorRequiredRoles: ['provider'] } },
    );
    expect(changed.errors).toBeUndefined();

    expect((await withoutClient.gql(LIST_PATIENTS)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    expect(await socket.closed).toEqual({ code: LIVE_CLOSE_CODES.sessionEnded, reason: 'TWO_FACTOR_REQUIRED' });
    expect(await sessionCount(other, without.id)).toBe(0);
    expect((await withoutClient.signIn(without.email, PASSWORD)).nextStep).toBe('CONTINUE_SIGN_IN_WITH_TOTP_SETUP');
    // The enrolled provider, the patients and the administrator (not bound by the rule) keep their sessions.
    expect((await enrolledClient.gql(LIST_PATIENTS)).errors).toBeUndefined();
    expect(await admin.me()).toMatchObject({ email: 'admin@demo.test' });

    const [adminRow] = await changing.runtime.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, 'admin@demo.test'));
    const revoked = await changing.runtime.database.db
      .select({ userId: auditEntries.userId, details: auditEntries.details })
      .from(auditEntries)
      .where(eq(auditEntries.event, 'SESSION_REVOKED'));
    expect(revoked).toEqual([
      {
        userId: adminRow!.id,
        details: expect.objectContaining({
          reason: 'two-factor required for the role',
          accountId: without.id,
          role: 'provider',
        }) as unknown,
      },
    ]);
  });

  it("reset to a default that requires it for a role, ends that role's sessions without two-factor too", async () => {
    const app = await createTestApp({ MFA_REQUIRED_ROLES: 'provider' });
    const admin = new TestClient(app.app);
    expect((await admin.signIn('admin@demo.test', DEMO_PASSWORD)).success).toBe(true);
    const update = await admin.gql(
      'mutation($input: UpdatePracticeSettingsInput!) { updatePracticeSettings(input: $input) { values { twoFactorRequiredRoles } } }',
      { input: { twoFactorRequiredRoles: [] } },
    );
    expect(update.errors).toBeUndefined();
    const provider = await newAccount(app, 'provider');
    const client = new TestClient(app.app);
    expect((await client.signIn(provider.email, PASSWORD)).success).toBe(true);
    expect((await client.gql(LIST_PATIENTS)).errors).toBeUndefined();

    const reset = await admin.gql(
      'mutation { resetPracticeSetting(key: "twoFactorRequiredRoles") { values { twoFactorRequiredRoles } } }',
    );
    expect(reset.errors).toBeUndefined();
    expect((await client.gql(LIST_PATIENTS)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const revoked = await app.runtime.database.db
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(eq(auditEntries.event, 'SESSION_REVOKED'));
    expect(revoked.map((r) => (r.details as { accountId: string }).accountId)).toEqual([provider.id]);
  });

  it('is a validated list of roles, empty by default', () => {
    expect(loadConfig({}).settings.current().twoFactorRequiredRoles).toEqual([]);
    expect(
      loadConfig({ MFA_REQUIRED_ROLES: 'Admin, provider,admin' }).settings.current().twoFactorRequiredRoles,
    ).toEqual(['admin', 'provider']);
    expect(() => loadConfig({ MFA_REQUIRED_ROLES: 'admin,doctor' })).toThrow(ConfigError);
    expect(() => loadConfig({ MFA_REQUIRED_ROLES: 'admin,doctor' })).toThrow(/MFA_REQUIRED_ROLES: not a role: doctor/);
  });
});
