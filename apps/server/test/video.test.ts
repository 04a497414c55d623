/**
 * Video visits (decision 026) against the real server: who may get a token and when, the waiting room (no
 * signalling for someone not let in), admission and the appointment's steps, a socket that reconnects, a page
 * that reloads, a cancellation that closes the visit, and two server instances carrying one call.
 */
import { buffer } from 'node:stream/consumers';
import fs from 'node:fs';
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  VIDEO_CLOSE_CODES,
  VIDEO_GUEST_SIGNAL_PATH,
  VIDEO_SIGNAL_PATH,
  type VideoServerMessage,
} from '@telehealth/shared';
import { buildApp } from '../src/app.ts';
import { insertAppointments } from '../src/appointments/appointments.repository.ts';
import { appointments } from '../src/appointments/appointments.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { videoParticipants } from '../src/video/video.table.ts';
import { videoParticipantsEncrypted } from '../src/keys/encrypted-columns.ts';
import { appDependencies, openRuntime } from '../src/runtime.ts';
import { createTestApp, silentLog, testConfig, TestClient, type TestApp } from './helpers.ts';
import { liveUrl, openLive, openLiveOrFail, type LiveTestSocket } from './live-helpers.ts';
import type { FastifyInstance } from 'fastify';

type VideoSocket = LiveTestSocket<VideoServerMessage>;

const TOKEN = `mutation ($input: VideoTokenInput!) { requestVideoToken(input: $input) { token room peerId role iceServers { urls username credential } } }`;
const VISIT = `query ($id: ID!) { videoVisit(appointmentId: $id) { room role status closedReason opensAt closesAt } }`;
const WAITING = `query { videoWaitingRoom { appointmentId peerId name patientName } }`;
const CANCEL = `mutation ($input: CancelAppointmentInput!) { cancelAppointment(input: $input) { id status } }`;
const GET = `query ($id: ID!) { getAppointment(id: $id) { status } }`;

// A wide window, so that each test books its own quarter hour (before now) and can still join it.
const ENV = {
  VIDEO_JOIN_EARLY_MINUTES: '120',
  VIDEO_JOIN_LATE_MINUTES: '240',
  TURN_URLS: 'turn:127.0.0.1:3478?transport=udp',
  TURN_SECRET: 'a-turn-secret-of-the-test-1234',
};

let t: TestApp;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let admin: TestClient;
let providerId: string;
let patientRecordId: string;
let slot = 0;

/**
 * A video appointment of the test's provider and patient, written straight to the table (the booking rules,
 * such as the time grid, are the appointments' tests; a test here may run at any hour): by default a quarter
 * hour that has just passed, each call an earlier one (the join window stays open four hours after the end).
 */
async function videoAppointment(startsAt = new Date(Math.floor(Date.now() / 900_000) * 900_000 - ++slot * 900_000)) {
  const [row] = await insertAppointments(
    t.runtime.database.db,
    [
      {
        patientId: patientRecordId,
        providerId,
        startsAt,
        endsAt: new Date(startsAt.getTime() + 15 * 60_000),
        timeZone: t.runtime.config.settings.current().timeZone,
        duration: 15,
        appointmentType: 'video',
        status: 'scheduled',
        reason: 'Medication follow-up',
        createdBy: providerId,
      },
    ],
    t.runtime.keyring,
  );
  return row!.id;
}

const room = (id: string) => `${t.runtime.config.video.roomPrefix}-room-${id}`;

async function tokenFor(client: TestClient, appointmentId: string, identity = 'Jordan') {
  const response = await client.gql<{ requestVideoToken: { token: string; peerId: string } }>(TOKEN, {
    input: { identity, room: room(appointmentId) },
  });
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.requestVideoToken;
}

async function signalUrl(app: FastifyInstance): Promise<string> {
  return (await liveUrl(app)).replace(/\/api\/live$/, VIDEO_SIGNAL_PATH);
}

async function openSignal(client: TestClient, app: FastifyInstance = t.app): Promise<VideoSocket> {
  return openLiveOrFail<VideoServerMessage>(await signalUrl(app), {
    cookie: client.cookie,
    origin: t.runtime.config.publicUrl,
  });
}

/** Opens a socket and joins with a fresh token; answers the socket once `joined` arrived. */
async function join(
  client: TestClient,
  appointmentId: string,
  options: { pageId?: string; app?: FastifyInstance } = {},
) {
  const { token, peerId } = await tokenFor(client, appointmentId);
  const socket = await openSignal(client, options.app);
  socket.send({ type: 'join', token, pageId: options.pageId ?? crypto.randomUUID() });
  const joined = await socket.next('joined');
  return { socket, joined, peerId };
}

