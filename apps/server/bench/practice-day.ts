// npm run bench:day -- [--target URL] [--providers N] [--seconds S] [--search] [--smoke]
//
// A practice's day under load (issue 29, point 4; docs/performance.md, "A practice's day"). Every provider and
// patient is a virtual user that signs in through the GraphQL sign-in and sends what the web app's screens send
// (the documents are read from apps/web/src, so the load follows the screens), with think time between actions; an
// administrator searches the audit trail. Reports p50/p95/p99 and errors per operation, and the RSS and V8 heap of
// the server process(es). `--search` adds providers step by step until an operation's p95 passes 300 ms or errors
// appear, and prints the largest N that held. Without `--target` it starts one production-mode instance on an
// embedded PostgreSQL in a temporary folder; with it, the practice must run in demo mode (the accounts are made
// through the administrator's invitations, read back from the demo outbox).
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { WebSocket } from 'ws';
import {
  addDays,
  DEMO_PASSWORD,
  MESSAGE_ATTACHMENT_NAME_HEADER,
  MESSAGE_ATTACHMENTS_PATH,
  todayIn,
  VIDEO_SIGNAL_PATH,
  type VideoServerMessage,
} from '@telehealth/shared';
import { webOperations } from '../test/web-operations.ts';
import { benchEnvironment, ROOT, start, stopChildren } from './bench-kit.ts';

const { values: args } = parseArgs({
  options: {
    target: { type: 'string' },
    // Two or more instances on one PostgreSQL behind HAProxy (e2e/support/cluster.ts), started here.
    cluster: { type: 'string' },
    providers: { type: 'string', default: '2' },
    patients: { type: 'string', default: '25' },
    seconds: { type: 'string', default: '60' },
    search: { type: 'boolean', default: false },
    step: { type: 'string', default: '2' },
    max: { type: 'string', default: '64' },
    smoke: { type: 'boolean', default: false },
    // The server processes to sample (RSS from /proc) and their own addresses (V8 heap from /metrics), when the
    // target is not started here: for example the instances behind a load balancer.
    pids: { type: 'string' },
    instances: { type: 'string' },
    pace: { type: 'string', default: '1' },
  },
});

const SMOKE = args.smoke;
const PATIENTS_PER_PROVIDER = SMOKE ? 3 : Number(args.patients);
const SECONDS = SMOKE ? 10 : Number(args.seconds);
/** Multiplies every think time: 2 is a calmer day, 0.5 a busier one. */
let pace = SMOKE ? 0.1 : Number(args.pace);
const P95_LIMIT_MS = 300;
const USER_PASSWORD = 'Bench-Day-Pass-2026!';
const PORT = Number(process.env.BENCH_PORT ?? 3740);

// ---------------------------------------------------------------------------------------------------------------
// The web app's documents, by operation name (an unnamed one by its first field).

const documents = new Map<string, string>();
const named = new Set<string>();
for (const { document } of webOperations()) {
  const operationName = /^\s*(?:query|mutation)\s+(\w+)/.exec(document)?.[1];
  const name = operationName ?? /^\s*\{\s*(\w+)/.exec(document)?.[1];
  if (!name || documents.has(name)) continue;
  documents.set(name, document);
  if (operationName) named.add(name);
}
function documentOf(name: string): string {
  const document = documents.get(name);
  if (!document) throw new Error(`the web app sends no operation named ${name}`);
  return document;
}

// ---------------------------------------------------------------------------------------------------------------
// Measurements.

interface OperationStats {
  samples: number[];
  errors: number;
  /** Refusals the product gives by design in a busy day (a time another patient just took), by code. */
  refusals: number;
  codes: Map<string, number>;
}
const stats = new Map<string, OperationStats>();
function statsOf(operation: string): OperationStats {
  let entry = stats.get(operation);
  if (!entry) stats.set(operation, (entry = { samples: [], errors: 0, refusals: 0, codes: new Map() }));
  return entry;
}
/**
 * Answers a busy day gives without anything being wrong: two patients asking for the same free time at once (the
 * second is told the provider is busy then), or a time that overlaps the patient's own other visit.
 */
const REFUSALS: Record<string, string[]> = {
  BookAppointment: ['PROVIDER_BUSY', 'PATIENT_BUSY'],
  RescheduleMyAppointment: ['PROVIDER_BUSY', 'PATIENT_BUSY'],
};
function recordError(operation: string, code: string): void {
  const entry = statsOf(operation);
  if (REFUSALS[operation]?.includes(code)) entry.refusals++;
  else entry.errors++;
  entry.codes.set(code, (entry.codes.get(code) ?? 0) + 1);
}
function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;
}

class RequestFailed extends Error {}
/** The first answer of each operation and error code, shown with the report (what went wrong, not just how often). */
const firstMessages = new Map<string, string>();

// ---------------------------------------------------------------------------------------------------------------
// A person's browser: a cookie jar, the same origin as the site, each call timed under its operation's name.

class Browser {
  readonly #cookies = new Map<string, string>();
  readonly base: string;
  constructor(base: string) {
    this.base = base;
  }

  get cookie(): string {
    return [...this.#cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  #keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair!.indexOf('=');
      this.#cookies.set(pair!.slice(0, at).trim(), pair!.slice(at + 1).trim());
    }
  }

