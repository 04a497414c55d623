import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  ERROR_CODES,
  formatMessage,
  messageText,
  PASSWORD_MAX_LENGTH,
  REQUEST_MESSAGES,
  SIGN_IN_ADDRESS_LIMIT,
} from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { signInFailures } from '../src/auth/auth.table.ts';
import { createTestApp, TestClient, type TestApp } from './helpers.ts';

let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
});

const SIGN_IN =
  'mutation S($e: String!, $p: String!) { signIn(email: $e, password: $p) { success error errorMessage { id } } }';

interface SignInBody {
  data: { signIn: { success: boolean; error: string | null; errorMessage: { id: string } | null } } | null;
  errors?: { message: string; extensions: { code: string; messageId?: string } }[];
}

/** A sign-in from a given client address (the app trusts no proxy here, so the socket's address counts). */
async function signInFrom(address: string, email: string, password: string) {
  const response = await t.app.inject({
    method: 'POST',
    url: '/graphql',
    remoteAddress: address,
    headers: { 'content-type': 'application/json' },
    payload: { query: SIGN_IN, variables: { e: email, p: password } },
  });
  return { status: response.statusCode, body: response.json<SignInBody>() };
}

const count = (table: typeof auditEntries | typeof signInFailures) => t.runtime.database.db.$count(table);

describe('a password over the limit', () => {
  it('is refused with a clear message before the identity library, and does not count toward the lockout', async () => {
    const failuresBefore = await count(signInFailures);
    for (let i = 0; i < 6; i += 1) {
      const response = await signInFrom('10.1.0.1', 'admin@demo.test', 'x'.repeat(PASSWORD_MAX_LENGTH + 1));
      expect(response.status).toBe(200);
      expect(response.body.data?.signIn).toMatchObject({
        success: false,
        error: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
      });
    }
    expect(await count(signInFailures)).toBe(failuresBefore);
    // Six refusals, and the account is not locked.
    expect((await signInFrom('10.1.0.1', 'admin@demo.test', DEMO_PASSWORD)).body.data?.signIn.success).toBe(true);
  });

  it('is refused when setting a password too', async () => {
    const response = await new TestClient(t.app).gql(
      'mutation R($token: String, $password: String!) { resetPassword(token: $token, newPassword: $password) { success } }',
      { token: 'abc', password: `Aa1!${'x'.repeat(PASSWORD_MAX_LENGTH)}` },
    );
    expect(response.errors?.[0]?.message).toContain(`Password must be at most ${PASSWORD_MAX_LENGTH} characters`);
  });
});

describe('one credential operation per request', () => {
  const refusal = formatMessage(REQUEST_MESSAGES.oneCredentialOperation, { limit: 1 });

  it.each([
    [
      'two aliased signIn',
      'mutation { a: signIn(email: "admin@demo.test", password: "x1") { success } b: signIn(email: "provider@demo.test", password: "x2") { success } }',
    ],
    [
      'signIn and resetPassword',
      'mutation { signIn(email: "admin@demo.test", password: "x1") { success } resetPassword(token: "t", newPassword: "Aa1!aaaa") { success } }',
    ],
    [
      'signIn twice through a fragment',
      'mutation { ...F signIn(email: "admin@demo.test", password: "x1") { success } } fragment F on Mutation { s2: signIn(email: "admin@demo.test", password: "x2") { success } }',
    ],
    [
      'confirmSignIn and signIn in an inline fragment',
      'mutation { confirmSignIn(challengeResponse: "123456") { success } ... on Mutation { s: signIn(email: "admin@demo.test", password: "x") { success } } }',
    ],
  ])('refuses %s with 400 before anything runs', async (_name, query) => {
    const [audits, failures] = [await count(auditEntries), await count(signInFailures)];
    const response = await new TestClient(t.app).gql(query);
    expect(response.status).toBe(400);
    expect(response.data).toBeNull();
    expect(response.errors).toEqual([
      expect.objectContaining({
        message: refusal,
        extensions: expect.objectContaining({ code: ERROR_CODES.graphqlValidationFailed }) as unknown,
      }),
    ]);
    expect([await count(auditEntries), await count(signInFailures)]).toEqual([audits, failures]);
  });

  it('lets one through, beside other fields', async () => {
    const response = await new TestClient(t.app).gql(
      `mutation { signIn(email: "nobody@demo.test", password: "Wrong-Pass-1") { success } }`,
    );
    expect(response.status).toBe(200);
    expect(response.data).toEqual({ signIn: { success: false } });
  });
});

describe('failed sign-ins from one address', () => {
  it('stop every sign-in from that address, a right password too; other addresses are not affected', async () => {
    const sprayer = '10.2.0.1';
    for (let i = 0; i < SIGN_IN_ADDRESS_LIMIT.maxAttempts; i += 1) {
      // Spread over many accounts, known and unknown, so that no account's own lockout is reached.
      const email = i % 5 === 0 ? 'provider2@demo.test' : `nobody-${i}@demo.test`;
      const response = await signInFrom(sprayer, email, `Wrong-Pass-${i}!`);
      expect(response.body.data?.signIn.errorMessage?.id, `attempt ${i + 1}`).toBe('messages.invalidCredentials');
    }
    const refused = await signInFrom(sprayer, 'admin@demo.test', DEMO_PASSWORD);
    expect(refused.body.data?.signIn).toMatchObject({
      success: false,
      error: messageText('messages.tooManyRequests', { count: 15 }),
      errorMessage: { id: 'messages.tooManyRequests' },
    });
    expect((await signInFrom('10.2.0.2', 'admin@demo.test', DEMO_PASSWORD)).body.data?.signIn.success).toBe(true);
    // provider2 had 4 failures from the sprayer, under its own lockout: from elsewhere it signs in.
    expect((await signInFrom('10.2.0.3', 'provider2@demo.test', DEMO_PASSWORD)).body.data?.signIn.success).toBe(true);
  });
});
