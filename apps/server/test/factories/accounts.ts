/**
 * Accounts for server tests: the demo staff signed in, and fresh accounts of any role (created through the
 * product's one account-creation function), signed in with a cookie-keeping client.
 */
import type { FastifyInstance } from 'fastify';
import { DEMO_PASSWORD, type Role } from '@telehealth/shared';
import { createTestAccount, TestClient, type TestApp } from '../helpers.ts';
import { uniqueEmail } from './graphql.ts';

/** The password of every account a factory creates, unless the test gives its own. */
export const FACTORY_PASSWORD = 'Factory-Pass-2026!';

export interface SignedIn {
  client: TestClient;
  userId: string;
  email: string;
}

/** Signs `email` in on a new client of `app`; a refused sign-in fails the test with the server's answer. */
export async function signIn(
  app: TestApp | FastifyInstance,
  email: string,
  password: string = DEMO_PASSWORD,
): Promise<SignedIn> {
  const client = new TestClient('app' in app ? app.app : app);
  const result = await client.signIn(email, password);
  if (!result.success || !result.user) throw new Error(`cannot sign in ${email}: ${JSON.stringify(result)}`);
  return { client, userId: result.user.userId, email };
}

export interface DemoClients {
  admin: TestClient;
  provider: TestClient;
  provider2: TestClient;
  patient: TestClient;
  adminId: string;
  providerId: string;
  provider2Id: string;
  /** The demo patient's account id (not its patient record's). */
  patientUserId: string;
}

/** The four demo accounts of a test app (created unless `demo: false`), each signed in on its own client. */
export async function demoClients(t: TestApp): Promise<DemoClients> {
  // One after another, as people sign in: the sign-in limits count per address.
  const admin = await signIn(t, 'admin@demo.test');
  const provider = await signIn(t, 'provider@demo.test');
  const provider2 = await signIn(t, 'provider2@demo.test');
  const patient = await signIn(t, 'patient@demo.test');
  return {
    admin: admin.client,
    provider: provider.client,
    provider2: provider2.client,
    patient: patient.client,
    adminId: admin.userId,
    providerId: provider.userId,
    provider2Id: provider2.userId,
    patientUserId: patient.userId,
  };
}

export interface AccountFields {
  email?: string;
  firstName?: string;
  lastName?: string;
  password?: string;
  /** True unless given: a test account has confirmed its address. */
  emailVerified?: boolean;
}

export interface Account {
  id: string;
  email: string;
  password: string;
}

const NAMES: Record<Role, { firstName: string; lastName: string }> = {
  admin: { firstName: 'Robin', lastName: 'Vale' },
  provider: { firstName: 'Ada', lastName: 'Booker' },
  patient: { firstName: 'Rosa', lastName: 'Portal' },
};

/** A new account of `role` (a provider gets its provider record), not signed in. */
export async function createAccount(t: TestApp, role: Role, fields: AccountFields = {}): Promise<Account> {
  const email = fields.email ?? uniqueEmail(role);
  const password = fields.password ?? FACTORY_PASSWORD;
  const id = await createTestAccount(t.runtime, {
    email,
    firstName: fields.firstName ?? NAMES[role].firstName,
    lastName: fields.lastName ?? NAMES[role].lastName,
    role,
    password,
    emailVerified: fields.emailVerified ?? true,
  });
  return { id, email, password };
}

/** A new account of `role`, signed in on a client of `t` (or of `on`, another app on the same database). */
export async function signedInAccount(
  t: TestApp,
  role: Role,
  fields: AccountFields = {},
  on: TestApp = t,
): Promise<SignedIn & Account> {
  const account = await createAccount(t, role, fields);
  const { client } = await signIn(on, account.email, account.password);
  return { ...account, client, userId: account.id };
}