  /** Sends the web app's operation `name`; answers its data, or throws after recording the error. */
  async op<T = Record<string, unknown>>(name: string, variables: Record<string, unknown> = {}): Promise<T> {
    const started = performance.now();
    let code = 'NETWORK';
    try {
      const response = await fetch(`${this.base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: this.base, cookie: this.cookie },
        body: JSON.stringify({
          query: documentOf(name),
          variables,
          ...(named.has(name) ? { operationName: name } : {}),
        }),
      });
      this.#keep(response);
      const body = (await response.json()) as {
        data?: T | null;
        errors?: { message?: string; extensions?: { code?: string } }[];
      };
      const elapsed = performance.now() - started;
      statsOf(name).samples.push(elapsed);
      if (body.errors?.length || !body.data || !response.ok) {
        code = body.errors?.[0]?.extensions?.code ?? `HTTP_${response.status}`;
        if (!firstMessages.has(`${name} ${code}`))
          firstMessages.set(`${name} ${code}`, JSON.stringify(body.errors?.[0]));
        throw new RequestFailed(code);
      }
      return body.data;
    } catch (error) {
      if (!(error instanceof RequestFailed)) statsOf(name).samples.push(performance.now() - started);
      recordError(name, error instanceof RequestFailed ? error.message : code);
      throw error instanceof RequestFailed ? error : new RequestFailed(code);
    }
  }

  /** Several operations at once, as a screen sends them when it opens; failures are recorded, not thrown. */
  async screen(calls: [string, Record<string, unknown>?][]): Promise<void> {
    await Promise.allSettled(calls.map(([name, variables]) => this.op(name, variables)));
  }

  async signIn(email: string, password: string): Promise<string> {
    const { signIn } = await this.op<{ signIn: { success: boolean; user: { userId: string } | null } }>('SignIn', {
      email,
      password,
    });
    if (!signIn.success || !signIn.user) {
      recordError('SignIn', 'REFUSED');
      throw new RequestFailed(`cannot sign in ${email}`);
    }
    return signIn.user.userId;
  }

  /** The attachment upload of a message (plain HTTP with the session cookie, as the composer sends it). */
  async upload(bytes: Buffer<ArrayBuffer>, fileName: string): Promise<string> {
    const name = 'uploadMessageAttachment';
    const started = performance.now();
    try {
      const response = await fetch(`${this.base}${MESSAGE_ATTACHMENTS_PATH}`, {
        method: 'POST',
        headers: {
          'content-type': 'image/png',
          origin: this.base,
          cookie: this.cookie,
          [MESSAGE_ATTACHMENT_NAME_HEADER]: encodeURIComponent(fileName),
        },
        body: bytes,
      });
      const body = (await response.json()) as { id?: string };
      statsOf(name).samples.push(performance.now() - started);
      if (response.status !== 201 || !body.id) throw new RequestFailed(`HTTP_${response.status}`);
      return body.id;
    } catch (error) {
      const code = error instanceof RequestFailed ? error.message : 'NETWORK';
      recordError(name, code);
      throw new RequestFailed(code);
    }
  }

  /** The signalling socket of a video visit, joined with a fresh token. */
  async joinVideo(appointmentId: string): Promise<Signalling> {
    const { requestVideoToken } = await this.op<{ requestVideoToken: { token: string } }>('RequestVideoToken', {
      input: { identity: 'Bench', room: `telehealth-room-${appointmentId}` },
    });
    const started = performance.now();
    const socket = new Signalling(
      new WebSocket(`${this.base.replace(/^http/, 'ws')}${VIDEO_SIGNAL_PATH}`, {
        headers: { cookie: this.cookie, origin: this.base },
      }),
    );
    try {
      await socket.opened();
      socket.send({ type: 'join', token: requestVideoToken.token, pageId: randomUUID() });
      const joined = await socket.next('joined');
      socket.peerId = joined.self.peerId;
      statsOf('video: socket and join').samples.push(performance.now() - started);
      return socket;
    } catch (error) {
      socket.close();
      const code = error instanceof Error ? error.message.slice(0, 40) : 'FAILED';
      recordError('video: socket and join', code);
      throw new RequestFailed(code);
    }
  }
}

/** A video visit's signalling socket: answers the first message of a type, within 10 s. */
class Signalling {
  readonly #messages: VideoServerMessage[] = [];
  #waiters: (() => void)[] = [];
  peerId = '';
  readonly socket: WebSocket;
  constructor(socket: WebSocket) {
    this.socket = socket;
    socket.on('message', (data: Buffer) => {
      this.#messages.push(JSON.parse(data.toString()) as VideoServerMessage);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    socket.on('close', () => this.#waiters.splice(0).forEach((wake) => wake()));
    socket.on('error', () => undefined);
  }
  opened(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
      this.socket.once('unexpected-response', (_request, response) =>
        reject(new Error(`SOCKET_HTTP_${response.statusCode}`)),
      );
    });
  }
  send(message: unknown): void {
    if (this.socket.readyState === this.socket.OPEN) this.socket.send(JSON.stringify(message));
  }
  async next<T extends VideoServerMessage['type']>(type: T): Promise<Extract<VideoServerMessage, { type: T }>> {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const index = this.#messages.findIndex((m) => m.type === type);
      if (index !== -1) return this.#messages.splice(index, 1)[0] as Extract<VideoServerMessage, { type: T }>;
      const ended = this.#messages.find((m) => m.type === 'ended');
      if (ended) throw new Error(`ENDED_${(ended as { reason?: string }).reason ?? ''}`);
      if (this.socket.readyState >= this.socket.CLOSING) throw new Error('SOCKET_CLOSED');
      if (Date.now() > deadline) throw new Error(`NO_${type.toUpperCase()}`);
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 500).unref();
      });
    }
  }
  /** Waits for the visit's end (the server says `ended`, or closes the socket), 10 s at most. */
  async ended(): Promise<void> {
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline) {
      if (this.#messages.some((m) => m.type === 'ended') || this.socket.readyState >= this.socket.CLOSING) return;
      await new Promise<void>((resolve) => {
        this.#waiters.push(resolve);
        setTimeout(resolve, 500).unref();
      });
    }
    throw new Error('NO_ENDED');
  }
  close(): void {
    this.socket.close();
  }
}

// ---------------------------------------------------------------------------------------------------------------
// The practice: its people, made through the product's own API.

interface Patient {
  email: string;
  recordId: string;
  browser: Browser;
  signedIn: boolean;
  /** The visit this patient booked online and may move. */
  booked: string | null;
  /** In a video visit with their provider (not signing out meanwhile). */
  inVisit: boolean;
}
interface Provider {
  email: string;
  userId: string;
  browser: Browser;
  patients: Patient[];
  /** The minute (since the epoch) of this provider's last See now. */
  lastSeeNowMinute: number;
}

let serial = 0;
/** Letters only (the name rules refuse digits), unique in this run. */
function letters(n: number): string {
  let out = '';
  do {
    out = String.fromCharCode(97 + (n % 26)) + out;
    n = Math.floor(n / 26);
  } while (n > 0);
  return out;
}
const RUN = letters(Date.now() % 26 ** 5);

interface Practice {
  base: string;
  zone: string;
  admin: Browser;
  adminEmail: string;
  providers: Provider[];
}

/** The newest invitation's token for `email` in the demo outbox. */
async function invitationToken(admin: Browser, email: string): Promise<string> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const { listOutbox } = await admin.op<{
      listOutbox: { items: { to: string; kind: string; text: string | null }[] };
    }>('ListOutbox', { limit: 50 });
    const mail = listOutbox.items.find((item) => item.to === email && item.kind === 'invitation');
    const token = /\/invite#([^\s]+)/.exec(mail?.text ?? '')?.[1];
    if (token) return token;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no invitation to ${email} in the outbox`);
}

/** An account through the administrator's invitation, accepted with USER_PASSWORD (as a new person does). */
async function invite(practice: Practice, input: Record<string, unknown> & { email: string }): Promise<void> {
  await practice.admin.op('InviteUser', { input });
  const token = await invitationToken(practice.admin, input.email);
  const { acceptInvitation } = await new Browser(practice.base).op<{ acceptInvitation: { success: boolean } }>(
    'AcceptInvitation',
    { token, password: USER_PASSWORD },
  );
  if (!acceptInvitation.success) throw new Error(`invitation of ${input.email} not accepted`);
}

/** Runs `work` over `items`, `width` at a time. */
async function inBatches<T>(items: T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  for (let i = 0; i < items.length; i += width) await Promise.all(items.slice(i, i + width).map(work));
}

async function addProvider(practice: Practice): Promise<Provider> {
  const n = serial++;
  const email = `day.provider.${RUN}.${letters(n)}@bench.test`;
  await invite(practice, {
    role: 'provider',
    email,
    firstName: 'Dana',
    lastName: `Day${letters(n)}`,
    specialty: 'Psychiatry',
  });
  const browser = new Browser(practice.base);
  const userId = await browser.signIn(email, USER_PASSWORD);
  const provider: Provider = { email, userId, browser, patients: [], lastSeeNowMinute: 0 };
  const records: { id: string; email: string }[] = [];
  for (let k = 0; k < PATIENTS_PER_PROVIDER; k++) {
    const tag = `${letters(n)}x${letters(k)}`;
    const patientEmail = `day.patient.${RUN}.${tag}@bench.test`;
    const { createPatient } = await browser.op<{ createPatient: { id: string } }>('CreatePatient', {
      input: { firstName: 'Riley', lastName: `Day${tag}`, email: patientEmail, dateOfBirth: '1984-05-06' },
    });
    records.push({ id: createPatient.id, email: patientEmail });
  }
  await inBatches(records, 4, async (record) => {
    await invite(practice, { role: 'patient', email: record.email, patientId: record.id });
    // A PHQ-9 waiting for every patient, as a provider sends one before a visit.
    await browser.op('SendQuestionnaire', { input: { patientId: record.id, instrument: 'phq9' } });
    provider.patients.push({
      email: record.email,
      recordId: record.id,
      browser: new Browser(practice.base),
      signedIn: false,
      booked: null,
      inVisit: false,
    });
  });
  practice.providers.push(provider);
  return provider;
}

// ---------------------------------------------------------------------------------------------------------------
// The day's mix. Think times are drawn from an exponential distribution around each role's mean (seconds).

/**
 * provider: between two things a provider does; patient: between two things a patient does once signed in;
 * patientAway: between a patient's visits to the portal; admin: between two audit searches.
 */
const THINK = { provider: 10, patient: 20, patientAway: 120, admin: 30 } as const;
let running = false;

function think(meanSeconds: number): Promise<void> {
  const ms = -Math.log(1 - Math.random()) * meanSeconds * 1000 * pace;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      if (!running || performance.now() >= until) {
        clearInterval(timer);
        resolve();
      }
    }, 250);
    const until = performance.now() + ms;
  });
}
function pick<T>(items: readonly T[]): T {
  return items[Math.floor(Math.random() * items.length)]!;
}
/** One of `tasks` drawn by weight. */
function weighted<T>(tasks: readonly (readonly [number, T])[]): T {
  const total = tasks.reduce((sum, [weight]) => sum + weight, 0);
  let r = Math.random() * total;
  for (const [weight, task] of tasks) if ((r -= weight) < 0) return task;
  return tasks[tasks.length - 1]![1];
}
/** Swallows a failed call (already recorded): a person who sees an error moves on. */
async function attempt(work: () => Promise<unknown>): Promise<void> {
  try {
    await work();
  } catch (error) {
    if (!(error instanceof RequestFailed) && !(error instanceof Error && /^(NO_|ENDED_|SOCKET_)/.test(error.message)))
      throw error;
  }
}

