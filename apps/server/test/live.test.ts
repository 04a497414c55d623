import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, LIVE_CLOSE_CODES, LIVE_PATH } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { buildApp } from '../src/app.ts';
import { sessions, users } from '../src/auth/auth.table.ts';
import { SessionLifetime, type RequestMeta } from '../src/auth/session-lifetime.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { requiredSession } from '../src/plugins/session.ts';
import { appDependencies } from '../src/runtime.ts';
import { createAccount, signedInAccount } from './factories/accounts.ts';
import { createTestApp, TestClient, type TestApp } from './helpers.ts';
import { liveUrl, openLive, openLiveOrFail, type LiveTestSocket } from './live-helpers.ts';
import { linkToken } from './mail-helpers.ts';

const PASSWORD = 'Live-Channel-Pass-1!';

/** A session keeper that counts how often a request's session is resolved. */
class CountingSessions extends SessionLifetime {
  resolutions = 0;

  override resolveSession(meta: RequestMeta) {
    this.resolutions++;
    return super.resolveSession(meta);
  }
}

/** A fresh patient account, so no test depends on (or disturbs) a demo account another test uses. */
const newAccount = (t: TestApp) =>
  createAccount(t, 'patient', { firstName: 'Lena', lastName: 'Vogel', password: PASSWORD });

async function signedIn(t: TestApp): Promise<{ client: TestClient; userId: string; sessionId: string }> {
  const { client, userId: id } = await signedInAccount(t, 'patient', {
    firstName: 'Lena',
    lastName: 'Vogel',
    password: PASSWORD,
  });
  const [row] = await t.runtime.database.db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, id));
  if (!row) throw new Error('no session after sign-in');
  return { client, userId: id, sessionId: row.id };
}

/** Opens the live channel for a signed-in client, as its page (same origin) would. */
async function connect(t: TestApp, client: TestClient): Promise<LiveTestSocket> {
  return openLiveOrFail(await liveUrl(t.app), { cookie: client.cookie, origin: t.runtime.config.publicUrl });
}

async function expectEnded(socket: LiveTestSocket, reason: string): Promise<void> {
  expect(await socket.closed).toEqual({ code: LIVE_CLOSE_CODES.sessionEnded, reason });
  expect(socket.messages.at(-1)).toEqual({ type: 'bye', reason });
}

describe('the live channel refuses an upgrade', () => {
  let t: TestApp;
  let url: string;
  beforeAll(async () => {
    t = await createTestApp({}, { demo: false });
    url = await liveUrl(t.app);
  });

  it('without a session cookie (401)', async () => {
    expect(await openLive(url, { origin: t.runtime.config.publicUrl })).toEqual({ status: 401 });
  });

  it('with a forged cookie (401)', async () => {
    const { client } = await signedIn(t);
    const [name, value = ''] = (client.cookie ?? '').split('=');
    const token = decodeURIComponent(value).split('.')[0] ?? '';
    // The real token with a signature made without the server's secret.
    const forged = `${name}=${encodeURIComponent(`${token}.${Buffer.alloc(32, 7).toString('base64')}`)}`;
    expect(await openLive(url, { cookie: forged, origin: t.runtime.config.publicUrl })).toEqual({ status: 401 });
  });

  it('with the cookie of an expired session (401)', async () => {
    const { client, sessionId } = await signedIn(t);
    await t.runtime.database.db
      .update(sessions)
      .set({ expiresAt: sql`now() - interval '1 second'` })
      .where(eq(sessions.id, sessionId));
    expect(await openLive(url, { cookie: client.cookie, origin: t.runtime.config.publicUrl })).toEqual({
      status: 401,
    });
  });

  it('from another site, or without an Origin, even with a live session (403)', async () => {
    const { client } = await signedIn(t);
    expect(await openLive(url, { cookie: client.cookie, origin: 'https://evil.example' })).toEqual({ status: 403 });
    expect(await openLive(url, { cookie: client.cookie, origin: 'http://localhost:3001' })).toEqual({ status: 403 });
    expect(await openLive(url, { cookie: client.cookie })).toEqual({ status: 403 });
  });

  it('answers a plain request for the channel with 426 Upgrade Required', async () => {
    const { client } = await signedIn(t);
    const response = await t.app.inject({ method: 'GET', url: LIVE_PATH, headers: { cookie: client.cookie ?? '' } });
    expect(response.statusCode).toBe(426);
    expect(response.headers.upgrade).toBe('websocket');
    // The one error body of every route, with a code (decision 052).
    expect(response.json()).toEqual({
      errors: [
        {
          message: `${LIVE_PATH} is a WebSocket.`,
          extensions: {
            code: 'UPGRADE_REQUIRED',
            messageId: 'requestMessages.webSocketOnly',
            params: { path: LIVE_PATH },
          },
        },
      ],
    });
  });
});

