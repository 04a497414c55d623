// npm run bench:video: video visits on loopback against the production server. (1) Join to first remote frame:
// a patient's page joins a visit the provider is already in, 20 times, in headless Chromium with fake devices;
// median and p95. (2) The server's cost per concurrent call: 20 calls held by signalling clients (join, admit,
// offer, answer, candidates, then the 20-second presence pings) for 30 s; the server process's CPU time and
// resident memory compared with before. Media never passes through the server (the browsers talk WebRTC to each
// other), so signalling and presence are its whole cost. Writes the "Video visits" section of
// docs/performance.md; BENCH_SMOKE=1 runs 3 joins and 3 calls for 5 s and writes nothing.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { chromium } from 'playwright-core';
import { WebSocket } from 'ws';
import { DEMO_PASSWORD, VIDEO_SIGNAL_PATH, type VideoServerMessage } from '@telehealth/shared';
import { Keyring, parseDataKeys } from '../src/keys/keyring.ts';
import { appointmentsEncrypted } from '../src/keys/encrypted-columns.ts';
import { benchEnvironment, graphql, ROOT, SMOKE, start, stopChildren, writeSection } from './bench-kit.ts';

const JOINS = SMOKE ? 3 : 20;
const CALLS = SMOKE ? 3 : 20;
const HOLD_SECONDS = SMOKE ? 5 : 30;
const PORT = 3730;
const BASE = `http://127.0.0.1:${PORT}`;
const SDP = `v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\n${'a=x-padding:0123456789abcdef\r\n'.repeat(120)}`;

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
};

/** utime + stime of a process, in milliseconds, and its resident memory in MiB. */
function processUsage(pid: number): { cpuMs: number; rssMiB: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const rssKiB = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return { cpuMs: (ticks * 1000) / 100, rssMiB: rssKiB / 1024 };
}

async function signIn(email: string): Promise<string> {
  const result = await graphql(
    BASE,
    '',
    'mutation($e: String!, $p: String!) { signIn(email: $e, password: $p) { success } }',
    {
      e: email,
      p: DEMO_PASSWORD,
    },
  );
  return result.cookies[0]!.split(';')[0]!;
}

async function token(cookie: string, appointmentId: string): Promise<string> {
  const result = await graphql(
    BASE,
    cookie,
    'mutation($i: VideoTokenInput!) { requestVideoToken(input: $i) { token } }',
    { i: { identity: 'Bench', room: `telehealth-room-${appointmentId}` } },
  );
  if (!result.json.data) throw new Error(JSON.stringify(result.json.errors));
  return (result.json.data['requestVideoToken'] as { token: string }).token;
}