function weekday(from: string, days: number): string {
  let date = addDays(from, days);
  while ([0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay())) date = addDays(date, 1);
  return date;
}
/** Monday of the week of `date`. */
function monday(date: string): string {
  const day = new Date(`${date}T12:00:00Z`).getUTCDay();
  return addDays(date, -((day + 6) % 7));
}

const PHQ9_ANSWERS = () => Array.from({ length: 9 }, () => Math.floor(Math.random() * 3));
// A 1x1 PNG: a photo of a rash, a scanned letter (the content decides the type; the server reads its first bytes).
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

async function providerDashboard(practice: Practice, provider: Provider): Promise<void> {
  const today = todayIn(practice.zone);
  await provider.browser.screen([
    ['CurrentUser'],
    ['SafetyAlerts', { patientId: null }],
    ['VideoWaitingRoom'],
    ['ListAppointments', { filter: { from: today, to: today }, limit: 100, nextToken: null }],
    ['ListAppointments', { filter: { from: today, to: addDays(today, 366), status: ['pending'] }, limit: 100 }],
    ['PracticeOutcomes', { input: { startDate: addDays(today, -365), endDate: today, instrument: 'phq9' } }],
    ['PracticeOutcomes', { input: { startDate: addDays(today, -365), endDate: today, instrument: 'gad7' } }],
    ['treatmentPlansDueForReview'],
    ['UnreadMessageCount'],
  ]);
}

