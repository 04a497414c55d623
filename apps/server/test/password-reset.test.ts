import { desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD_RESET_MESSAGES } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { accountTokens } from '../src/auth/account-tokens.table.ts';
import { sessions, users } from '../src/auth/auth.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { createTestAccount, createTestApp, TestClient, type TestApp } from './helpers.ts';
import { gqlFrom, linkToken, resetCode } from './mail-helpers.ts';

const REQUEST =
  'mutation ($email: String!, $locale: String) { requestPasswordReset(email: $email, locale: $locale) { success message } }';
const RESET =
  'mutation ($token: String, $email: String, $code: String, $newPassword: String!) { resetPassword(token: $token, email: $email, code: $code, newPassword: $newPassword) { success message email } }';
const OLD = 'Original-Pass-1!';
const NEW = 'Brand-New-Pass-2!';

let t: TestApp;
let counter = 0;
const nextAddress = () => `10.2.0.${++counter}`;

async function newAccount(role: 'provider' | 'patient' = 'patient', language?: 'es') {
  const email = `reset.${++counter}.${Math.random().toString(36).slice(2, 7)}@mail.example`;
  const id = await createTestAccount(t.runtime, {
    email,
    firstName: 'Rita',
    lastName: 'Moreno',
    role,
    password: OLD,
    emailVerified: true,
  });
  if (language) await t.runtime.database.db.update(users).set({ language }).where(eq(users.id, id));
  return { email, id };
}

async function requestReset(email: string, ip = nextAddress(), locale?: string) {
  return gqlFrom<{ requestPasswordReset: { success: boolean; message: string } }>(t.app, ip, REQUEST, {
    email,
    ...(locale ? { locale } : {}),
  });
}

async function resetMail(email: string) {
  const [mail] = await t.runtime.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, email))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  if (!mail?.textBody) throw new Error(`no mail to ${email}`);
  return { mail, code: resetCode(mail.textBody), token: linkToken(mail.textBody, '/reset-password') };
}

beforeAll(async () => {
  t = await createTestApp();
});

