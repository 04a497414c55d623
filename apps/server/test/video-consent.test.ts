/**
 * The telehealth consent gate of video visits (decision 069) against the real server: with the practice setting
 * off (its default) a patient without a signature joins; turned on (audited), the same patient is refused at the
 * token request and again at the signalling socket with `videoMessages.consentRequired`, and nothing is written
 * (no waiting-room entry, no token, no check-in); once they sign, or once staff record their paper signature,
 * they join. The provider is never asked, and a patient waiting since before the setting was turned on is not let
 * in by the provider's admit.
 */
import { and, count, desc, eq, gt, max } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIDEO_CLOSE_CODES, VIDEO_MESSAGES, VIDEO_SIGNAL_PATH, type VideoServerMessage } from '@telehealth/shared';
import { insertAppointments } from '../src/appointments/appointments.repository.ts';
import { appointments } from '../src/appointments/appointments.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { videoParticipants } from '../src/video/video.table.ts';
import { demoClients } from './factories/accounts.ts';
import { dataOf } from './factories/graphql.ts';
import { createPortalPatient, type PortalPatient } from './factories/patients.ts';
import { signPracticeDocument } from './factories/practice-documents.ts';
import { createTestApp, type TestApp, type TestClient } from './helpers.ts';
import { liveUrl, openLiveOrFail, type LiveTestSocket } from './live-helpers.ts';

const TOKEN = `mutation ($input: VideoTokenInput!) { requestVideoToken(input: $input) { token peerId } }`;
const SETTINGS = `mutation ($input: UpdatePracticeSettingsInput!) {
  updatePracticeSettings(input: $input) { values { videoConsentRequired } } }`;
const RESET = 'mutation ($key: String!) { resetPracticeSetting(key: $key) { values { videoConsentRequired } } }';
const DOCUMENTS = '{ practiceDocuments { id kind currentVersion { id } } }';
const RECORD_PAPER = `mutation ($input: RecordPaperSignatureInput!) { recordPaperSignature(input: $input) { status } }`;

type VideoSocket = LiveTestSocket<VideoServerMessage>;

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let providerId: string;
let consent: { documentId: string; versionId: string };

const db = () => t.runtime.database.db;
/** The extensions of a response's first error (code, messageId, reason). */
const extensionsOf = (response: { errors?: readonly { extensions?: object }[] | undefined }) =>
  response.errors?.[0]?.extensions as Record<string, unknown> | undefined;
const room = (id: string) => `${t.runtime.config.video.roomPrefix}-room-${id}`;

let appointmentsMade = 0;

/**
 * A video appointment of the demo provider with `patientId`, open to both now: each one 90 seconds after the one
 * before (the provider's appointments may not overlap), all within the patient's 15 minutes before the start.
 */