/** A signalling client: joins, and answers the promise of the first message of a type. */
class Client {
  readonly socket: WebSocket;
  readonly messages: VideoServerMessage[] = [];
  #waiters: (() => void)[] = [];
  constructor(cookie: string) {
    this.socket = new WebSocket(`ws://127.0.0.1:${PORT}${VIDEO_SIGNAL_PATH}`, { headers: { cookie, origin: BASE } });
    this.socket.on('message', (data: Buffer) => {
      this.messages.push(JSON.parse(data.toString()) as VideoServerMessage);
      for (const wake of this.#waiters.splice(0)) wake();
    });
  }
  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
  }
  send(message: unknown): void {
    this.socket.send(JSON.stringify(message));
  }
  async next<T extends VideoServerMessage['type']>(type: T): Promise<Extract<VideoServerMessage, { type: T }>> {
    for (;;) {
      const found = this.messages.find((m): m is Extract<VideoServerMessage, { type: T }> => m.type === type);
      if (found) return found;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }
}

const { dataDir, env } = benchEnvironment('video');
try {
  console.log(`Starting the production server (data in ${dataDir})`);
  const server = await start(
    path.join(ROOT, 'apps/server/src/main.ts'),
    {
      ...env,
      PORT: String(PORT),
      HOST: '127.0.0.1',
      PUBLIC_URL: BASE,
      VIDEO_JOIN_EARLY_MINUTES: '120',
      VIDEO_JOIN_LATE_MINUTES: '240',
    },
    (line) => line.includes('is running at'),
  );

  // Video visits of the second demo provider with the demo patient, written straight to the table: quarter hours
  // from four hours ago to two hours ahead, so that each is open and none overlaps.
  const pgPort = fs.readFileSync(path.join(dataDir, 'pg-port'), 'utf8').trim();
  const pgPassword = fs.readFileSync(path.join(dataDir, 'pg-password'), 'utf8').trim();
  const db = new pg.Client({
    connectionString: `postgres://postgres:${encodeURIComponent(pgPassword)}@127.0.0.1:${pgPort}/postgres`,
  });
  await db.connect();
  const parsed = parseDataKeys(env.DATA_ENCRYPTION_KEY);
  if (!('keys' in parsed)) throw new Error('bad key');
  const keyring = new Keyring(parsed.keys);
  const ids = await db.query<{ provider: string; patient: string }>(`
    SELECT (SELECT id FROM users WHERE email = 'provider2@demo.test') AS provider,
           (SELECT id FROM patients WHERE account_id = (SELECT id FROM users WHERE email = 'patient@demo.test')) AS patient`);
  const { provider, patient } = ids.rows[0]!;
  await db.query(`DELETE FROM appointments WHERE provider_id = $1 OR patient_id = $2`, [provider, patient]);
  const base = Math.floor(Date.now() / 900_000) * 900_000;
  const appointmentIds: string[] = [];
  for (let k = -15; k < 8 && appointmentIds.length < CALLS + 1; k++) {
    const id = crypto.randomUUID();
    const starts = new Date(base + k * 900_000);
    const sealed = appointmentsEncrypted.seal(keyring, id, { reason: 'Benchmark visit' });
    await db.query(
      `INSERT INTO appointments (id, patient_id, provider_id, starts_at, ends_at, time_zone, duration, appointment_type, status, reason)
       VALUES ($1, $2, $3, $4, $5, 'America/New_York', 15, 'video', 'scheduled', $6)`,
      [id, patient, provider, starts, new Date(starts.getTime() + 900_000), sealed.reason],
    );
    appointmentIds.push(id);
  }
  await db.end();
  const providerCookie = await signIn('provider2@demo.test');
  const patientCookie = await signIn('patient@demo.test');

  // (1) Join to first remote frame.
  const browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    chromiumSandbox: false,
    args: [
      '--use-fake-device-for-media-stream',
      '--use-fake-ui-for-media-stream',
      '--allow-loopback-in-peer-connection',
      '--disable-gpu',
    ],
  });
  const contextFor = async (cookie: string) => {
    const context = await browser.newContext();
    const [name, value] = cookie.split('=') as [string, string];
    await context.addCookies([{ name, value, url: BASE }]);
    return context;
  };
  const visit = appointmentIds[0]!;
  const providerPage = await (await contextFor(providerCookie)).newPage();
  await providerPage.goto(`${BASE}/video-call/start/${visit}`);
  await providerPage.getByRole('button', { name: 'Start Video Call' }).click();
  // The first time the patient waits and is let in; afterwards a live visit lets them straight back.
  const patientContext = await contextFor(patientCookie);
  const first = await patientContext.newPage();
  await first.goto(`${BASE}/video-call/${visit}`);
  await first.getByRole('button', { name: 'Join Video Call' }).click();
  await providerPage.getByRole('button', { name: 'Let in' }).click();
  await first.getByTestId('remote-video').waitFor();
  await first.close();
  const joins: number[] = [];
  for (let i = 0; i < JOINS; i++) {
    const page = await patientContext.newPage();
    await page.goto(`${BASE}/video-call/${visit}`);
    await page.getByRole('button', { name: 'Check my devices' }).click();
    await page.getByTestId('local-video').waitFor();
    // In the page (a string: this file is checked without the DOM's types): click Join, then wait for the first
    // frame of the provider's picture.
    const ms = await page.evaluate<number>(`(async () => {
      const button = [...document.querySelectorAll('button')].find((b) => b.textContent.includes('Join Video Call'));
      const started = performance.now();
      button.click();
      const video = await new Promise((resolve) => {
        const look = () => {
          const found = document.querySelector('[data-testid="remote-video"]');
          if (found) resolve(found);
          else setTimeout(look, 5);
        };
        look();
      });
      await new Promise((resolve) => video.requestVideoFrameCallback(() => resolve()));
      return performance.now() - started;
    })()`);
    joins.push(ms);
    console.log(`join ${i + 1}: ${ms.toFixed(0)} ms`);
    await page.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  await browser.close();

  // (2) The server's cost per concurrent call.
  await new Promise((resolve) => setTimeout(resolve, 2_000));
  const before = processUsage(server.pid!);
  const started = Date.now();
  const clients: Client[] = [];
  for (const id of appointmentIds.slice(1, CALLS + 1)) {
    const doctor = new Client(providerCookie);
    const person = new Client(patientCookie);
    clients.push(doctor, person);
    await Promise.all([doctor.opened(), person.opened()]);
    doctor.send({ type: 'join', token: await token(providerCookie, id), pageId: crypto.randomUUID() });
    const me = (await doctor.next('joined')).self.peerId;
    person.send({ type: 'join', token: await token(patientCookie, id), pageId: crypto.randomUUID() });
    const them = (await person.next('joined')).self.peerId;
    doctor.send({ type: 'admit', peerId: them });
    await person.next('admitted');
    doctor.send({ type: 'signal', to: them, data: { description: { type: 'offer', sdp: SDP } } });
    await person.next('signal');
    person.send({ type: 'signal', to: me, data: { description: { type: 'answer', sdp: SDP } } });
    for (let c = 0; c < 10; c++) {
      const candidate = {
        candidate: `candidate:${c} 1 udp 2122260223 127.0.0.1 ${50_000 + c} typ host`,
        sdpMid: '0',
        sdpMLineIndex: 0,
      };
      doctor.send({ type: 'signal', to: them, data: { candidate } });
      person.send({ type: 'signal', to: me, data: { candidate } });
    }
  }
  const pings = setInterval(() => clients.forEach((c) => c.send({ type: 'ping' })), 20_000);
  await new Promise((resolve) => setTimeout(resolve, HOLD_SECONDS * 1000));
  clearInterval(pings);
  const after = processUsage(server.pid!);
  const seconds = (Date.now() - started) / 1000;
  const perCallCpuMs = (after.cpuMs - before.cpuMs) / CALLS;
  const perCallMiB = (after.rssMiB - before.rssMiB) / CALLS;
  clients.forEach((c) => c.socket.close());

  const median = percentile(joins, 50);
  const p95 = percentile(joins, 95);
  console.log(`join to first remote frame: median ${median.toFixed(0)} ms, p95 ${p95.toFixed(0)} ms over ${JOINS}`);
  console.log(
    `${CALLS} calls for ${seconds.toFixed(0)} s: server CPU ${(after.cpuMs - before.cpuMs).toFixed(0)} ms (${perCallCpuMs.toFixed(1)} ms per call), RSS ${before.rssMiB.toFixed(0)} -> ${after.rssMiB.toFixed(0)} MiB (${perCallMiB.toFixed(2)} MiB per call)`,
  );
  if (!SMOKE) {
    const cpuInfo = os.cpus();
    const section = `## Video visits (\`npm run bench:video\`)

Measured ${new Date().toISOString().slice(0, 10)} on ${cpuInfo.length} × ${cpuInfo[0]?.model.trim() ?? 'unknown CPU'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}, the embedded PostgreSQL, headless Chromium with fake devices, all on loopback.

| Measure | Figure |
| --- | --- |
| Join to first remote frame (a patient joins a visit the provider is in), median over ${JOINS} | ${median.toFixed(0)} ms |
| Join to first remote frame, p95 | ${p95.toFixed(0)} ms |
| Server CPU for ${CALLS} concurrent calls over ${seconds.toFixed(0)} s (set-up, offer, answer, 10 candidates each way, presence pings) | ${(after.cpuMs - before.cpuMs).toFixed(0)} ms, ${perCallCpuMs.toFixed(1)} ms per call |
| Server memory (RSS) before and with ${CALLS} calls | ${before.rssMiB.toFixed(0)} → ${after.rssMiB.toFixed(0)} MiB, ${perCallMiB.toFixed(2)} MiB per call |

Reading: the join time counts the click on Join to the first decoded frame of the provider's picture: the token
request, the socket, the server's join (one transaction: presence, audit, messages through \`video_signals\`), the
offer and answer relayed through PostgreSQL, ICE on loopback and the first key frame. The server carries
signalling and presence only (media goes browser to browser, or through TURN), so its cost per call is a few
database round trips at set-up and a ping every 20 s: the CPU figure is almost all set-up. The embedded
PostgreSQL's own processes are not counted in the server's CPU.
`;
    writeSection(path.join(ROOT, 'docs/performance.md'), '## Video visits', section);
    console.log('Wrote the Video visits section of docs/performance.md');
  }
} finally {
  await stopChildren();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