async function providerCalendarWeek(practice: Practice, provider: Provider): Promise<void> {
  const from = monday(todayIn(practice.zone));
  await provider.browser.screen([['VideoWaitingRoom'], ['PracticeHours'], ['UnreadMessageCount']]);
  const { listAppointments } = await provider.browser.op<{ listAppointments: { items: { patientId: string }[] } }>(
    'ListAppointments',
    { filter: { from, to: addDays(from, 6) }, limit: 100, nextToken: null },
  );
  const ids = [...new Set(listAppointments.items.map((item) => item.patientId))];
  if (ids.length > 0) await provider.browser.op('PatientReadiness', { patientIds: ids });
}

/** Opens a patient's chart, then writes the visit's note and signs it (the signature asks for the password). */
async function providerVisit(practice: Practice, provider: Provider): Promise<void> {
  const patientId = pick(provider.patients).recordId;
  const today = todayIn(practice.zone);
  const p = { patientId };
  await provider.browser.screen([
    ['MyEmergencyAccess', p],
    ['PatientChart', { id: patientId }],
    ['UnreadMessageCount'],
    ['PatientReadiness', { patientIds: [patientId] }],
    ['SafetyAlerts', p],
    ['RecordCorrections', p],
    ['PatientIntake', p],
    ['PatientDiagnoses', p],
    ['PatientAllergies', p],
    ['PatientMedications', { patientId, forPrint: false }],
    ['TreatmentPlan', p],
    ['QuestionnaireResults', p],
    ['ListAppointments', { filter: { from: addDays(today, -365), to: addDays(today, 366), patientId }, limit: 100 }],
    ['QuestionnaireSchedules', p],
    ['PatientPracticeDocuments', p],
    ['Conversations', { nextToken: null, filter: { archived: false, patientId } }],
    ['NoteTemplates'],
    ['NoteAppointments', { filter: { patientId } }],
    ['ListNotes', { limit: 24, nextToken: null, filter: { search: null, category: null, priority: null, patientId } }],
  ]);
  await think(THINK.provider);
  const { createNote } = await provider.browser.op<{ createNote: { id: string } }>('CreateNote', {
    input: {
      title: 'Follow-up visit',
      content:
        'Mood improved since the last visit; sleeping six to seven hours. Continues the current dose. Reviewed the PHQ-9 with the patient. Plan: follow up in four weeks.',
      category: 'medical',
      tags: ['follow-up'],
      patientId,
    },
  });
  await provider.browser.op('SignNote', { input: { id: createNote.id, password: USER_PASSWORD } });
}

/** Reads the inbox and answers the first conversation with something unread. */
async function providerMessages(provider: Provider): Promise<void> {
  const { conversations } = await provider.browser.op<{
    conversations: { items: { id: string; unreadCount: number }[] };
  }>('Conversations', { nextToken: null, filter: { archived: false } });
  await provider.browser.op('UnreadMessageCount');
  const unread = conversations.items.find((c) => c.unreadCount > 0) ?? conversations.items[0];
  if (!unread) return;
  await provider.browser.op('Conversation', { id: unread.id });
  await provider.browser.op('MarkConversationRead', { id: unread.id });
  await think(THINK.provider / 2);
  await provider.browser.op('SendMessage', {
    input: { conversationId: unread.id, body: 'Thank you, I have read it. Let us talk about it at the next visit.' },
  });
}

/** A video visit seen now (decision 047): the provider starts it with a patient who is signed in, opens the room, the
 * patient joins and is let in, the two pages exchange an offer, an answer and a few candidates through the server,
 * and the provider ends it. */
async function videoVisit(practice: Practice, provider: Provider): Promise<void> {
  const patient = provider.patients.find((p) => p.signedIn && !p.inVisit);
  // See now starts a visit at this minute, and a visit completed that started in the same minute is still in its
  // way (PROVIDER_BUSY): a person does not see two patients in one minute, nor does this provider.
  const minute = Math.floor(Date.now() / 60_000);
  if (!patient || provider.lastSeeNowMinute >= minute - 1) return;
  provider.lastSeeNowMinute = minute;
  patient.inVisit = true;
  try {
    await seeNowVisit(provider, patient);
  } finally {
    patient.inVisit = false;
  }
  await providerCalendarWeek(practice, provider);
}