describe('the live channel with a live session', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { demo: false });
  });

  it('greets with the user id and role only, answers a ping and refuses a malformed message', async () => {
    const { client, userId } = await signedIn(t);
    const socket = await connect(t, client);
    expect(await socket.next('hello')).toEqual({ type: 'hello', userId, role: 'patient' });
    socket.send({ type: 'ping' });
    expect(await socket.next('pong')).toEqual({ type: 'pong' });
    socket.send('not json');
    expect(await socket.next('error')).toEqual({ type: 'error', code: 'BAD_MESSAGE' });
    socket.close();
    expect((await socket.closed).code).toBe(1005);
  });

  it('is closed, with the reason, when its session signs out', async () => {
    const { client } = await signedIn(t);
    const socket = await connect(t, client);
    const other = await signedIn(t);
    const bystander = await connect(t, other.client);
    await socket.next('hello');
    await client.gql('mutation { signOut }');
    await expectEnded(socket, 'SIGNED_OUT');
    // Another person's channel stays open.
    bystander.send({ type: 'ping' });
    expect(await bystander.next('pong')).toEqual({ type: 'pong' });
    bystander.close();
  });

  it('is closed when a sign-in in the same browser replaces its session', async () => {
    const { id, email } = await newAccount(t);
    const client = new TestClient(t.app);
    await client.signIn(email, PASSWORD);
    const socket = await connect(t, client);
    expect((await socket.next('hello')).userId).toBe(id);
    expect((await client.signIn(email, PASSWORD)).success).toBe(true);
    await expectEnded(socket, 'REPLACED');
  });

  it('is closed when a password reset ends every session of the account', async () => {
    const { id, email } = await newAccount(t);
    const client = new TestClient(t.app);
    await client.signIn(email, PASSWORD);
    const socket = await connect(t, client);
    await socket.next('hello');
    const visitor = new TestClient(t.app);
    await visitor.gql('mutation ($email: String!) { requestPasswordReset(email: $email) { success } }', { email });
    const [mail] = await t.runtime.database.db
      .select({ text: mailOutbox.textBody })
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, email))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(1);
    const reset = await visitor.gql<{ resetPassword: { success: boolean } }>(
      'mutation ($token: String, $p: String!) { resetPassword(token: $token, newPassword: $p) { success } }',
      { token: linkToken(mail?.text ?? '', '/reset-password'), p: 'Another-Pass-2!' },
    );
    expect(reset.data?.resetPassword.success).toBe(true);
    await expectEnded(socket, 'PASSWORD_RESET');
    expect(await t.runtime.database.db.select().from(sessions).where(eq(sessions.userId, id))).toEqual([]);
  });

  it('is closed when another server instance on the same database signs the session out', async () => {
    const { client } = await signedIn(t);
    const socket = await connect(t, client);
    await socket.next('hello');
    const second = await createTestApp({}, { databaseUrl: t.databaseUrl, demo: false });
    const sameBrowser = new TestClient(second.app);
    sameBrowser.cookie = client.cookie;
    expect((await sameBrowser.me())?.userId).toBe((await socket.next('hello')).userId);
    await sameBrowser.gql('mutation { signOut }');
    await expectEnded(socket, 'SIGNED_OUT');
  });

  it('tells the browser the server is stopping, and closes with 1001', async () => {
    const stopping = await createTestApp({}, { databaseUrl: t.databaseUrl, demo: false });
    const { client } = await signedIn(stopping);
    const socket = await connect(stopping, client);
    await socket.next('hello');
    await stopping.app.close();
    expect(await socket.closed).toEqual({ code: LIVE_CLOSE_CODES.serverStopping, reason: 'SERVER_STOPPING' });
    expect(socket.messages.at(-1)).toEqual({ type: 'bye', reason: 'SERVER_STOPPING' });
  });
});

