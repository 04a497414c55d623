import { randomUUID } from 'node:crypto';
import type { Browser, Page, WebSocket } from '@playwright/test';
import pg from 'pg';
import { DEMO_PASSWORD } from '@telehealth/shared';
import { uniqueLetters } from '../support/access-requests.ts';
import { scaled, within } from '../support/budget.ts';
import { startCluster, type Cluster } from '../support/cluster.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { bookHalfHour, createPortalPatient, signedInRequest, type PortalPatient } from '../support/records.ts';
import { CLUSTER } from '../support/servers.ts';

/**
 * Two instances of the server on one PostgreSQL behind HAProxy with the shipped configuration (decision 072),
 * everything through the proxy: a session made on one instance used on the other; a live update and a video visit
 * whose two people are on different instances; a rolling restart under a client's reads and writes with no failed
 * request and the browser's live socket back by itself; a kill -9 under load with every acknowledged write kept.
 * Which instance serves a request is forced with HAProxy's runtime API (`maint` takes one out for new connections;
 * open ones, WebSockets included, go on), and each answer names its instance (`X-Served-By`, in this test's
 * configuration only).
 */
test.describe.configure({ mode: 'serial' });

const ORIGIN = CLUSTER.url;
let cluster: Cluster;

test.beforeAll(async () => {
  // Two starts of the server (the first creates the schema and the demo accounts) and the proxy.
  test.setTimeout(scaled(240_000));
  cluster = await startCluster({
    proxyPort: CLUSTER.proxyPort,
    instancePorts: [...CLUSTER.instancePorts],
    databasePort: CLUSTER.databasePort,
    servedByHeader: true,
    drainSeconds: 3,
    // The next half hour's visit may be joined at once (the instances write no demo schedule to clash with).
    env: { VIDEO_JOIN_EARLY_MINUTES: '60' },
  });
});

test.afterAll(async () => {
  test.setTimeout(scaled(60_000));
  await cluster?.close();
});

/** Only instance `i` takes new connections until `everyone()`. */
async function only(i: number): Promise<void> {
  // The chosen one first: never a moment with none.
  await cluster.setState(i, 'ready');
  for (let k = 0; k < cluster.instances.length; k++) if (k !== i) await cluster.setState(k, 'maint');
}
async function everyone(): Promise<void> {
  for (let k = 0; k < cluster.instances.length; k++) await cluster.setState(k, 'ready');
}

async function person(browser: Browser, email: string, password = DEMO_PASSWORD) {
  const context = await browser.newContext({ baseURL: ORIGIN, permissions: ['camera', 'microphone'] });
  const page = await context.newPage();
  await signInByApi(page, email, ORIGIN, password);
  return { context, page };
}

/** The page's live channels (/api/live), each with whether the server greeted it and whether it closed. */
function trackLiveSockets(page: Page) {
  const sockets: { socket: WebSocket; greeted: boolean; closed: boolean }[] = [];
  page.on('websocket', (socket) => {
    if (!socket.url().endsWith('/api/live')) return;
    const entry = { socket, greeted: false, closed: false };
    sockets.push(entry);
    socket.on('framereceived', ({ payload }) => {
      if (String(payload).includes('"hello"')) entry.greeted = true;
    });
    socket.on('close', () => (entry.closed = true));
  });
  return {
    all: sockets,
    /** A greeted socket that is still open (of those opened from `from` on). */
    open: (from = 0) => sockets.slice(from).some((entry) => entry.greeted && !entry.closed),
  };
}

test('a session signed in through one instance is used through the other', async ({ browser }) => {
  await only(0);
  const context = await browser.newContext({ baseURL: ORIGIN });
  const page = context.pages()[0] ?? (await context.newPage());
  const signIn = await page.request.post('/graphql', {
    headers: { origin: ORIGIN },
    data: {
      query: 'mutation ($e: String!, $p: String!) { signIn(email: $e, password: $p) { success } }',
      variables: { e: 'provider@demo.test', p: DEMO_PASSWORD },
    },
  });
  expect(signIn.headers()['x-served-by']).toBe('app1');
  expect(((await signIn.json()) as { data: { signIn: { success: boolean } } }).data.signIn.success).toBe(true);

  await only(1);
  const me = await page.request.post('/graphql', { headers: { origin: ORIGIN }, data: { query: '{ me { email } }' } });
  expect(me.headers()['x-served-by']).toBe('app2');
  expect(((await me.json()) as { data: { me: { email: string } | null } }).data.me?.email).toBe('provider@demo.test');
  // And the pages: the dashboard, signed in, all of it from the second instance.
  await page.goto('/dashboard');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  await everyone();
  await context.close();
});