async function seeNowVisit(provider: Provider, patient: Patient): Promise<void> {
  const { seeNow } = await provider.browser.op<{ seeNow: { id: string } }>('SeeNow', {
    input: { patientId: patient.recordId, reason: 'Follow-up' },
  });
  const visit = { appointmentId: seeNow.id };
  const doctor = await provider.browser.joinVideo(visit.appointmentId);
  let person: Signalling | null = null;
  try {
    person = await patient.browser.joinVideo(visit.appointmentId);
    const started = performance.now();
    doctor.send({ type: 'admit', peerId: person.peerId });
    await person.next('admitted');
    const sdp = 'v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\n';
    doctor.send({ type: 'signal', to: person.peerId, data: { description: { type: 'offer', sdp } } });
    await person.next('signal');
    person.send({ type: 'signal', to: doctor.peerId, data: { description: { type: 'answer', sdp } } });
    await doctor.next('signal');
    for (let c = 0; c < 4; c++) {
      const candidate = { candidate: `candidate:${c} 1 udp 2122260223 127.0.0.1 ${50_000 + c} typ host`, sdpMid: '0' };
      doctor.send({ type: 'signal', to: person.peerId, data: { candidate } });
      person.send({ type: 'signal', to: doctor.peerId, data: { candidate } });
    }
    statsOf('video: admit, offer, answer').samples.push(performance.now() - started);
    await think(THINK.provider);
    person.send({ type: 'ping' });
    doctor.send({ type: 'ping' });
    doctor.send({ type: 'end' });
    await person.ended();
    await doctor.ended();
  } catch (error) {
    recordError('video: admit, offer, answer', error instanceof Error ? error.message.slice(0, 40) : 'FAILED');
  } finally {
    person?.close();
    doctor.close();
  }
}

async function providerDay(practice: Practice, provider: Provider): Promise<void> {
  // Signed in at the start of the day (in setup); the day opens on the dashboard.
  await attempt(() => provider.browser.screen([['AppConfig'], ['MyAccount']]));
  await attempt(() => providerDashboard(practice, provider));
  while (running) {
    await think(THINK.provider);
    if (!running) break;
    const task = weighted<() => Promise<unknown>>([
      [3, () => providerVisit(practice, provider)],
      [2, () => providerCalendarWeek(practice, provider)],
      [2, () => providerMessages(provider)],
      [1, () => providerDashboard(practice, provider)],
      [
        1,
        () =>
          provider.browser.op('SendQuestionnaire', {
            input: { patientId: pick(provider.patients).recordId, instrument: 'phq9' },
          }),
      ],
      [1, () => videoVisit(practice, provider)],
    ] as const);
    await attempt(task);
  }
}

async function patientDashboard(practice: Practice, patient: Patient): Promise<void> {
  const today = todayIn(practice.zone);
  await patient.browser.screen([
    ['CurrentUser'],
    ['MyFirstVisitChecklist'],
    ['MyQuestionnaires'],
    ['ListAppointments', { filter: { from: addDays(today, -365), to: addDays(today, 366) }, limit: 100 }],
    ['UnreadMessageCount'],
  ]);
}

/** Books a visit online, or moves the one booked before to another free time. */
async function patientBooking(practice: Practice, patient: Patient): Promise<void> {
  const today = todayIn(practice.zone);
  await patient.browser.screen([['BookingPolicy'], ['UnreadMessageCount']]);
  const date = weekday(today, 2 + Math.floor(Math.random() * 20));
  const { myAvailableSlots } = await patient.browser.op<{ myAvailableSlots: { time: string; available: boolean }[] }>(
    'MyAvailableSlots',
    { date },
  );
  const free = myAvailableSlots.filter((slot) => slot.available);
  if (free.length === 0) return;
  const time = pick(free).time;
  if (patient.booked) {
    await patient.browser.op('RescheduleMyAppointment', { input: { id: patient.booked, date, time } });
  } else {
    const { bookAppointment } = await patient.browser.op<{ bookAppointment: { id: string } }>('BookAppointment', {
      input: { appointmentType: 'video', date, time, reason: 'Follow-up' },
    });
    patient.booked = bookAppointment.id;
  }
}

/** A message to the care team with a photo attached. */
async function patientMessage(patient: Patient): Promise<void> {
  const { conversations } = await patient.browser.op<{ conversations: { items: { id: string }[] } }>('Conversations', {
    nextToken: null,
    filter: { archived: false },
  });
  await think(THINK.patient / 6);
  const attachmentId = await patient.browser.upload(PNG, 'photo.png');
  const body = 'I have attached the photo you asked for. The new dose makes me a little dizzy in the morning.';
  const existing = conversations.items[0];
  if (existing && Math.random() < 0.6) {
    await patient.browser.op('Conversation', { id: existing.id });
    await patient.browser.op('SendMessage', {
      input: { conversationId: existing.id, body, attachmentIds: [attachmentId] },
    });
  } else {
    await patient.browser.op('StartConversation', {
      input: {
        patientId: patient.recordId,
        kind: 'clinical',
        subject: 'Side effects',
        body,
        attachmentIds: [attachmentId],
      },
    });
  }
}