async function statusOf(id: string): Promise<string> {
  const [row] = await t.runtime.database.db
    .select({ status: appointments.status })
    .from(appointments)
    .where(eq(appointments.id, id));
  return row!.status;
}

/** Waits until `check` holds (the appointment steps follow the socket's messages). */
async function eventually(check: () => boolean | Promise<boolean>, tries = 100): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error('never happened');
}

async function lastAudit(event: string, since: number) {
  const [row] = await t.runtime.database.db
    .select({ details: auditEntries.details, userId: auditEntries.userId })
    .from(auditEntries)
    .where(and(eq(auditEntries.event, event as never), gt(auditEntries.id, since)))
    .orderBy(desc(auditEntries.id))
    .limit(1);
  return row;
}

async function auditMark(): Promise<number> {
  const [row] = await t.runtime.database.db
    .select({ id: sql<number>`coalesce(max(${auditEntries.id}), 0)::int` })
    .from(auditEntries);
  return row!.id;
}

const OFFER = { description: { type: 'offer' as const, sdp: 'v=0\r\n' } };

beforeAll(async () => {
  t = await createTestApp(ENV);
  [provider, provider2, patient, admin] = [0, 1, 2, 3].map(() => new TestClient(t.app)) as [
    TestClient,
    TestClient,
    TestClient,
    TestClient,
  ];
  providerId = (await provider.signIn('provider@demo.test', DEMO_PASSWORD)).user!.userId;
  await provider2.signIn('provider2@demo.test', DEMO_PASSWORD);
  const patientUserId = (await patient.signIn('patient@demo.test', DEMO_PASSWORD)).user!.userId;
  await admin.signIn('admin@demo.test', DEMO_PASSWORD);
  const created = await provider.gql<{ createPatient: { id: string } }>(
    'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
    { input: { firstName: 'Jordan', lastName: 'Reyes', email: 'jordan.video@example.net', dateOfBirth: '1990-04-05' } },
  );
  patientRecordId = created.data!.createPatient.id;
  await t.runtime.database.db
    .update(patients)
    .set({ accountId: patientUserId })
    .where(eq(patients.id, patientRecordId));
});

