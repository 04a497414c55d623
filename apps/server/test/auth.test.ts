import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, MESSAGES } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { sessions, signInFailures, users } from '../src/auth/auth.table.ts';
import { createTestAccount, createTestApp, TestClient, type TestApp } from './helpers.ts';

const SIGN_IN =
  'mutation SignIn($email: String!, $password: String!) { signIn(email: $email, password: $password) { success error nextStep user { userId email name role source } } }';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});

async function auditEventsFor(userId: string) {
  const rows = await t.runtime.database.db
    .select()
    .from(auditEntries)
    .where(eq(auditEntries.userId, userId))
    .orderBy(auditEntries.id);
  return rows.map((r) => r.event);
}

describe('signIn', () => {
  it('signs in, answers the contract shape and sets an httpOnly SameSite=Lax session cookie', async () => {
    const client = new TestClient(t.app);
    const response = await client.gql<{ signIn: unknown }>(SIGN_IN, {
      email: 'Provider@Demo.test ',
      password: DEMO_PASSWORD,
    });
    expect(response.data?.signIn).toEqual({
      success: true,
      error: null,
      nextStep: 'DONE',
      user: {
        userId: expect.any(String) as unknown,
        email: 'provider@demo.test',
        name: 'Maya Okafor',
        role: 'provider',
        source: 'server',
      },
    });
    const cookie = response.setCookies.find((c) => c.startsWith('telehealth.session_token='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).not.toMatch(/Secure/i);
    expect(await client.me()).toMatchObject({ email: 'provider@demo.test', role: 'provider' });
  });

  it('records ADMIN_LOGIN for administrators and LOGIN for others', async () => {
    const admin = new TestClient(t.app);
    const user = (await admin.signIn('admin@demo.test', DEMO_PASSWORD)).user!;
    expect(await auditEventsFor(user.userId)).toContain('ADMIN_LOGIN');
    const patient = new TestClient(t.app);
    const patientUser = (await patient.signIn('patient@demo.test', DEMO_PASSWORD)).user!;
    expect(await auditEventsFor(patientUser.userId)).toContain('LOGIN');
  });

  it('refuses a wrong password and an unknown email with the same message, and records FAILED_LOGIN', async () => {
    const client = new TestClient(t.app);
    const wrong = await client.signIn('provider2@demo.test', 'Wrong-password-1');
    const unknown = await client.signIn('nobody@demo.test', 'Wrong-password-1');
    expect(wrong).toEqual({ success: false, error: MESSAGES.invalidCredentials, nextStep: null, user: null });
    expect(unknown).toEqual(wrong);
    expect(client.cookie).toBeUndefined();
    const failed = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(sql`${auditEntries.event} = 'FAILED_LOGIN' AND ${auditEntries.details}->>'email' = 'nobody@demo.test'`);
    expect(failed).toHaveLength(1);
    expect(failed[0]?.level).toBe('WARNING');
    expect(JSON.stringify(failed[0]?.details)).not.toContain('Wrong-password-1');
  });

  it('answers a clear message for input that is not an email and a password', async () => {
    const client = new TestClient(t.app);
    const result = await client.signIn('not-an-email', '');
    expect(result.success).toBe(false);
    expect(result.error).toBe('Please enter a valid email address, Password is required');
  });

  it('locks an account after five failures in five minutes, refusing even the right password', async () => {
    const email = 'locked@demo.test';
    await createTestAccount(t.runtime, {
      email,
      firstName: 'Lee',
      lastName: 'Locked',
      role: 'provider',
      password: DEMO_PASSWORD,
    });
    const client = new TestClient(t.app);
    for (let i = 1; i <= 4; i++) {
      expect((await client.signIn(email, `Wrong-${i}-Password!`)).error).toBe(MESSAGES.invalidCredentials);
    }
    const fifth = await client.signIn(email, 'Wrong-5-Password!');
    expect(fifth.error).toMatch(/^Too many failed sign-in attempts\. .*try again in 5 minutes\.$/);
    const right = await client.signIn(email, DEMO_PASSWORD);
    expect(right.success).toBe(false);
    expect(right.error).toMatch(/locked/);
    expect(client.cookie).toBeUndefined();
    const [account] = await t.runtime.database.db.select().from(users).where(eq(users.email, email));
    expect(await auditEventsFor(account!.id)).toContain('ACCOUNT_LOCKED');

    // Once the window has passed (failures older than five minutes), the right password works again.
    await t.runtime.database.db
      .update(signInFailures)
      .set({ failedAt: sql`now() - interval '6 minutes'` })
      .where(eq(signInFailures.email, email));
    expect((await client.signIn(email, DEMO_PASSWORD)).success).toBe(true);
  });

  it('gives nothing to an inactive account or one without a role', async () => {
    const db = t.runtime.database.db;
    await createTestAccount(t.runtime, {
      email: 'inactive@demo.test',
      firstName: 'In',
      lastName: 'Active',
      role: 'patient',
      password: DEMO_PASSWORD,
    });
    await db.update(users).set({ isActive: false }).where(eq(users.email, 'inactive@demo.test'));
    const client = new TestClient(t.app);
    expect(await client.signIn('inactive@demo.test', DEMO_PASSWORD)).toMatchObject({
      success: false,
      error: MESSAGES.accountDisabled,
    });

    await createTestAccount(t.runtime, {
      email: 'norole@demo.test',
      firstName: 'No',
      lastName: 'Role',
      role: 'patient',
      password: DEMO_PASSWORD,
    });
    await db.update(users).set({ role: null }).where(eq(users.email, 'norole@demo.test'));
    expect(await client.signIn('norole@demo.test', DEMO_PASSWORD)).toMatchObject({
      success: false,
      error: MESSAGES.accountDisabled,
    });
    expect(client.cookie).toBeUndefined();
    const leftover = await db
      .select()
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(users.email, 'norole@demo.test'));
    expect(leftover).toHaveLength(0);
  });

  it('ends a live session when its account is deactivated', async () => {
    const db = t.runtime.database.db;
    await createTestAccount(t.runtime, {
      email: 'leaver@demo.test',
      firstName: 'Lea',
      lastName: 'Ver',
      role: 'provider',
      password: DEMO_PASSWORD,
    });
    const client = new TestClient(t.app);
    await client.signIn('leaver@demo.test', DEMO_PASSWORD);
    expect(await client.me()).not.toBeNull();
    await db.update(users).set({ isActive: false }).where(eq(users.email, 'leaver@demo.test'));
    expect(await client.me()).toBeNull();
  });
});