async function patientQuestionnaire(patient: Patient): Promise<void> {
  const { myQuestionnaires } = await patient.browser.op<{
    myQuestionnaires: { id: string; instrument: string; status: string }[];
  }>('MyQuestionnaires');
  const pending = myQuestionnaires.find((q) => q.instrument === 'phq9' && q.status === 'pending');
  if (!pending) return;
  await think(THINK.patient / 4);
  await patient.browser.op('SubmitQuestionnaire', {
    input: { id: pending.id, answers: PHQ9_ANSWERS(), difficulty: 1 },
  });
}

/**
 * A patient's day: away from the portal, then a visit to it (sign in, the dashboard, one or two things to do),
 * signing out at the end, as a patient does on a shared computer; again later.
 */
async function patientDay(practice: Practice, patient: Patient): Promise<void> {
  while (running) {
    await think(THINK.patientAway);
    if (!running) break;
    if (!patient.signedIn) {
      try {
        await patient.browser.signIn(patient.email, USER_PASSWORD);
        patient.signedIn = true;
        await patient.browser.screen([['AppConfig'], ['MyAccount']]);
      } catch {
        continue;
      }
      await attempt(() => patientDashboard(practice, patient));
    }
    for (let tasks = Math.random() < 0.5 ? 1 : 2; tasks > 0 && running; tasks--) {
      await think(THINK.patient);
      if (!running) break;
      const task = weighted([
        [1, () => patientDashboard(practice, patient)],
        [2, () => patientBooking(practice, patient)],
        [2, () => patientMessage(patient)],
        [2, () => patientQuestionnaire(patient)],
      ] as const);
      await attempt(task);
    }
    // Not while their provider has them in a video visit.
    while (patient.inVisit) await new Promise((resolve) => setTimeout(resolve, 250));
    if (!running) break;
    await attempt(() => patient.browser.op('SignOut'));
    patient.signedIn = false;
  }
}

async function adminDay(practice: Practice): Promise<void> {
  const admin = practice.admin;
  while (running) {
    await think(THINK.admin);
    if (!running) break;
    const provider = pick(practice.providers);
    // The screen's date fields send the start and end of the days chosen, as instants.
    const monthAgo = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const now = new Date().toISOString();
    const blank: Record<string, string | null> = {
      from: null,
      to: null,
      person: null,
      event: null,
      level: null,
      source: null,
      patientId: null,
      text: null,
    };
    const filter = weighted([
      [1, blank],
      [2, { ...blank, person: provider.email, from: monthAgo, to: now }],
      [2, { ...blank, patientId: pick(provider.patients).recordId }],
      [1, { ...blank, event: 'NOTE_SIGN', from: monthAgo, to: now }],
    ]);
    await attempt(async () => {
      await admin.screen([['LatestAuditVerification'], ['UnreadMessageCount']]);
      const { auditEntries } = await admin.op<{ auditEntries: { nextCursor: string | null } }>('AuditEntries', {
        filter,
        first: 50,
        after: null,
      });
      if (auditEntries.nextCursor && Math.random() < 0.5) {
        await admin.op('AuditEntries', { filter, first: 50, after: auditEntries.nextCursor });
      }
    });
  }
}

// ---------------------------------------------------------------------------------------------------------------
// Memory of the server process(es).

/** Whose CPU time counts as the server side: these processes and their descendants, less `exclude`. */
interface CpuRoots {
  roots: number[];
  exclude: number[];
}
interface Instance {
  pid: number | null;
  metricsUrl: string | null;
}
interface MemorySample {
  rssMiB: number[];
  heapMiB: number[];
}
function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
}
async function heapMiB(url: string): Promise<number> {
  const text = await (await fetch(url)).text();
  return Number(/^nodejs_heap_size_used_bytes (\d+)/m.exec(text)?.[1] ?? Number.NaN) / 2 ** 20;
}
/**
 * The CPU time (ms) used so far by the processes under `roots` (each root and its descendants, as /proc lists them
 * now): the server instances with their embedded PostgreSQL, or HAProxy and the shared PostgreSQL. A steadier
 * measure than latency on a shared machine: capacity is about the cores over the CPU time per request.
 */
function treeCpuMs(roots: number[], exclude: number[] = []): number {
  const parents = new Map<number, number>();
  const ticks = new Map<number, number>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parents.set(Number(entry), Number(fields[1]));
      ticks.set(Number(entry), Number(fields[11]) + Number(fields[12]));
    } catch {
      // The process ended meanwhile.
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p: number | undefined = pid; p && p > 1; p = parents.get(p)) if (roots.includes(p)) return true;
    return false;
  };
  let total = 0;
  for (const [pid, t] of ticks) if (!exclude.includes(pid) && inTree(pid)) total += t;
  return total * 10; // clock ticks of 10 ms
}

function sampleMemory(instances: Instance[]): { stop: () => MemorySample[] } {
  const samples: MemorySample[] = instances.map(() => ({ rssMiB: [], heapMiB: [] }));
  const take = () =>
    instances.forEach((instance, i) => {
      if (instance.pid) samples[i]!.rssMiB.push(rssMiB(instance.pid));
      if (instance.metricsUrl)
        void heapMiB(instance.metricsUrl).then(
          (value) => samples[i]!.heapMiB.push(value),
          () => undefined,
        );
    });
  take();
  const timer = setInterval(take, 2000);
  return {
    stop: () => {
      clearInterval(timer);
      return samples;
    },
  };
}

// ---------------------------------------------------------------------------------------------------------------
// One step: every person's day for SECONDS, then the report.

interface StepResult {
  providers: number;
  patients: number;
  loadavg: string;
  rows: {
    operation: string;
    count: number;
    p50: number;
    p95: number;
    p99: number;
    errors: number;
    refusals: number;
    codes: string;
  }[];
  memory: MemorySample[];
  worstP95: { operation: string; p95: number };
  errors: number;
  all: { count: number; p50: number; p95: number; p99: number };
  /** CPU seconds of the server side (instances, PostgreSQL, HAProxy) and of this load generator during the step. */
  serverCpuS: number;
  generatorCpuS: number;
}

