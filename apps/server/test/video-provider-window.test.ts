/**
 * The provider's early room (decision 047): the visit's provider opens the room VIDEO_PROVIDER_EARLY_MINUTES
 * before the start to test camera and microphone, while the patient's window stays VIDEO_JOIN_EARLY_MINUTES
 * (the default, 15). Enforced at the token request and again at the signalling socket.
 */
import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  VIDEO_JOIN_EARLY_MINUTES,
  VIDEO_PROVIDER_EARLY_MINUTES,
  VIDEO_SIGNAL_PATH,
  type VideoServerMessage,
} from '@telehealth/shared';
import { insertAppointments } from '../src/appointments/appointments.repository.ts';
import { patients } from '../src/patients/patients.table.ts';
import { createTestApp, TestClient, type TestApp } from './helpers.ts';
import { liveUrl, openLiveOrFail } from './live-helpers.ts';

const TOKEN = `mutation ($input: VideoTokenInput!) { requestVideoToken(input: $input) { token } }`;
const VISIT = `query ($id: ID!) { videoVisit(appointmentId: $id) { role closedReason opensAt } }`;

let t: TestApp;
let provider: TestClient;
let patient: TestClient;
let providerId: string;
let patientRecordId: string;

/** A video appointment starting `minutes` from now. */
async function videoAppointmentIn(minutes: number, withProvider = providerId): Promise<{ id: string; startsAt: Date }> {
  const startsAt = new Date(Date.now() + minutes * 60_000);
  const [row] = await insertAppointments(
    t.runtime.database.db,
    [
      {
        patientId: patientRecordId,
        providerId: withProvider,
        startsAt,
        endsAt: new Date(startsAt.getTime() + 15 * 60_000),
        timeZone: t.runtime.config.settings.current().timeZone,
        duration: 15,
        appointmentType: 'video',
        status: 'scheduled',
        reason: 'Medication follow-up',
        createdBy: withProvider,
      },
    ],
    t.runtime.keyring,
  );
  return { id: row!.id, startsAt };
}

const room = (id: string) => `${t.runtime.config.video.roomPrefix}-room-${id}`;

beforeAll(async () => {
  t = await createTestApp();
  provider = new TestClient(t.app);
  patient = new TestClient(t.app);
  providerId = (await provider.signIn('provider@demo.test', DEMO_PASSWORD)).user!.userId;
  const patientUserId = (await patient.signIn('patient@demo.test', DEMO_PASSWORD)).user!.userId;
  const created = await provider.gql<{ createPatient: { id: string } }>(
    'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
    { input: { firstName: 'Ana', lastName: 'Early', email: 'ana.early@example.net', dateOfBirth: '1988-02-03' } },
  );
  patientRecordId = created.data!.createPatient.id;
  await t.runtime.database.db
    .update(patients)
    .set({ accountId: patientUserId })
    .where(eq(patients.id, patientRecordId));
});

describe("the provider's early room", () => {
  it('opens for the provider before the patient’s window; the patient is still refused, at the token and the socket', async () => {
    expect(VIDEO_PROVIDER_EARLY_MINUTES).toBeGreaterThan(VIDEO_JOIN_EARLY_MINUTES);
    const minutes = (VIDEO_JOIN_EARLY_MINUTES + VIDEO_PROVIDER_EARLY_MINUTES) / 2;
    const { id, startsAt } = await videoAppointmentIn(minutes);

    const providerVisit = await provider.gql<{
      videoVisit: { role: string; closedReason: string | null; opensAt: string };
    }>(VISIT, { id });
    expect(providerVisit.data?.videoVisit).toMatchObject({ role: 'provider', closedReason: null });
    expect(Date.parse(providerVisit.data!.videoVisit.opensAt)).toBe(
      startsAt.getTime() - VIDEO_PROVIDER_EARLY_MINUTES * 60_000,
    );
    const token = await provider.gql<{ requestVideoToken: { token: string } }>(TOKEN, {
      input: { identity: 'Dr. Demo', room: room(id) },
    });
    expect(token.errors).toBeUndefined();
    const socket = await openLiveOrFail<VideoServerMessage>(
      (await liveUrl(t.app)).replace(/\/api\/live$/, VIDEO_SIGNAL_PATH),
      { cookie: provider.cookie, origin: t.runtime.config.publicUrl },
    );
    socket.send({ type: 'join', token: token.data!.requestVideoToken.token, pageId: crypto.randomUUID() });
    const joined = await socket.next('joined');
    expect(joined.self).toMatchObject({ role: 'provider', presence: 'admitted' });
    socket.close();

    const patientVisit = await patient.gql<{ videoVisit: { closedReason: string | null; opensAt: string } }>(VISIT, {
      id,
    });
    expect(patientVisit.data?.videoVisit.closedReason).toBe('tooEarly');
    expect(Date.parse(patientVisit.data!.videoVisit.opensAt)).toBe(
      startsAt.getTime() - VIDEO_JOIN_EARLY_MINUTES * 60_000,
    );
    const refused = await patient.gql(TOKEN, { input: { identity: 'Ana', room: room(id) } });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'VIDEO_CLOSED', reason: 'tooEarly' });
    expect(refused.errors?.[0]?.message).toContain(`opens ${VIDEO_JOIN_EARLY_MINUTES} minutes before`);
  });

  it('is closed to the provider too before their own window, and says how early it opens for them', async () => {
    const { id } = await videoAppointmentIn(VIDEO_PROVIDER_EARLY_MINUTES + 10);
    const refused = await provider.gql(TOKEN, { input: { identity: 'Dr. Demo', room: room(id) } });
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'VIDEO_CLOSED', reason: 'tooEarly' });
    expect(refused.errors?.[0]?.message).toContain(`opens ${VIDEO_PROVIDER_EARLY_MINUTES} minutes before`);
  });
});

describe('the note after the visit', () => {
  const PATIENT_OF_VISIT = `query ($id: ID!) { videoVisit(appointmentId: $id) { patientId } }`;

  it('names the patient to the provider whose chart it is, and to no one else', async () => {
    const own = await videoAppointmentIn(300);
    const ownView = await provider.gql<{ videoVisit: { patientId: string | null } }>(PATIENT_OF_VISIT, { id: own.id });
    expect(ownView.data?.videoVisit.patientId).toBe(patientRecordId);
    const patientView = await patient.gql<{ videoVisit: { patientId: string | null } }>(PATIENT_OF_VISIT, {
      id: own.id,
    });
    expect(patientView.data?.videoVisit.patientId).toBeNull();

    // A colleague holding a visit with this patient cannot open the chart, so is not sent to it.
    const colleague = new TestClient(t.app);
    const colleagueId = (await colleague.signIn('provider2@demo.test', DEMO_PASSWORD)).user!.userId;
    const covered = await videoAppointmentIn(400, colleagueId);
    const coveredView = await colleague.gql<{ videoVisit: { patientId: string | null } }>(PATIENT_OF_VISIT, {
      id: covered.id,
    });
    expect(coveredView.errors).toBeUndefined();
    expect(coveredView.data?.videoVisit.patientId).toBeNull();
  });
});