test('a patient waiting on one instance shows live on the provider’s dashboard on the other, and their video visit connects across the two', async ({
  browser,
}) => {
  test.setTimeout(scaled(120_000));
  const patientRecord: PortalPatient = await createPortalPatient(ORIGIN);
  const booking = await signedInRequest(ORIGIN, 'provider@demo.test');
  const { id } = await bookHalfHour(booking, ORIGIN, patientRecord.id);
  await booking.dispose();

  // The provider's dashboard, and its live channel, on the second instance.
  await only(1);
  const provider = await person(browser, 'provider@demo.test');
  const providerLive = trackLiveSockets(provider.page);
  await provider.page.goto('/dashboard');
  await expect.poll(() => providerLive.open()).toBe(true);

  // The patient joins the waiting room through the first: their signalling socket stays there.
  await only(0);
  const patient = await person(browser, patientRecord.email, patientRecord.password);
  await patient.page.goto(`/video-call/${id}`);
  await expect(patient.page.getByLabel('Your name')).toHaveValue(/\S/);
  await patient.page.getByRole('button', { name: 'Join Video Call' }).click();
  await expect(patient.page.getByText('Your provider will let you in shortly.')).toBeVisible();

  // Told live, across the instances (NOTIFY), without a reload.
  const alert = provider.page.getByTestId('video-waiting-alert');
  await expect(alert).toContainText('1 patient is waiting for a video visit');

  // The provider starts and admits through the second; the call's signalling crosses the instances.
  await only(1);
  await alert.getByRole('link', { name: 'Open the visit' }).click();
  await provider.page.getByRole('button', { name: 'Start Video Call' }).click();
  await provider.page.getByRole('button', { name: 'Let in' }).click();
  for (const page of [patient.page, provider.page]) {
    const video = page.getByTestId('remote-video');
    await expect(video).toHaveAttribute('data-connection-state', 'connected', within(30_000));
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), within(20_000)).toBeGreaterThan(0);
  }
  await everyone();
  for (const p of [patient, provider]) await p.context.close();
});

/** A signed-in client of the API in this process, as a script would be: its cookie, through the proxy. */
async function apiClient(email: string) {
  const signIn = await fetch(`${ORIGIN}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: ORIGIN },
    body: JSON.stringify({
      query: 'mutation ($e: String!, $p: String!) { signIn(email: $e, password: $p) { success } }',
      variables: { e: email, p: DEMO_PASSWORD },
    }),
  });
  const cookie = signIn.headers
    .getSetCookie()
    .find((c) => c.includes('session_token='))!
    .split(';')[0]!;
  return async (query: string, variables: object, headers: Record<string, string> = {}) => {
    const response = await fetch(`${ORIGIN}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ORIGIN, cookie, ...headers },
      body: JSON.stringify({ query, variables }),
    });
    const text = await response.text();
    let body: { data?: Record<string, unknown> | null; errors?: { extensions?: { code?: string } }[] } = {};
    try {
      body = JSON.parse(text) as typeof body;
    } catch {
      // an HTML or empty answer from the proxy: counted below by its status
    }
    return { status: response.status, body };
  };
}

const CREATE_PATIENT = 'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }';
const READ_PATIENTS = '{ listPatients(limit: 5) { items { id } } }';

/**
 * A client that keeps reading and writing through the proxy until stopped, with `workers` requests at a time:
 * each write creates a patient with an Idempotency-Key and, when it fails, is sent again with the same key (as the
 * web app does, decision 044), so a write is acknowledged once an answer with its id came back. Every request that
 * does not come back as a clean answer is a failure, kept with when it happened.
 */