/** The smoke run's first part: every task of every role once, one after another, so each is known to work. */
async function tour(practice: Practice): Promise<void> {
  running = true;
  const provider = practice.providers[0]!;
  for (const patient of provider.patients) {
    await patient.browser.signIn(patient.email, USER_PASSWORD);
    patient.signedIn = true;
  }
  const patient = provider.patients[0]!;
  const tasks: [string, () => Promise<unknown>][] = [
    ['provider dashboard', () => providerDashboard(practice, provider)],
    ['provider calendar week', () => providerCalendarWeek(practice, provider)],
    ['patient dashboard', () => patientDashboard(practice, patient)],
    ['patient booking', () => patientBooking(practice, patient)],
    ['patient rescheduling', () => patientBooking(practice, patient)],
    ['patient message', () => patientMessage(patient)],
    ['patient PHQ-9', () => patientQuestionnaire(patient)],
    ['provider visit and note', () => providerVisit(practice, provider)],
    ['provider messages', () => providerMessages(provider)],
    ['video visit', () => videoVisit(practice, provider)],
  ];
  const savedPace = pace;
  pace = 0.01;
  for (const [name, task] of tasks) {
    const before = [...stats.values()].reduce((sum, entry) => sum + entry.errors, 0);
    await attempt(task);
    const after = [...stats.values()].reduce((sum, entry) => sum + entry.errors, 0);
    console.log(`${name}: ${after === before ? 'ok' : `${after - before} error(s)`}`);
  }
  pace = savedPace;
  running = false;
}

async function playStep(practice: Practice, instances: Instance[], cpuRoots: CpuRoots): Promise<StepResult> {
  // The smoke run reports its tour's calls with the rest.
  if (!SMOKE) stats.clear();

  const loadBefore = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  running = true;
  const serverCpuBefore = treeCpuMs(cpuRoots.roots, cpuRoots.exclude);
  const generatorCpuBefore = process.cpuUsage();
  const memory = sampleMemory(instances);
  const people = [
    adminDay(practice),
    ...practice.providers.map((provider) => providerDay(practice, provider)),
    ...practice.providers.flatMap((provider) => provider.patients.map((patient) => patientDay(practice, patient))),
  ];
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  running = false;
  await Promise.all(people);
  const samples = memory.stop();
  const serverCpuS = (treeCpuMs(cpuRoots.roots, cpuRoots.exclude) - serverCpuBefore) / 1000;
  const generatorCpu = process.cpuUsage(generatorCpuBefore);
  const every = [...stats.values()].flatMap((entry) => entry.samples).sort((a, b) => a - b);
  const loadAfter = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  const rows = [...stats]
    .map(([operation, entry]) => {
      const sorted = [...entry.samples].sort((a, b) => a - b);
      return {
        operation,
        count: entry.samples.length,
        p50: percentile(sorted, 50),
        p95: percentile(sorted, 95),
        p99: percentile(sorted, 99),
        errors: entry.errors,
        refusals: entry.refusals,
        codes: [...entry.codes].map(([code, n]) => `${code} ${n}`).join(', '),
      };
    })
    .sort((a, b) => b.count - a.count);
  // An operation seen fewer than 20 times has no meaningful p95 of its own: it is reported, and judged only within
  // all requests together (so a small practice, where no operation reaches 20, is still judged).
  const judged = [
    { operation: 'all requests', p95: percentile(every, 95), count: every.length },
    ...rows.filter((row) => row.count >= 20),
  ];
  const worst = judged.reduce((w, row) => (row.p95 > w.p95 ? { operation: row.operation, p95: row.p95 } : w), {
    operation: '-',
    p95: 0,
  });
  return {
    providers: practice.providers.length,
    patients: practice.providers.reduce((sum, provider) => sum + provider.patients.length, 0),
    loadavg: `${loadBefore} → ${loadAfter}`,
    rows,
    memory: samples,
    worstP95: worst,
    errors: rows.reduce((sum, row) => sum + row.errors, 0),
    all: { count: every.length, p50: percentile(every, 50), p95: percentile(every, 95), p99: percentile(every, 99) },
    serverCpuS,
    generatorCpuS: (generatorCpu.user + generatorCpu.system) / 1e6,
  };
}

const fmt = (ms: number) => (Number.isNaN(ms) ? '-' : ms < 10 ? ms.toFixed(1) : ms.toFixed(0));
function printStep(result: StepResult): void {
  console.log(
    `\nN = ${result.providers} providers, ${result.patients} patients, 1 administrator; ${SECONDS} s; load average ${result.loadavg}`,
  );
  console.log('| Operation | count | p50 ms | p95 ms | p99 ms | errors | refusals | codes |');
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
  for (const row of result.rows) {
    console.log(
      `| ${row.operation} | ${row.count} | ${fmt(row.p50)} | ${fmt(row.p95)} | ${fmt(row.p99)} | ${row.errors} | ${row.refusals} | ${row.codes} |`,
    );
  }
  const { all } = result;
  console.log(
    `| all requests | ${all.count} | ${fmt(all.p50)} | ${fmt(all.p95)} | ${fmt(all.p99)} | ${result.errors} | | |`,
  );
  console.log(
    `${all.count} requests, ${(all.count / SECONDS).toFixed(1)} per second; worst p95 (all requests, or an operation seen 20 times or more) ${fmt(result.worstP95.p95)} ms (${result.worstP95.operation}); errors ${result.errors}`,
  );
  console.log(
    `server side CPU ${result.serverCpuS.toFixed(1)} s (${(result.serverCpuS / SECONDS).toFixed(2)} cores, ${((result.serverCpuS * 1000) / Math.max(1, all.count)).toFixed(1)} ms per request); load generator CPU ${result.generatorCpuS.toFixed(1)} s`,
  );
  for (const [key, message] of firstMessages) console.log(`first ${key}: ${message.slice(0, 300)}`);
  firstMessages.clear();
  result.memory.forEach((sample, i) => {
    const max = (values: number[]) => (values.length ? Math.max(...values).toFixed(0) : '-');
    const last = (values: number[]) => (values.length ? values[values.length - 1]!.toFixed(0) : '-');
    console.log(
      `instance ${i + 1}: RSS max ${max(sample.rssMiB)} MiB (end ${last(sample.rssMiB)}), V8 heap used max ${max(sample.heapMiB)} MiB (end ${last(sample.heapMiB)})`,
    );
  });
}