async function videoAppointment(patientId: string): Promise<string> {
  const startsAt = new Date(Date.now() + 60_000 + appointmentsMade++ * 90_000);
  const [row] = await insertAppointments(
    db(),
    [
      {
        patientId,
        providerId,
        startsAt,
        endsAt: new Date(startsAt.getTime() + 80_000),
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

async function setConsentRule(on: boolean): Promise<void> {
  const response = await admin.gql<{ updatePracticeSettings: { values: { videoConsentRequired: boolean } } }>(
    SETTINGS,
    { input: { videoConsentRequired: on } },
  );
  expect(dataOf(response).updatePracticeSettings.values.videoConsentRequired).toBe(on);
}

function requestToken(client: TestClient, appointmentId: string) {
  return client.gql<{ requestVideoToken: { token: string; peerId: string } }>(TOKEN, {
    input: { identity: 'Lena', room: room(appointmentId) },
  });
}

async function openSignal(client: TestClient): Promise<VideoSocket> {
  return openLiveOrFail<VideoServerMessage>((await liveUrl(t.app)).replace(/\/api\/live$/, VIDEO_SIGNAL_PATH), {
    cookie: client.cookie,
    origin: t.runtime.config.publicUrl,
  });
}

/** Joins the signalling socket with a token; answers the socket and the first message (joined or ended). */
async function joinWith(client: TestClient, token: string) {
  const socket = await openSignal(client);
  socket.send({ type: 'join', token, pageId: crypto.randomUUID() });
  await eventually(() => socket.messages.some((m) => m.type === 'joined' || m.type === 'ended'));
  return { socket, first: socket.messages.find((m) => m.type === 'joined' || m.type === 'ended')! };
}

async function eventually(check: () => boolean | Promise<boolean>, tries = 100): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  throw new Error('the condition never held');
}

async function participantsOf(appointmentId: string): Promise<number> {
  const [row] = await db()
    .select({ n: count() })
    .from(videoParticipants)
    .where(eq(videoParticipants.appointmentId, appointmentId));
  return row!.n;
}

async function statusOf(appointmentId: string): Promise<string> {
  const [row] = await db()
    .select({ status: appointments.status })
    .from(appointments)
    .where(eq(appointments.id, appointmentId));
  return row!.status;
}

async function lastAuditId(): Promise<number> {
  const [row] = await db()
    .select({ id: max(auditEntries.id) })
    .from(auditEntries);
  return Number(row?.id ?? 0);
}

function entriesSince(since: number, event: string) {
  return db()
    .select({ details: auditEntries.details, userId: auditEntries.userId })
    .from(auditEntries)
    .where(and(eq(auditEntries.event, event as never), gt(auditEntries.id, since)))
    .orderBy(desc(auditEntries.id));
}

/** A new portal patient with a video appointment of the demo provider. */
async function patientWithVisit(): Promise<{ person: PortalPatient; appointmentId: string }> {
  const person = await createPortalPatient(t, provider);
  return { person, appointmentId: await videoAppointment(person.patientId) };
}

beforeAll(async () => {
  t = await createTestApp();
  const clients = await demoClients(t);
  admin = clients.admin;
  provider = clients.provider;
  providerId = clients.providerId;
  const documents = dataOf(
    await admin.gql<{ practiceDocuments: { id: string; kind: string; currentVersion: { id: string } }[] }>(DOCUMENTS),
  ).practiceDocuments;
  const telehealth = documents.find((d) => d.kind === 'telehealth-consent')!;
  consent = { documentId: telehealth.id, versionId: telehealth.currentVersion.id };
});

afterAll(async () => {
  await admin.gql(RESET, { key: 'videoConsentRequired' });
});

describe('the telehealth consent gate', () => {
  it('is off by default: a patient who has not signed joins the waiting room', async () => {
    expect(t.runtime.config.settings.current().videoConsentRequired).toBe(false);
    const { person, appointmentId } = await patientWithVisit();
    expect(await t.runtime.services.practiceDocuments.hasValidSignature(person.patientId, 'telehealth-consent')).toBe(
      false,
    );
    const token = await requestToken(person.client, appointmentId);
    expect(token.errors).toBeUndefined();
    const { socket, first } = await joinWith(person.client, token.data!.requestVideoToken.token);
    expect(first).toMatchObject({ type: 'joined', self: { role: 'patient', presence: 'waiting' } });
    socket.close();
  });

  it('is turned on by an administrator only, and the change is audited', async () => {
    const since = await lastAuditId();
    const refused = await provider.gql(SETTINGS, { input: { videoConsentRequired: true } });
    expect(refused.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    expect(t.runtime.config.settings.current().videoConsentRequired).toBe(false);
    await setConsentRule(true);
    expect(t.runtime.config.settings.current().videoConsentRequired).toBe(true);
    const entries = await entriesSince(since, 'SETTING_UPDATE');
    expect(entries.map((e) => e.details)).toEqual([
      expect.objectContaining({ setting: 'videoConsentRequired', oldValue: false, newValue: true }),
    ]);
  });

  it('refuses a patient without the signed consent, with its own message, and writes nothing', async () => {
    await setConsentRule(true);
    const { person, appointmentId } = await patientWithVisit();
    const since = await lastAuditId();
    const refused = await requestToken(person.client, appointmentId);
    expect(refused.data).toBeNull();
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'VIDEO_CLOSED', reason: 'consentRequired' });
    expect(extensionsOf(refused)?.['messageId']).toBe('videoMessages.consentRequired');
    expect(refused.errors?.[0]?.message).toBe(VIDEO_MESSAGES.consentRequired);
    expect(await participantsOf(appointmentId)).toBe(0);
    expect(await statusOf(appointmentId)).toBe('scheduled');
    expect((await entriesSince(since, 'VIDEO_JOIN_REFUSED')).map((e) => e.details)).toEqual([
      { appointmentIds: [appointmentId], patientIds: [person.patientId], reason: 'consentRequired' },
    ]);
    expect(await entriesSince(since, 'VIDEO_JOIN')).toEqual([]);
  });

  it('refuses again at the signalling socket a token given before the setting was turned on', async () => {
    await setConsentRule(false);
    const { person, appointmentId } = await patientWithVisit();
    const token = dataOf(await requestToken(person.client, appointmentId)).requestVideoToken.token;
    await setConsentRule(true);
    const since = await lastAuditId();
    const { socket, first } = await joinWith(person.client, token);
    expect(first).toEqual({ type: 'ended', reason: 'consentRequired' });
    expect(await socket.closed).toEqual({ code: VIDEO_CLOSE_CODES.final, reason: 'consentRequired' });
    expect(await participantsOf(appointmentId)).toBe(0);
    expect(await statusOf(appointmentId)).toBe('scheduled');
    expect((await entriesSince(since, 'VIDEO_JOIN_REFUSED')).map((e) => e.details)).toEqual([
      expect.objectContaining({ appointmentIds: [appointmentId], reason: 'consentRequired' }),
    ]);
  });

  it('lets the patient join once they have signed the consent', async () => {
    await setConsentRule(true);
    const { person, appointmentId } = await patientWithVisit();
    expect(extensionsOf(await requestToken(person.client, appointmentId))?.['reason']).toBe('consentRequired');
    const signed = await signPracticeDocument(person.client, { versionId: consent.versionId, typedName: 'Lena Visit' });
    expect(dataOf(signed).signPracticeDocument.status).toBe('signed');
    const token = await requestToken(person.client, appointmentId);
    expect(token.errors).toBeUndefined();
    const { socket, first } = await joinWith(person.client, token.data!.requestVideoToken.token);
    expect(first).toMatchObject({ type: 'joined', self: { role: 'patient', presence: 'waiting' } });
    expect(await participantsOf(appointmentId)).toBe(1);
    socket.close();
  });

  it('counts a paper signature recorded by staff', async () => {
    await setConsentRule(true);
    const { person, appointmentId } = await patientWithVisit();
    const recorded = await provider.gql<{ recordPaperSignature: { status: string } }>(RECORD_PAPER, {
      input: { patientId: person.patientId, documentId: consent.documentId, signedOn: '2026-11-02' },
    });
    expect(dataOf(recorded).recordPaperSignature.status).toBe('signed');
    const token = await requestToken(person.client, appointmentId);
    expect(token.errors).toBeUndefined();
  });

  it('does not ask the provider, whose own join goes on while their patient has not signed', async () => {
    await setConsentRule(true);
    const { person, appointmentId } = await patientWithVisit();
    const token = await provider.gql<{ requestVideoToken: { token: string } }>(TOKEN, {
      input: { identity: 'Dr. Demo', room: room(appointmentId) },
    });
    expect(token.errors).toBeUndefined();
    const { socket, first } = await joinWith(provider, token.data!.requestVideoToken.token);
    expect(first).toMatchObject({ type: 'joined', self: { role: 'provider', presence: 'admitted' } });
    socket.close();
    expect(extensionsOf(await requestToken(person.client, appointmentId))?.['reason']).toBe('consentRequired');
  });

  it('does not let in a patient who was waiting before the setting was turned on; their page is told', async () => {
    await setConsentRule(false);
    const { person, appointmentId } = await patientWithVisit();
    const patientToken = dataOf(await requestToken(person.client, appointmentId)).requestVideoToken;
    const waiting = await joinWith(person.client, patientToken.token);
    expect(waiting.first).toMatchObject({ type: 'joined', self: { presence: 'waiting' } });
    const providerToken = dataOf(
      await provider.gql<{ requestVideoToken: { token: string } }>(TOKEN, {
        input: { identity: 'Dr. Demo', room: room(appointmentId) },
      }),
    ).requestVideoToken.token;
    const host = await joinWith(provider, providerToken);
    await setConsentRule(true);
    host.socket.send({ type: 'admit', peerId: patientToken.peerId });
    expect(await host.socket.next('error')).toEqual({ type: 'error', code: 'CONSENT_REQUIRED' });
    expect(await waiting.socket.next('ended')).toEqual({ type: 'ended', reason: 'consentRequired' });
    const [row] = await db()
      .select({ presence: videoParticipants.presence })
      .from(videoParticipants)
      .where(
        and(eq(videoParticipants.appointmentId, appointmentId), eq(videoParticipants.peerId, patientToken.peerId)),
      );
    expect(row?.presence).toBe('waiting');
    expect(await statusOf(appointmentId)).not.toBe('in-progress');
    host.socket.close();
  });
});