function keepWorking(send: Awaited<ReturnType<typeof apiClient>>, workers: number) {
  let stopped = false;
  const acknowledged: string[] = [];
  const failures: { at: number; what: string }[] = [];
  let requests = 0;
  const worker = async () => {
    while (!stopped) {
      requests++;
      const read = await send(READ_PATIENTS, {}).catch((error: unknown) => ({ status: 0, body: { error } }));
      if (read.status !== 200 || !('data' in read.body) || !read.body.data)
        failures.push({ at: Date.now(), what: `read: ${read.status} ${JSON.stringify(read.body).slice(0, 200)}` });
      const key = randomUUID();
      const letters = uniqueLetters();
      const input = {
        firstName: 'Cluster',
        lastName: `Load${letters}`,
        email: `load.${letters}@example.test`,
        dateOfBirth: '1990-01-01',
      };
      for (let attempt = 0; attempt < 5 && !stopped; attempt++) {
        requests++;
        const write = await send(CREATE_PATIENT, { input }, { 'idempotency-key': key }).catch((error: unknown) => ({
          status: 0,
          body: { error },
        }));
        const id =
          write.status === 200 && 'data' in write.body
            ? (write.body.data?.createPatient as { id?: string })?.id
            : undefined;
        if (id) {
          acknowledged.push(id);
          break;
        }
        failures.push({ at: Date.now(), what: `write: ${write.status} ${JSON.stringify(write.body).slice(0, 200)}` });
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    }
  };
  const running = Promise.all(Array.from({ length: workers }, worker));
  return {
    acknowledged,
    failures,
    get requests() {
      return requests;
    },
    async stop() {
      stopped = true;
      await running;
    },
  };
}

test('a rolling restart (each instance drained by SIGTERM, then started again) under reads and writes fails no request, and the live socket comes back by itself', async ({
  browser,
}) => {
  test.setTimeout(scaled(300_000));
  const provider = await person(browser, 'provider@demo.test');
  const live = trackLiveSockets(provider.page);
  await provider.page.goto('/dashboard');
  await expect.poll(() => live.open()).toBe(true);
  const before = live.all.length;

  const load = keepWorking(await apiClient('provider@demo.test'), 2);
  await expect.poll(() => load.acknowledged.length).toBeGreaterThan(5);
  for (let i = 0; i < cluster.instances.length; i++) {
    const stopped = cluster.stop(i);
    // Out of rotation by its failing ready check, before it stops taking requests.
    await cluster.waitForStatus(i, 'DOWN', 10_000);
    expect(await stopped).toBe(0);
    const during = load.acknowledged.length;
    await cluster.start(i);
    // The client kept working through the other meanwhile.
    expect(load.acknowledged.length).toBeGreaterThan(during);
  }
  const restarted = load.acknowledged.length;
  await expect.poll(() => load.acknowledged.length).toBeGreaterThan(restarted + 5);
  await load.stop();
  expect(load.failures).toEqual([]);
  console.log(`rolling restart: ${load.requests} requests, ${load.acknowledged.length} writes, 0 failed`);

  // The browser's live channel was closed by its instance's stop (1001) and reopened by itself, greeted.
  expect(live.all.slice(0, before).every((entry) => entry.closed)).toBe(true);
  await expect.poll(() => live.open(before), within(30_000)).toBe(true);
  await provider.context.close();
});

test('a kill -9 of one instance under load loses no acknowledged write, and the clients go on through the other', async () => {
  test.setTimeout(scaled(180_000));
  const load = keepWorking(await apiClient('provider@demo.test'), 3);
  await expect.poll(() => load.acknowledged.length).toBeGreaterThan(10);
  const killedAt = Date.now();
  await cluster.kill(0);
  await cluster.waitForStatus(0, 'DOWN', 10_000);
  const downAt = Date.now();
  const atDown = load.acknowledged.length;
  await expect.poll(() => load.acknowledged.length, within(30_000)).toBeGreaterThan(atDown + 20);
  await load.stop();

  // Every write whose answer came back is in the database.
  const client = new pg.Client({ connectionString: cluster.databaseUrl });
  await client.connect();
  try {
    const found = await client.query<{ id: string }>('SELECT id FROM patients WHERE id = ANY($1::uuid[])', [
      load.acknowledged,
    ]);
    expect(new Set(found.rows.map((row) => row.id))).toEqual(new Set(load.acknowledged));
  } finally {
    await client.end();
  }
  // Only requests under way at the kill could fail (a read in flight, or a write answered IN_FLIGHT while its first
  // attempt's transaction died); everything sent once HAProxy had marked the instance down went through.
  expect(load.failures.filter((failure) => failure.at > downAt + 1_000)).toEqual([]);
  console.log(
    `kill -9: ${load.requests} requests, ${load.acknowledged.length} writes acknowledged and found, ` +
      `${load.failures.length} failed:`,
    load.failures.map((failure) => `${failure.at - killedAt} ms after the kill: ${failure.what}`),
  );
});