describe('forgot password', () => {
  it('answers an unknown e-mail exactly like a known one, and mails only the known one', async () => {
    const { email, id } = await newAccount();
    const known = await requestReset(email);
    const unknown = await requestReset('nobody.here@mail.example');
    expect(known.data).toEqual(unknown.data);
    expect(known.data?.requestPasswordReset).toEqual({ success: true, message: PASSWORD_RESET_MESSAGES.requested });
    expect(
      await t.runtime.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'nobody.here@mail.example')),
    ).toEqual([]);
    const { mail, code } = await resetMail(email);
    expect(mail).toMatchObject({
      kind: 'password-reset',
      status: 'kept',
      subject: 'Reset your password for Meridian Precision Psychiatry',
    });
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.textBody).toContain('15 minutes');
    const requests = await t.runtime.database.db
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(eq(auditEntries.event, 'PASSWORD_RESET_REQUESTED'))
      .orderBy(desc(auditEntries.id))
      .limit(2);
    expect(requests.map((r) => r.details)).toEqual([
      { email: 'nobody.here@mail.example', accountId: null, reason: 'no account' },
      { email, accountId: id, resetId: expect.any(String) as unknown },
    ]);
    // Neither the code nor the link token is stored in the clear.
    const tokens = JSON.stringify(await t.runtime.database.db.select().from(accountTokens));
    expect(tokens).not.toContain(code);
  });

  it('resets with the e-mailed code: every session ends, the old password stops working, the new one works', async () => {
    const { email, id } = await newAccount('provider');
    const browser = new TestClient(t.app);
    const phone = new TestClient(t.app);
    await browser.signIn(email, OLD);
    await phone.signIn(email, OLD);
    expect(await browser.me()).not.toBeNull();

    await requestReset(email);
    const { code } = await resetMail(email);
    const visitor = new TestClient(t.app);
    const weak = await visitor.gql(RESET, { email, code, newPassword: 'short' });
    expect(weak.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(weak.errors?.[0]?.extensions).toHaveProperty('fieldErrors', {
      newPassword: 'Password must be at least 8 characters long',
    });

    const done = await visitor.gql<{ resetPassword: unknown }>(RESET, {
      email: email.toUpperCase(),
      code,
      newPassword: NEW,
    });
    expect(done.data?.resetPassword).toEqual({ success: true, message: PASSWORD_RESET_MESSAGES.done, email });
    expect(await t.runtime.database.db.select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
    expect(await browser.me()).toBeNull();
    expect(await phone.me()).toBeNull();
    expect((await new TestClient(t.app).signIn(email, OLD)).success).toBe(false);
    expect((await new TestClient(t.app).signIn(email, NEW)).success).toBe(true);

    const again = await visitor.gql(RESET, { email, code, newPassword: 'Third-Pass-3!' });
    expect(again.errors?.[0]).toMatchObject({
      message: PASSWORD_RESET_MESSAGES.invalid,
      extensions: { reason: 'invalid' },
    });
    const [audit] = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'PASSWORD_RESET'))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(audit).toMatchObject({ userId: id, userRole: 'provider' });
    expect(audit?.details).toMatchObject({ accountId: id, sessionsEnded: 2, via: 'code' });
  });

  it('resets with the link once; a second use is refused', async () => {
    const { email } = await newAccount();
    await requestReset(email);
    const { token } = await resetMail(email);
    const visitor = new TestClient(t.app);
    expect(
      (await visitor.gql<{ resetPassword: { success: boolean } }>(RESET, { token, newPassword: NEW })).data
        ?.resetPassword.success,
    ).toBe(true);
    expect((await visitor.gql(RESET, { token, newPassword: 'Third-Pass-3!' })).errors?.[0]?.extensions).toHaveProperty(
      'reason',
      'invalid',
    );
    expect((await visitor.signIn(email, NEW)).success).toBe(true);
  });

  it('signs the caller out when the reset account is the one signed in', async () => {
    const { email } = await newAccount();
    const browser = new TestClient(t.app);
    await browser.signIn(email, OLD);
    await requestReset(email);
    const { token } = await resetMail(email);
    const response = await browser.gql(RESET, { token, newPassword: NEW });
    expect(response.setCookies.some((c) => /session_token=;.*Max-Age=0/i.test(c))).toBe(true);
    expect(browser.cookie).toBeUndefined();
  });

  it('refuses an expired code and link with their own message', async () => {
    const { email, id } = await newAccount();
    await requestReset(email);
    const { token, code } = await resetMail(email);
    await t.runtime.database.db
      .update(accountTokens)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(accountTokens.userId, id));
    const visitor = new TestClient(t.app);
    expect((await visitor.gql(RESET, { token, newPassword: NEW })).errors?.[0]).toMatchObject({
      message: PASSWORD_RESET_MESSAGES.expired,
      extensions: { reason: 'expired' },
    });
    expect((await visitor.gql(RESET, { email, code, newPassword: NEW })).errors?.[0]?.extensions).toHaveProperty(
      'reason',
      'expired',
    );
    expect((await visitor.signIn(email, OLD)).success).toBe(true);
  });

  it('only the newest code works', async () => {
    const { email } = await newAccount();
    await requestReset(email);
    const first = await resetMail(email);
    await requestReset(email);
    const second = await resetMail(email);
    const visitor = new TestClient(t.app);
    if (first.code !== second.code)
      expect(
        (await visitor.gql(RESET, { email, code: first.code, newPassword: NEW })).errors?.[0]?.extensions,
      ).toHaveProperty('reason', 'invalid');
    expect((await visitor.gql(RESET, { token: first.token, newPassword: NEW })).errors?.[0]?.extensions).toHaveProperty(
      'reason',
      'invalid',
    );
    expect(
      (await visitor.gql<{ resetPassword: { success: boolean } }>(RESET, { token: second.token, newPassword: NEW }))
        .data?.resetPassword.success,
    ).toBe(true);
  });

  it('stops a code after five wrong guesses', async () => {
    const { email } = await newAccount();
    await requestReset(email);
    const { code } = await resetMail(email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) {
      const response = await gqlFrom(t.app, nextAddress(), RESET, { email, code: wrong, newPassword: NEW });
      expect(response.errors?.[0]?.extensions).toHaveProperty('reason', 'invalid');
    }
    const right = await gqlFrom(t.app, nextAddress(), RESET, { email, code, newPassword: NEW });
    expect(right.errors?.[0]?.extensions).toHaveProperty('reason', 'invalid');
  });

  it('limits failed attempts per address, and reset requests per e-mail', async () => {
    const ip = '10.97.0.1';
    for (let i = 0; i < 5; i++)
      await gqlFrom(t.app, ip, RESET, { email: 'ghost@mail.example', code: '123456', newPassword: NEW });
    const refused = await gqlFrom(t.app, ip, RESET, { email: 'ghost@mail.example', code: '123456', newPassword: NEW });
    expect(refused.errors?.[0]?.extensions?.code).toBe('TOO_MANY_REQUESTS');

    // Three requests per e-mail in 15 minutes, known or not, from any address.
    for (const target of ['phantom@mail.example', (await newAccount()).email]) {
      for (let i = 0; i < 3; i++) expect((await requestReset(target)).data?.requestPasswordReset.success).toBe(true);
      const limited = await requestReset(target);
      expect(limited.errors?.[0]?.extensions?.code).toBe('TOO_MANY_REQUESTS');
      expect(limited.errors?.[0]?.message).toBe('Too many attempts. Please try again in 15 minutes.');
    }
    // Ten per address an hour, whatever the e-mails.
    const busy = '10.97.0.2';
    for (let i = 0; i < 10; i++) expect((await requestReset(`many.${i}@mail.example`, busy)).data).not.toBeNull();
    expect((await requestReset('many.10@mail.example', busy)).errors?.[0]?.extensions?.code).toBe('TOO_MANY_REQUESTS');
  });

  it('answers a malformed e-mail and a missing code with field messages', async () => {
    expect((await requestReset('not-an-email')).errors?.[0]?.extensions).toHaveProperty('fieldErrors', {
      email: 'Please enter a valid email address',
    });
    const response = await gqlFrom(t.app, nextAddress(), RESET, { email: 'a@b.example', newPassword: NEW });
    expect(response.errors?.[0]?.extensions).toHaveProperty('fieldErrors', {
      code: PASSWORD_RESET_MESSAGES.codeOrLink,
    });
    const badCode = await gqlFrom(t.app, nextAddress(), RESET, {
      email: 'a@b.example',
      code: '12ab',
      newPassword: NEW,
    });
    expect(badCode.errors?.[0]?.extensions).toHaveProperty('fieldErrors', { code: PASSWORD_RESET_MESSAGES.codeFormat });
  });

  it("writes the mail in the account's language, or the site's when given", async () => {
    const { email } = await newAccount('patient', 'es');
    await requestReset(email);
    const spanish = await resetMail(email);
    expect(spanish.mail).toMatchObject({
      language: 'es',
      subject: 'Restablezca su contraseña de Meridian Precision Psychiatry',
    });
    expect(spanish.mail.textBody).toContain('15 minutos');
    await requestReset(email, nextAddress(), 'en');
    expect((await resetMail(email)).mail.language).toBe('en');
  });

  it('sends nothing to an inactive account', async () => {
    const { email, id } = await newAccount();
    await t.runtime.database.db.update(users).set({ isActive: false }).where(eq(users.id, id));
    expect((await requestReset(email)).data?.requestPasswordReset.success).toBe(true);
    expect(await t.runtime.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email))).toEqual([]);
  });
});