describe('the live channel and the automatic logoff', () => {
  it('is closed when the idle deadline passes, however much the socket itself talks', async () => {
    // 0.05 minutes = 3 seconds; socket traffic does not count as activity (decision 017).
    const t = await createTestApp({ SESSION_IDLE_MINUTES: '0.05' }, { demo: false });
    const { client, userId, sessionId } = await signedIn(t);
    const socket = await connect(t, client);
    await socket.next('hello');
    const pinging = setInterval(() => socket.send({ type: 'ping' }), 250);
    try {
      await expectEnded(socket, 'EXPIRED');
    } finally {
      clearInterval(pinging);
    }
    expect(socket.messages.some((m) => m.type === 'pong')).toBe(true);
    const expired = await t.runtime.database.db
      .select({ sessionId: auditEntries.sessionId })
      .from(auditEntries)
      .where(and(eq(auditEntries.userId, userId), eq(auditEntries.event, 'SESSION_EXPIRED')));
    expect(expired).toEqual([{ sessionId }]);
    expect(await client.me()).toBeNull();
  });

  it('is closed when the account is deactivated, by whatever path', async () => {
    // The review of open sockets runs every 1.5 s here (a twentieth of the 30 s idle time).
    const t = await createTestApp({ SESSION_IDLE_MINUTES: '0.5' }, { demo: false });
    const { client, userId, sessionId } = await signedIn(t);
    const socket = await connect(t, client);
    await socket.next('hello');
    await t.runtime.database.db.update(users).set({ isActive: false }).where(eq(users.id, userId));
    await expectEnded(socket, 'ACCOUNT_DISABLED');
    expect(await t.runtime.database.db.select().from(sessions).where(eq(sessions.id, sessionId))).toEqual([]);
    const ended = await t.runtime.database.db
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(and(eq(auditEntries.sessionId, sessionId), eq(auditEntries.event, 'LOGOUT')));
    expect(ended).toEqual([{ details: { reason: 'account inactive or without a role' } }]);
  });
});

describe('one session for GraphQL, /api routes and the live channel', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, { demo: true });
    // An /api route as later features will add them: it asks the session plugin for a session.
    t.app.get('/api/test/whoami', { config: { session: 'required' } }, (request) => {
      const session = requiredSession(request);
      return { sessionId: session.id, userId: session.user.id, actorUserId: request.actor.userId };
    });
  });

  it('refuses an /api route that requires a session without one, and clears a cookie that opens none', async () => {
    const none = await t.app.inject({ method: 'GET', url: '/api/test/whoami' });
    expect(none.statusCode).toBe(401);
    // The one error body of every route (decision 052).
    expect(none.json()).toMatchObject({ errors: [{ extensions: { code: 'UNAUTHENTICATED' } }] });
    expect(none.headers['set-cookie']).toBeUndefined();
    const stale = await t.app.inject({
      method: 'GET',
      url: '/api/test/whoami',
      headers: { cookie: 'telehealth.session_token=gone.c2lnbmF0dXJl' },
    });
    expect(stale.statusCode).toBe(401);
    expect(String(stale.headers['set-cookie'])).toMatch(/^telehealth\.session_token=; Max-Age=0;/);
  });

  it('sees the same session everywhere and refreshes the cookie as before', async () => {
    const client = new TestClient(t.app);
    const user = (await client.signIn('provider@demo.test', DEMO_PASSWORD)).user!;
    const [row] = await t.runtime.database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, user.userId))
      .orderBy(desc(sessions.createdAt))
      .limit(1);

    const api = await t.app.inject({
      method: 'GET',
      url: '/api/test/whoami',
      headers: { cookie: client.cookie ?? '' },
    });
    expect(api.statusCode).toBe(200);
    expect(api.json()).toEqual({ sessionId: row?.id, userId: user.userId, actorUserId: user.userId });
    expect(String(api.headers['set-cookie'])).toMatch(/^telehealth\.session_token=[^;]+; Max-Age=(899|900); Path=\//);

    const graphql = await client.gql<{ me: { userId: string } }>('{ me { userId } }');
    expect(graphql.data?.me.userId).toBe(user.userId);
    expect(graphql.setCookies.find((c) => c.startsWith('telehealth.session_token='))).toMatch(/Max-Age=(899|900);/);

    const socket = await connect(t, client);
    expect(await socket.next('hello')).toEqual({ type: 'hello', userId: user.userId, role: 'provider' });
    socket.close();
    await socket.closed;
  });

  it('resolves the session once per GraphQL request, and not at all for a body refused for its shape', async () => {
    // The same app and runtime around a session keeper that counts its resolutions (the plugin's one statement).
    const counting = new CountingSessions({
      auth: t.runtime.auth,
      db: t.runtime.database.db,
      config: t.runtime.config,
      secret: t.runtime.secret,
    });
    const app = await buildApp({ ...appDependencies(t.runtime), sessionLifetime: counting });
    try {
      const client = new TestClient(app);
      await client.signIn('admin@demo.test', DEMO_PASSWORD);
      const before = counting.resolutions;
      expect((await client.me())?.email).toBe('admin@demo.test');
      expect(counting.resolutions - before).toBe(1);
      const malformed = await app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json', cookie: client.cookie ?? '' },
        payload: '{"query": ',
      });
      expect(malformed.statusCode).toBe(400);
      expect(counting.resolutions - before).toBe(1);
    } finally {
      await app.close();
    }
  });
});