describe('signOut', () => {
  it('revokes the session on the server, so the old cookie no longer works', async () => {
    const client = new TestClient(t.app);
    const user = (await client.signIn('provider@demo.test', DEMO_PASSWORD)).user!;
    const oldCookie = client.cookie;
    const response = await client.gql<{ signOut: boolean }>('mutation SignOut { signOut }');
    expect(response.data).toEqual({ signOut: true });
    expect(response.setCookies.some((c) => /telehealth\.session_token=;.*Max-Age=0/i.test(c))).toBe(true);
    client.cookie = oldCookie; // a copy kept by an attacker or another tab
    expect(await client.me()).toBeNull();
    expect(await auditEventsFor(user.userId)).toContain('LOGOUT');
  });
});

describe('authentication checkpoint', () => {
  it('refuses any other operation without a session with the contract message and code', async () => {
    const client = new TestClient(t.app);
    const response = await client.gql('query Schema { __schema { queryType { name } } }');
    expect(response.data).toBeNull();
    expect(response.errors).toEqual([
      {
        message: 'Authentication required. Please sign in.',
        extensions: { code: 'UNAUTHENTICATED', messageId: 'messages.authRequired', params: {} },
      },
    ]);
  });

  it('refuses a forged cookie', async () => {
    const client = new TestClient(t.app);
    await client.signIn('provider@demo.test', DEMO_PASSWORD);
    const [name, value] = client.cookie!.split('=') as [string, string];
    const token = decodeURIComponent(value).split('.')[0];
    client.cookie = `${name}=${encodeURIComponent(`${token}.${Buffer.from('forged-signature-forged-signature').toString('base64')}`)}`;
    expect(await client.me()).toBeNull();
  });

  it('answers public operations without a session', async () => {
    const client = new TestClient(t.app);
    const response = await client.gql<{ me: null; appConfig: { demoMode: boolean; demoAccounts: unknown[] } }>(
      '{ me { userId } appConfig { demoMode sessionIdleMinutes demoAccounts { email role label } } }',
    );
    expect(response.data?.me).toBeNull();
    expect(response.data?.appConfig.demoMode).toBe(true);
    expect(response.data?.appConfig.demoAccounts).toHaveLength(4);
  });

  it('refuses GraphQL over GET and bodies that are not JSON', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/graphql?query=%7Bme%7BuserId%7D%7D' });
    expect(response.statusCode).toBe(405);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const posted = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': type },
        payload: '{"query":"{ me { userId } }"}',
      });
      expect(posted.statusCode).toBe(415);
    }
  });
});

describe('demo sign-in', () => {
  it('signs in as a demo account in demo mode and replaces the current session', async () => {
    const client = new TestClient(t.app);
    await client.signIn('patient@demo.test', DEMO_PASSWORD);
    const patientCookie = client.cookie;
    const response = await client.gql<{ demoSignIn: { success: boolean; user: { role: string } } }>(
      'mutation Demo($email: String!) { demoSignIn(email: $email) { success user { role } } }',
      { email: 'admin@demo.test' },
    );
    expect(response.data?.demoSignIn).toEqual({ success: true, user: { role: 'admin' } });
    expect((await client.me())?.role).toBe('admin');
    client.cookie = patientCookie;
    expect(await client.me()).toBeNull();
  });

  it('does nothing outside demo mode', async () => {
    const off = await createTestApp({ DEMO_MODE: 'false' });
    const client = new TestClient(off.app);
    const response = await client.gql<{ demoSignIn: { success: boolean; error: string } }>(
      'mutation Demo($email: String!) { demoSignIn(email: $email) { success error } }',
      { email: 'admin@demo.test' },
    );
    expect(response.data?.demoSignIn).toEqual({ success: false, error: MESSAGES.demoModeOff });
    expect(client.cookie).toBeUndefined();
  });
});
