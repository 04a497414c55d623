import { test as base, expect, type Page } from '@playwright/test';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, type Role } from '@telehealth/shared';
import path from 'node:path';
import { logTestCpu, treeCpuSeconds } from './cpu.ts';

export { expect };

export type DemoAccount = (typeof DEMO_ACCOUNTS)[number];

/** The first demo account of a role. */
export function demoAccount(role: Role): DemoAccount {
  const account = DEMO_ACCOUNTS.find((candidate) => candidate.role === role);
  if (!account) throw new Error(`No demo account has the role ${role}`);
  return account;
}

export function fullName(account: DemoAccount): string {
  return `${account.firstName} ${account.lastName}`;
}

/** Fills in and submits the sign-in form of the page that is showing it. */
export async function submitSignInForm(page: Page, email: string, password: string = DEMO_PASSWORD): Promise<void> {
  // The fields' accessible names are their labels (Mantine adds a hidden "*" to required labels' text).
  await page.getByRole('textbox', { name: 'Email', exact: true }).fill(email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
}

/** Signs in through the login form, as a person would, and waits for the dashboard. */
export async function signIn(page: Page, email: string, password: string = DEMO_PASSWORD): Promise<void> {
  await page.goto('/login');
  await submitSignInForm(page, email, password);
  await expect(page).toHaveURL(/\/dashboard$/);
}

const SIGN_IN_MUTATION = 'mutation($e:String!,$p:String!){signIn(email:$e,password:$p){success}}';

interface GraphQLResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string } }[];
}

/**
 * Signs in by calling the API directly: faster than the form, for tests about something else. The request
 * shares the browser context's cookies, so the page is signed in afterwards. It sends an Origin header as a
 * browser would: the server refuses state-changing requests from a foreign origin (decision 018).
 */
export async function signInByApi(page: Page, email: string, origin: string, password = DEMO_PASSWORD): Promise<void> {
  const response = await page.request.post('/graphql', {
    headers: { origin },
    data: { query: SIGN_IN_MUTATION, variables: { e: email, p: password } },
  });
  expect(response.ok(), `signIn answered HTTP ${response.status()}`).toBe(true);
  const body = (await response.json()) as GraphQLResponse<{ signIn: { success: boolean } }>;
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  expect(body.data?.signIn.success).toBe(true);
}

/** The `me` query as seen by the browser context's cookies: null when no one is signed in. */
export async function fetchCurrentUser(page: Page, origin: string): Promise<{ email: string } | null> {
  const response = await page.request.post('/graphql', {
    headers: { origin },
    data: { query: '{ me { email } }' },
  });
  expect(response.ok(), `me answered HTTP ${response.status()}`).toBe(true);
  const body = (await response.json()) as GraphQLResponse<{ me: { email: string } | null }>;
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data?.me ?? null;
}

interface Fixtures {
  /** signInByApi bound to this test's page and server. */
  signInAs: (role: Role) => Promise<DemoAccount>;
  /** fetchCurrentUser bound to this test's page and server. */
  currentUser: () => Promise<{ email: string } | null>;
  /** With `E2E_CPU_LOG=<file>`, each test's CPU seconds (its worker, browser included) are appended to the file. */
  cpuLog: void;
}

const CPU_LOG = process.env.E2E_CPU_LOG;

export const test = base.extend<Fixtures>({
  signInAs: async ({ page, baseURL }, use) => {
    const origin = new URL(baseURL ?? '').origin;
    await use(async (role) => {
      const account = demoAccount(role);
      await signInByApi(page, account.email, origin);
      return account;
    });
  },
  currentUser: async ({ page, baseURL }, use) => {
    const origin = new URL(baseURL ?? '').origin;
    await use(() => fetchCurrentUser(page, origin));
  },
  cpuLog: [
    // Playwright reads a fixture's dependencies from its first parameter, which must be a destructuring pattern.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, testInfo) => {
      if (!CPU_LOG) return use();
      const cpuBefore = treeCpuSeconds();
      const wallBefore = Date.now();
      await use();
      // Set up first and so torn down last: the test's page and context are closed by now.
      const spec = path.basename(testInfo.file);
      logTestCpu(CPU_LOG, spec, testInfo.title, treeCpuSeconds() - cpuBefore, (Date.now() - wallBefore) / 1000);
    },
    { auto: true },
  ],
});