// ---------------------------------------------------------------------------------------------------------------

async function main(): Promise<number> {
  let base = args.target?.replace(/\/$/, '');
  const instances: Instance[] = [];
  let dataDir: string | null = null;
  let closeCluster: (() => Promise<void>) | null = null;
  if (!base && args.cluster) {
    const count = Number(args.cluster);
    const { startCluster } = await import('../../../e2e/support/cluster.ts');
    console.log(`Starting ${count} instances on one PostgreSQL behind HAProxy`);
    const cluster = await startCluster({
      proxyPort: PORT + 10,
      instancePorts: Array.from({ length: count }, (_, i) => PORT + 11 + i),
      databasePort: PORT + 22_000,
      env: { LOG_LEVEL: 'warn' },
    });
    closeCluster = () => cluster.close();
    base = cluster.url;
    for (const instance of cluster.instances) {
      instances.push({ pid: instance.process?.pid ?? null, metricsUrl: `${instance.url}/metrics` });
    }
  } else if (!base) {
    const bench = benchEnvironment('day');
    dataDir = bench.dataDir;
    base = `http://127.0.0.1:${PORT}`;
    console.log(`Starting the production server (data in ${dataDir})`);
    const server = await start(
      path.join(ROOT, 'apps/server/src/main.ts'),
      { ...bench.env, PORT: String(PORT), HOST: '127.0.0.1', PUBLIC_URL: base },
      (line) => line.includes('is running at'),
    );
    instances.push({ pid: server.pid ?? null, metricsUrl: `${base}/metrics` });
  } else if (base) {
    const pids = (args.pids ?? '').split(',').filter(Boolean).map(Number);
    const urls = (args.instances ?? '').split(',').filter(Boolean);
    for (let i = 0; i < Math.max(pids.length, urls.length); i++) {
      instances.push({ pid: pids[i] ?? null, metricsUrl: urls[i] ? `${urls[i]!.replace(/\/$/, '')}/metrics` : null });
    }
  }
  // Started here: everything under this process but itself (the server with its embedded PostgreSQL, or the
  // instances, their shared PostgreSQL and HAProxy). A given target: the processes named by --pids.
  const cpuRoots: CpuRoots = args.target
    ? { roots: instances.flatMap((i) => (i.pid ? [i.pid] : [])), exclude: [] }
    : { roots: [process.pid], exclude: [process.pid] };
  if (!base) throw new Error('no target');
  try {
    const admin = new Browser(base);
    const adminEmail = 'admin@demo.test';
    await admin.signIn(adminEmail, DEMO_PASSWORD);
    const { appConfig } = await admin.op<{ appConfig: { practiceTimeZone?: string } }>('AppConfig');
    const zone =
      appConfig.practiceTimeZone ??
      (await admin.op<{ practiceSettings: { values: { timeZone: string } } }>('PracticeSettings')).practiceSettings
        .values.timeZone;
    const practice: Practice = { base, zone, admin, adminEmail, providers: [] };

    const first = SMOKE ? 1 : Number(args.providers);
    const stepBy = Number(args.step);
    let held: StepResult | null = null;
    for (let n = first; n <= Number(args.max); n = args.search ? n + stepBy : Number.POSITIVE_INFINITY) {
      const setupStarted = Date.now();
      while (practice.providers.length < n) await addProvider(practice);
      console.log(
        `\nPractice of ${n} provider(s) ready in ${((Date.now() - setupStarted) / 1000).toFixed(0)} s; playing ${SECONDS} s`,
      );
      if (SMOKE) await tour(practice);
      const result = await playStep(practice, instances, cpuRoots);
      printStep(result);
      const failed = result.errors > 0 || result.worstP95.p95 > P95_LIMIT_MS;
      if (SMOKE) {
        if (result.errors > 0) {
          console.error('Smoke run: errors (above).');
          return 1;
        }
        console.log('Smoke run: every operation answered without errors.');
        return 0;
      }
      if (!args.search) break;
      if (failed) {
        console.log(
          `\nN = ${n} did not hold (${result.errors > 0 ? `${result.errors} errors` : `p95 ${fmt(result.worstP95.p95)} ms in ${result.worstP95.operation}`}).`,
        );
        break;
      }
      held = result;
    }
    if (args.search) {
      console.log(
        held
          ? `\nLargest N that held (p95 of every operation under ${P95_LIMIT_MS} ms, no errors): ${held.providers} providers, ${held.patients} patients.`
          : `\nNo N held, not even ${first}.`,
      );
    }
    return 0;
  } finally {
    await closeCluster?.();
    await stopChildren();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

console.log(`${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}`);
process.exitCode = await main();