describe('the token request', () => {
  it("gives the appointment's provider and patient a token, with TURN credentials that name nobody", async () => {
    const id = await videoAppointment();
    const visit = await patient.gql<{ videoVisit: { room: string; role: string; closedReason: string | null } }>(
      VISIT,
      { id },
    );
    expect(visit.data?.videoVisit).toMatchObject({ room: room(id), role: 'patient', closedReason: null });
    const response = await patient.gql<{
      requestVideoToken: {
        token: string;
        peerId: string;
        role: string;
        iceServers: { urls: string[]; username: string }[];
      };
    }>(TOKEN, { input: { identity: 'Jordan', room: room(id) } });
    const answer = response.data!.requestVideoToken;
    expect(answer.role).toBe('patient');
    expect(answer.iceServers[0]?.urls).toEqual([ENV.TURN_URLS]);
    expect(answer.iceServers[0]?.username).toMatch(new RegExp(`^\\d+:${answer.peerId}$`));
    expect(answer.iceServers[0]?.username).not.toContain('Jordan');
    expect((await tokenFor(provider, id)).token).toBeTruthy();
  });

  it('refuses another provider, an administrator and a room that is not ours, and audits the stranger', async () => {
    const id = await videoAppointment();
    const mark = await auditMark();
    // Another provider is answered exactly as for an appointment that does not exist (issue 24).
    const stranger = await provider2.gql(TOKEN, { input: { identity: 'Sam', room: room(id) } });
    expect(stranger.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    expect(JSON.stringify(stranger.errors)).toBe(
      JSON.stringify(
        (await provider2.gql(TOKEN, { input: { identity: 'Sam', room: room(crypto.randomUUID()) } })).errors,
      ),
    );
    expect((await lastAudit('UNAUTHORIZED_ACCESS', mark))?.details).toMatchObject({ appointmentIds: [id] });
    const administrator = await admin.gql(TOKEN, { input: { identity: 'Ada', room: room(id) } });
    expect(administrator.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const foreign = await patient.gql(TOKEN, { input: { identity: 'Jordan', room: `other-room-${id}` } });
    expect(foreign.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const noName = await patient.gql(TOKEN, { input: { identity: '   ', room: room(id) } });
    expect(noName.errors?.[0]?.message).toMatch(/Please enter your name/);
  });

  it('refuses before the window opens, and after a cancellation; both audited', async () => {
    const later = await videoAppointment(new Date(Math.ceil(Date.now() / 900_000) * 900_000 + 26 * 3600_000));
    const mark = await auditMark();
    const early = await patient.gql(TOKEN, { input: { identity: 'Jordan', room: room(later) } });
    expect(early.errors?.[0]?.extensions).toMatchObject({ code: 'VIDEO_CLOSED', reason: 'tooEarly' });
    expect(early.errors?.[0]?.message).toMatch(/opens 120 minutes before the appointment/);
    expect((await lastAudit('VIDEO_JOIN_REFUSED', mark))?.details).toMatchObject({ reason: 'tooEarly' });
    const id = await videoAppointment();
    await provider.gql(CANCEL, { input: { id, reason: 'Patient asked to move it' } });
    const cancelled = await patient.gql(TOKEN, { input: { identity: 'Jordan', room: room(id) } });
    expect(cancelled.errors?.[0]?.extensions).toMatchObject({ code: 'VIDEO_CLOSED', reason: 'cancelled' });
  });
});

describe('the signalling socket', () => {
  it('refuses an upgrade without a session, and a tampered or borrowed token', async () => {
    const id = await videoAppointment();
    expect(await openLive(await signalUrl(t.app), { origin: t.runtime.config.publicUrl })).toEqual({ status: 401 });
    const { token } = await tokenFor(patient, id);
    const [head, body = '', mac = ''] = token.split('.');
    const tampered = `${head}.${body.slice(0, -2)}AA.${mac}`;
    for (const [client, bad] of [
      [patient, tampered],
      [provider2, token],
    ] as const) {
      const socket = await openSignal(client);
      socket.send({ type: 'join', token: bad, pageId: crypto.randomUUID() });
      expect(await socket.closed).toEqual({ code: VIDEO_CLOSE_CODES.final, reason: 'tokenInvalid' });
    }
  });

  it('holds an early patient in the waiting room, relays nothing for them, and lets them in when admitted', async () => {
    const id = await videoAppointment();
    // The provider's dashboard hears of the arrival on its live channel (no polling, no session extended).
    const live = await openLiveOrFail(await liveUrl(t.app), {
      cookie: provider.cookie,
      origin: t.runtime.config.publicUrl,
    });
    await live.next('hello');
    const p = await join(patient, id);
    expect(p.joined.self.presence).toBe('waiting');
    const announced = await live.next('video-waiting');
    expect(announced.waiting).toEqual([
      expect.objectContaining({ appointmentId: id, peerId: p.peerId, name: 'Jordan', patientName: 'Jordan Reyes' }),
    ]);
    expect(p.joined.peers).toEqual([]);
    await eventually(async () => (await statusOf(id)) === 'checked-in');

    const waiting = await provider.gql<{
      videoWaitingRoom: { appointmentId: string; name: string; patientName: string }[];
    }>(WAITING);
    expect(waiting.data?.videoWaitingRoom).toContainEqual(
      expect.objectContaining({ appointmentId: id, name: 'Jordan', patientName: 'Jordan Reyes' }),
    );
    expect((await provider2.gql<{ videoWaitingRoom: unknown[] }>(WAITING)).data?.videoWaitingRoom).toEqual([]);

    const d = await join(provider, id);
    expect(d.joined.self).toMatchObject({ role: 'provider', presence: 'admitted' });
    expect(d.joined.peers).toEqual([
      expect.objectContaining({ peerId: p.peerId, presence: 'waiting', name: 'Jordan' }),
    ]);

    // Before admission nothing passes either way.
    p.socket.send({ type: 'signal', to: d.peerId, data: OFFER });
    expect(await p.socket.next('error')).toEqual({ type: 'error', code: 'NOT_ADMITTED' });
    d.socket.send({ type: 'signal', to: p.peerId, data: OFFER });
    expect(await d.socket.next('error')).toEqual({ type: 'error', code: 'NOT_ADMITTED' });
    // Only the provider admits.
    p.socket.send({ type: 'admit', peerId: p.peerId });
    await eventually(() => p.socket.messages.filter((m) => m.type === 'error').length === 2);
    expect(p.socket.messages.at(-1)).toEqual({ type: 'error', code: 'PROVIDER_ONLY' });

    const before = live.messages.length;
    d.socket.send({ type: 'admit', peerId: p.peerId });
    const admitted = await p.socket.next('admitted');
    // Let in: nobody waits any more.
    expect((await live.next('video-waiting', before)).waiting).toEqual([]);
    live.close();
    expect(admitted.peers).toEqual([expect.objectContaining({ peerId: d.peerId, polite: true })]);
    const joinedPeer = await d.socket.next('peer-joined');
    expect(joinedPeer).toMatchObject({ peer: { peerId: p.peerId, presence: 'admitted' }, polite: false });
    await eventually(async () => (await statusOf(id)) === 'in-progress');

    d.socket.send({ type: 'signal', to: p.peerId, data: OFFER });
    expect(await p.socket.next('signal')).toEqual({ type: 'signal', from: d.peerId, data: OFFER });
    const answer = { description: { type: 'answer' as const, sdp: 'v=0\r\n' } };
    p.socket.send({ type: 'signal', to: d.peerId, data: answer });
    expect(await d.socket.next('signal')).toEqual({ type: 'signal', from: p.peerId, data: answer });

    // The provider ends the visit: everyone is told, the appointment is completed, and it cannot be joined again.
    d.socket.send({ type: 'end' });
    expect(await p.socket.closed).toEqual({ code: VIDEO_CLOSE_CODES.final, reason: 'provider-ended' });
    expect(await d.socket.closed).toEqual({ code: VIDEO_CLOSE_CODES.final, reason: 'provider-ended' });
    await eventually(async () => (await statusOf(id)) === 'completed');
    const again = await patient.gql(TOKEN, { input: { identity: 'Jordan', room: room(id) } });
    expect(again.errors?.[0]?.extensions).toMatchObject({ code: 'VIDEO_CLOSED', reason: 'finished' });
    const history = await provider.gql<{ getAppointment: { status: string } }>(GET, { id });
    expect(history.data?.getAppointment.status).toBe('completed');
  });

  it('resumes after a dropped socket without the others noticing; a reload is a new peer for them', async () => {
    const id = await videoAppointment();
    const pageId = crypto.randomUUID();
    const d = await join(provider, id);
    const p = await join(patient, id, { pageId });
    d.socket.send({ type: 'admit', peerId: p.peerId });
    await p.socket.next('admitted');
    // Told of the patient waiting, then of the patient let in.
    await eventually(() => d.socket.messages.filter((m) => m.type === 'peer-joined').length === 2);
    const seen = d.socket.messages.length;

    p.socket.terminate();
    const resumed = await join(patient, id, { pageId });
    expect(resumed.joined).toMatchObject({ resumed: true, self: { presence: 'admitted' } });
    d.socket.send({ type: 'signal', to: p.peerId, data: OFFER });
    expect(await resumed.socket.next('signal')).toMatchObject({ from: d.peerId });
    expect(d.socket.messages.slice(seen).map((m) => m.type)).toEqual([]);

    // A reload (a new page): admitted again at once (the visit is live), and the provider starts over with it.
    const reloaded = await join(patient, id);
    expect(reloaded.joined).toMatchObject({ resumed: false, self: { presence: 'admitted' } });
    expect(await resumed.socket.closed).toEqual({ code: VIDEO_CLOSE_CODES.final, reason: 'replaced' });
    await d.socket.next('peer-joined', seen);
    expect(d.socket.messages.slice(seen).map((m) => m.type)).toEqual(['peer-left', 'peer-joined']);
    d.socket.close();
    reloaded.socket.close();
  });

  it('closes the visit for everyone when the appointment is cancelled', async () => {
    const id = await videoAppointment();
    const p = await join(patient, id);
    // Checked in by arriving, and still cancellable: the waiting patient is not left waiting.
    await eventually(async () => (await statusOf(id)) === 'checked-in');
    const cancelled = await provider.gql(CANCEL, {
      input: { id, reason: 'Provider unwell' },
    });
    expect(cancelled.errors).toBeUndefined();
    expect(await p.socket.closed).toEqual({ code: VIDEO_CLOSE_CODES.final, reason: 'cancelled' });
    expect(p.socket.messages.at(-1)).toEqual({ type: 'ended', reason: 'cancelled' });
  });

  it('carries one call across two server instances on one database', async () => {
    const second = await openRuntime(testConfig(t.databaseUrl, ENV), silentLog, { runJobs: false });
    const app2 = await buildApp(appDependencies(second));
    try {
      const id = await videoAppointment();
      const d = await join(provider, id);
      const p = await join(patient, id, { app: app2 });
      expect((await d.socket.next('peer-joined')).peer.presence).toBe('waiting');
      d.socket.send({ type: 'admit', peerId: p.peerId });
      await p.socket.next('admitted');
      d.socket.send({ type: 'signal', to: p.peerId, data: OFFER });
      expect(await p.socket.next('signal')).toMatchObject({ from: d.peerId, data: OFFER });
      p.socket.send({ type: 'signal', to: d.peerId, data: { candidate: null } });
      expect(await d.socket.next('signal')).toMatchObject({ from: p.peerId, data: { candidate: null } });
      d.socket.close();
      p.socket.close();
    } finally {
      await app2.close();
      await second.close();
    }
  });
});

describe('recording with everyone’s consent', () => {
  const START = `mutation ($input: RecordingStartInput!) { startRecording(input: $input) { compositionSid recordingSid status roomSid } }`;
  const STOP = `mutation ($input: RecordingStopInput!) { stopRecording(input: $input) { recordingSid status roomSid } }`;
  const LIST = `query ($id: ID!) { videoRecordings(appointmentId: $id) { id status durationMs sizeBytes } }`;
  const webm = fs.readFileSync(new URL('./fixtures/recording.webm', import.meta.url));

  /** A live visit: the provider and the patient in the call. */
  async function liveVisit() {
    const id = await videoAppointment();
    const d = await join(provider, id);
    const p = await join(patient, id);
    d.socket.send({ type: 'admit', peerId: p.peerId });
    await p.socket.next('admitted');
    return { id, d, p };
  }

  async function upload(client: TestClient, recordingId: string, seq: number, bytes: Buffer) {
    return t.app.inject({
      method: 'PUT',
      url: `/api/recordings/${recordingId}/chunks/${seq}`,
      headers: { cookie: client.cookie ?? '', 'content-type': 'application/octet-stream' },
      payload: bytes,
    });
  }

  it('needs two people in the call', async () => {
    const id = await videoAppointment();
    const d = await join(provider, id);
    const response = await provider.gql(START, { input: { roomSid: room(id), identity: 'Dr', appointmentId: id } });
    expect(response.errors?.[0]?.message).toBe(
      'Recording requires at least 2 participants. Currently: 1 (you + 0 others)',
    );
    d.socket.close();
  });

  it('records nothing when one person declines, and keeps no file', async () => {
    const { id, d, p } = await liveVisit();
    const started = await provider.gql<{ startRecording: { recordingSid: string; status: string } }>(START, {
      input: { roomSid: room(id), identity: 'Dr', appointmentId: id, Status: 'in-progress' },
    });
    const recordingId = started.data!.startRecording.recordingSid;
    expect(started.data!.startRecording.status).toBe('asking');
    const asked = await p.socket.next('recording');
    expect(asked.recording).toMatchObject({ id: recordingId, status: 'asking' });
    expect(asked.recording?.consents).toContainEqual(
      expect.objectContaining({ peerId: p.peerId, decision: 'pending' }),
    );
    expect(asked.recording?.consents).toContainEqual(expect.objectContaining({ peerId: d.peerId, decision: 'yes' }));

    const mark = d.socket.messages.length;
    p.socket.send({ type: 'recording-consent', recordingId, agree: false });
    await eventually(() =>
      d.socket.messages.slice(mark).some((m) => m.type === 'recording' && m.recording?.status === 'refused'),
    );
    const late = await upload(provider, recordingId, 0, webm);
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ errors: [{ message: 'This recording is not running.' }] });
    const listed = await provider.gql<{ videoRecordings: { status: string }[] }>(LIST, { id });
    expect(listed.data?.videoRecordings).toEqual([expect.objectContaining({ status: 'refused' })]);
    const [{ n }] = (
      await t.runtime.database.db.execute<{ n: number }>(
        sql`SELECT count(*)::int AS n FROM video_recording_chunks WHERE recording_id = ${recordingId}`,
      )
    ).rows as [{ n: number }];
    expect(n).toBe(0);
    const consent = await lastAudit('RECORDING_CONSENT', 0);
    expect(consent?.details).toMatchObject({ decision: 'no' });
    d.socket.close();
    p.socket.close();
  });

  it('records once everyone agreed; the provider plays it back (duration fixed, byte ranges), the patient cannot; stored encrypted', async () => {
    const { id, d, p } = await liveVisit();
    const started = await provider.gql<{ startRecording: { recordingSid: string } }>(START, {
      input: { roomSid: room(id), identity: 'Dr', appointmentId: id },
    });
    const recordingId = started.data!.startRecording.recordingSid;
    // Nothing may be uploaded before everyone agreed.
    expect((await upload(provider, recordingId, 0, webm)).statusCode).toBe(400);
    const mark = d.socket.messages.length;
    p.socket.send({ type: 'recording-consent', recordingId, agree: true });
    await eventually(() =>
      d.socket.messages.slice(mark).some((m) => m.type === 'recording' && m.recording?.status === 'recording'),
    );

    // The recorder's parts, as MediaRecorder hands them out; the patient cannot upload.
    const third = Math.ceil(webm.length / 3);
    expect((await upload(patient, recordingId, 0, webm.subarray(0, third))).statusCode).toBe(404);
    for (let seq = 0; seq < 3; seq++) {
      expect((await upload(provider, recordingId, seq, webm.subarray(seq * third, (seq + 1) * third))).statusCode).toBe(
        204,
      );
    }
    const stopped = await provider.gql<{ stopRecording: { status: string } }>(STOP, {
      input: { recordingSid: recordingId, roomSid: room(id), Status: 'completed' },
    });
    expect(stopped.data?.stopRecording.status).toBe('completed');
    await eventually(async () => {
      const listed = await provider.gql<{ videoRecordings: { status: string }[] }>(LIST, { id });
      return listed.data?.videoRecordings[0]?.status === 'ready';
    }, 300);
    const [recording] = (
      await provider.gql<{ videoRecordings: { durationMs: number; sizeBytes: number }[] }>(LIST, { id })
    ).data!.videoRecordings;
    expect(recording!.durationMs).toBeGreaterThan(4_000);
    expect(recording!.durationMs).toBeLessThan(5_500);

    const whole = await t.app.inject({
      method: 'GET',
      url: `/api/recordings/${recordingId}/file`,
      headers: { cookie: provider.cookie ?? '' },
    });
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.rawPayload.length).toBe(recording!.sizeBytes);
    expect(whole.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0x1a, 0x45, 0xdf, 0xa3]));
    const part = await t.app.inject({
      method: 'GET',
      url: `/api/recordings/${recordingId}/file`,
      headers: { cookie: provider.cookie ?? '', range: 'bytes=100-199' },
    });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 100-199/${recording!.sizeBytes}`);
    expect(part.rawPayload).toEqual(whole.rawPayload.subarray(100, 200));
    // A range across the blob's 64 KiB segments, and one to the end (what a player asks when it seeks).
    const across = await t.app.inject({
      method: 'GET',
      url: `/api/recordings/${recordingId}/file`,
      headers: { cookie: provider.cookie ?? '', range: 'bytes=65000-140000' },
    });
    expect(across.statusCode).toBe(206);
    expect(across.rawPayload).toEqual(whole.rawPayload.subarray(65000, 140001));
    const tail = await t.app.inject({
      method: 'GET',
      url: `/api/recordings/${recordingId}/file`,
      headers: { cookie: provider.cookie ?? '', range: 'bytes=131072-' },
    });
    expect(tail.headers['content-range']).toBe(`bytes 131072-${recording!.sizeBytes - 1}/${recording!.sizeBytes}`);
    expect(tail.rawPayload).toEqual(whole.rawPayload.subarray(131072));
    expect((await lastAudit('RECORDING_PLAY', 0))?.details).toMatchObject({ recordingId });

    // Anyone else, the patient too, is answered exactly as for a recording that does not exist; the attempt is
    // recorded. The patient, who reaches the visit, is told the list is the provider's.
    const play = (client: TestClient, recording: string) =>
      t.app.inject({
        method: 'GET',
        url: `/api/recordings/${recording}/file`,
        headers: { cookie: client.cookie ?? '' },
      });
    const answerOf = (r: Awaited<ReturnType<typeof play>>) => [r.statusCode, r.headers['content-type'], r.body];
    const missing = crypto.randomUUID();
    const audited = await auditMark();
    for (const stranger of [patient, provider2]) {
      const denied = await play(stranger, recordingId);
      expect(denied.statusCode).toBe(404);
      expect(answerOf(denied)).toEqual(answerOf(await play(stranger, missing)));
      expect(answerOf(await upload(stranger, recordingId, 9, webm.subarray(0, 10)))).toEqual(
        answerOf(await upload(stranger, missing, 9, webm.subarray(0, 10))),
      );
      const stop = (sid: string) =>
        stranger.gql(STOP, { input: { recordingSid: sid, roomSid: room(id), Status: 'completed' } });
      expect(JSON.stringify((await stop(recordingId)).errors)).toBe(JSON.stringify((await stop(missing)).errors));
    }
    expect((await lastAudit('UNAUTHORIZED_ACCESS', audited))?.details).toMatchObject({ recordingId });
    expect((await patient.gql(LIST, { id })).errors?.[0]?.message).toMatch(/Only the appointment’s provider/);
    expect(JSON.stringify((await provider2.gql(LIST, { id })).errors)).toBe(
      JSON.stringify((await provider2.gql(LIST, { id: missing })).errors),
    );

    // Stored: one sealed blob (decision 071), nothing of the WebM readable in it; no bytes in the database.
    const db = t.runtime.database.db;
    const [stored] = (
      await db.execute<{ blob_key: string; parts: number; segments: number }>(
        sql`SELECT blob_key, (SELECT count(*)::int FROM video_recording_chunks WHERE recording_id = r.id) AS parts,
                   (SELECT count(*)::int FROM video_recording_segments WHERE recording_id = r.id) AS segments
            FROM video_recordings r WHERE id = ${recordingId}`,
      )
    ).rows;
    expect(stored).toMatchObject({ parts: 0, segments: 0 });
    const sealed = await buffer(await t.runtime.blobStore.get(stored!.blob_key));
    expect(sealed.length).toBeGreaterThan(recording!.sizeBytes);
    expect(sealed.includes(Buffer.from('webm'))).toBe(false);
    expect(sealed.includes(whole.rawPayload.subarray(1000, 1032))).toBe(false);

    // Past its retention the recording goes, its blob with it.
    await db.execute(sql`UPDATE video_recordings SET expires_at = now() - interval '1 day' WHERE id = ${recordingId}`);
    expect(await t.runtime.recordingFiles.deleteExpired()).toBe(1);
    expect(await t.runtime.blobStore.size(stored!.blob_key)).toBeNull();
    d.socket.close();
    p.socket.close();
  });
});

describe('guests', () => {
  const INVITE = `mutation ($input: InviteVideoGuestInput!) { inviteVideoGuest(input: $input) { id name email } }`;
  const GUEST_VISIT = `query ($t: String!) { guestVideoVisit(guestToken: $t) { role patientName providerName closedReason } }`;
  const GUEST_TOKEN = `mutation ($input: GuestVideoTokenInput!) { requestGuestVideoToken(input: $input) { token peerId role } }`;

  async function invite(appointmentId: string, email: string): Promise<string> {
    const response = await provider.gql<{ inviteVideoGuest: { id: string } }>(INVITE, {
      input: { appointmentId, name: 'Sam Reyes', email },
    });
    if (!response.data) throw new Error(JSON.stringify(response.errors));
    const [mail] = await t.runtime.database.db
      .select({ text: mailOutbox.textBody, to: mailOutbox.toAddress, kind: mailOutbox.kind })
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, email));
    expect(mail?.kind).toBe('video-guest-invitation');
    // Nothing about the patient or the reason in the mail.
    expect(mail?.text).not.toContain('Jordan');
    expect(mail?.text).not.toContain('Medication');
    const match = new RegExp(`/video-call/guest/${appointmentId}#([A-Za-z0-9_-]+)`).exec(mail?.text ?? '');
    return match![1]!;
  }

  async function joinAsGuest(guestToken: string): Promise<{ socket: VideoSocket; peerId: string }> {
    const anonymous = new TestClient(t.app);
    const response = await anonymous.gql<{ requestGuestVideoToken: { token: string; peerId: string; role: string } }>(
      GUEST_TOKEN,
      { input: { guestToken, identity: 'Sam' } },
    );
    const { token, peerId, role } = response.data!.requestGuestVideoToken;
    expect(role).toBe('guest');
    const socket = await openLiveOrFail<VideoServerMessage>(
      (await signalUrl(t.app)).replace(VIDEO_SIGNAL_PATH, VIDEO_GUEST_SIGNAL_PATH),
      { origin: t.runtime.config.publicUrl },
    );
    socket.send({ type: 'join', token, pageId: crypto.randomUUID() });
    return { socket, peerId };
  }

  it('a guest invited by e-mail opens the link without an account, waits, and is let in', async () => {
    const id = await videoAppointment();
    const guestToken = await invite(id, 'sam.guest@example.net');
    const anonymous = new TestClient(t.app);
    const visit = await anonymous.gql<{ guestVideoVisit: Record<string, unknown> }>(GUEST_VISIT, { t: guestToken });
    expect(visit.data?.guestVideoVisit).toMatchObject({ role: 'guest', patientName: '', closedReason: null });
    expect((await anonymous.gql(GUEST_VISIT, { t: 'x'.repeat(43) })).errors?.[0]?.message).toMatch(
      /not valid any more/,
    );

    const d = await join(provider, id);
    const g = await joinAsGuest(guestToken);
    expect((await g.socket.next('joined')).self).toMatchObject({ role: 'guest', presence: 'waiting' });
    expect((await d.socket.next('peer-joined')).peer).toMatchObject({
      peerId: g.peerId,
      role: 'guest',
      presence: 'waiting',
    });
    d.socket.send({ type: 'admit', peerId: g.peerId });
    expect((await g.socket.next('admitted')).peers).toEqual([expect.objectContaining({ peerId: d.peerId })]);
    d.socket.close();
    g.socket.close();
  });

  it('announces a waiting guest to the provider only: the patient in the call hears of them once admitted', async () => {
    const id = await videoAppointment();
    const guestToken = await invite(id, 'lee.guest@example.net');
    const d = await join(provider, id);
    const p = await join(patient, id);
    d.socket.send({ type: 'admit', peerId: p.peerId });
    await p.socket.next('admitted');
    const patientSeen = p.socket.messages.length;

    const g = await joinAsGuest(guestToken);
    expect((await g.socket.next('joined')).self).toMatchObject({ role: 'guest', presence: 'waiting' });
    await eventually(() =>
      d.socket.messages.some(
        (m) => m.type === 'peer-joined' && m.peer.peerId === g.peerId && m.peer.presence === 'waiting',
      ),
    );

    d.socket.send({ type: 'admit', peerId: g.peerId });
    await g.socket.next('admitted');
    // The patient's messages arrive in the order they were written: the admission's announcement is the first
    // word of the guest, and nothing before it names them.
    const told = await p.socket.next('peer-joined', patientSeen);
    expect(told.peer).toMatchObject({ peerId: g.peerId, name: 'Sam', presence: 'admitted' });
    const before = p.socket.messages.slice(patientSeen, p.socket.messages.indexOf(told));
    expect(JSON.stringify(before)).not.toContain(g.peerId);
    expect(JSON.stringify(before)).not.toContain('Sam');
    for (const socket of [d.socket, p.socket, g.socket]) socket.close();
  });

  it('answers another provider’s visit exactly like a missing one (visit, guests, invitation), and records it', async () => {
    const id = await videoAppointment();
    const missing = crypto.randomUUID();
    const GUESTS = `query ($id: ID!) { videoGuests(appointmentId: $id) { id } }`;
    const errorsOf = async (query: string, variables: (appointmentId: string) => Record<string, unknown>) => {
      const [existing, random] = [
        await provider2.gql(query, variables(id)),
        await provider2.gql(query, variables(missing)),
      ];
      expect(existing.errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
      expect(JSON.stringify(existing.errors)).toBe(JSON.stringify(random.errors));
    };
    const mark = await auditMark();
    await errorsOf(VISIT, (appointmentId) => ({ id: appointmentId }));
    expect((await lastAudit('UNAUTHORIZED_ACCESS', mark))?.details).toMatchObject({ appointmentIds: [id] });
    await errorsOf(GUESTS, (appointmentId) => ({ id: appointmentId }));
    await errorsOf(INVITE, (appointmentId) => ({
      input: { appointmentId, name: 'Sam Reyes', email: 'nobody@example.net' },
    }));
    // The appointment's patient reaches the visit: told that guests are the provider's.
    expect((await patient.gql(GUESTS, { id })).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('keeps tokens to their socket: a guest’s on the account socket and an account’s on the guest socket are refused', async () => {
    const id = await videoAppointment();
    const guestToken = await invite(id, 'kim.guest@example.net');
    const anonymous = new TestClient(t.app);
    const { token: guestVideoToken } = (
      await anonymous.gql<{ requestGuestVideoToken: { token: string } }>(GUEST_TOKEN, {
        input: { guestToken, identity: 'Kim' },
      })
    ).data!.requestGuestVideoToken;
    const onAccountSocket = await openSignal(patient);
    onAccountSocket.send({ type: 'join', token: guestVideoToken, pageId: crypto.randomUUID() });
    expect(await onAccountSocket.closed).toEqual({ code: VIDEO_CLOSE_CODES.final, reason: 'tokenInvalid' });
    const { token: patientToken } = await tokenFor(patient, id);
    const onGuestSocket = await openLiveOrFail<VideoServerMessage>(
      (await signalUrl(t.app)).replace(VIDEO_SIGNAL_PATH, VIDEO_GUEST_SIGNAL_PATH),
      { origin: t.runtime.config.publicUrl },
    );
    onGuestSocket.send({ type: 'join', token: patientToken, pageId: crypto.randomUUID() });
    expect(await onGuestSocket.closed).toEqual({ code: VIDEO_CLOSE_CODES.final, reason: 'tokenInvalid' });
  });

  it('holds at most four people: a third guest is not invited, and a fifth person is refused at the socket', async () => {
    const id = await videoAppointment();
    const first = await invite(id, 'one.guest@example.net');
    const second = await invite(id, 'two.guest@example.net');
    const third = await provider.gql(INVITE, {
      input: { appointmentId: id, name: 'Three', email: 'three@example.net' },
    });
    expect(third.errors?.[0]?.message).toBe('A video visit holds at most 4 people, so no more guests can be invited.');
    expect(
      (await patient.gql(INVITE, { input: { appointmentId: id, name: 'X', email: 'x@example.net' } })).errors?.[0]
        ?.extensions?.code,
    ).toBe('FORBIDDEN');

    const d = await join(provider, id);
    const p = await join(patient, id);
    const g1 = await joinAsGuest(first);
    await g1.socket.next('joined');
    // Someone else already holds the fourth place (as another instance's socket would).
    const someone = crypto.randomUUID();
    await t.runtime.database.db.insert(videoParticipants).values(
      videoParticipantsEncrypted.seal(t.runtime.keyring, someone, {
        id: someone,
        appointmentId: id,
        peerId: 'someone-else-0001',
        role: 'guest',
        displayName: 'Someone',
        presence: 'waiting',
        connectionId: crypto.randomUUID(),
        pageId: 'page-of-someone',
      }),
    );
    const g2 = await joinAsGuest(second);
    expect(await g2.socket.closed).toEqual({ code: VIDEO_CLOSE_CODES.final, reason: 'roomFull' });
    for (const socket of [d.socket, p.socket, g1.socket]) socket.close();
  });
});
