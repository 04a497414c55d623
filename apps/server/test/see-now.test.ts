import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { messageText, PATIENT_MESSAGES, SEE_NOW_REASON } from '@telehealth/shared';
import { appointments } from '../src/appointments/appointments.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createPatient } from './factories/patients.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

const SEE_NOW = `mutation ($input: SeeNowInput!) { seeNow(input: $input) {
  id patientId providerId appointmentType status duration reason startsAt endsAt videoCallEnabled } }`;
const VIDEO_VISIT = 'query ($appointmentId: ID!) { videoVisit(appointmentId: $appointmentId) { room role } }';

interface SeenNow {
  id: string;
  patientId: string;
  providerId: string;
  appointmentType: string;
  status: string;
  duration: number;
  reason: string;
  startsAt: string;
  endsAt: string;
}

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let providerId: string;
let provider2Id: string;
let serial = 0;
/** The patients of these tests: one name, each with an address of its own. */
const SEEN = { firstName: 'Ines', lastName: 'Seen', dateOfBirth: '1979-04-05' };

const seeNow = (client: TestClient, patientId: string, headers?: Record<string, string>) =>
  client.gql<{ seeNow: SeenNow }>(SEE_NOW, { input: { patientId } }, headers);

const denialsFor = (patientId: string) =>
  t.runtime.database.db
    .select()
    .from(auditEntries)
    .where(
      and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), sql`${auditEntries.details}->'patientIds' ? ${patientId}`),
    );

const appointmentsOf = (patientId: string) =>
  t.runtime.database.db.select().from(appointments).where(eq(appointments.patientId, patientId));

const errorOf = (response: GraphQLResponse) => response.errors?.[0];

beforeAll(async () => {
  // Invitations go out at once (no grace period to wait for).
  t = await createTestApp({ BOOKING_MAIL_GRACE_SECONDS: '0' });
  ({ admin, provider, provider2, patient, providerId, provider2Id } = await demoClients(t));
});

describe('seeNow', () => {
  it("books the provider's own patient a video visit from this minute, audited, announced, and open to join", async () => {
    const email = `see.now.mail${++serial}@example.net`;
    const patientId = (await createPatient(provider, { ...SEEN, email })).id;
    const before = Date.now();
    const headers = { 'idempotency-key': `see-now-${++serial}` };
    const response = await seeNow(provider, patientId, headers);
    expect(response.errors).toBeUndefined();
    const visit = response.data!.seeNow;
    // A retry of the same request (a lost reply) answers the same visit, without a second.
    const again = await seeNow(provider, patientId, headers);
    expect(again.data?.seeNow.id).toBe(visit.id);
    expect(await appointmentsOf(patientId)).toHaveLength(1);
    expect(visit).toMatchObject({
      patientId,
      providerId,
      appointmentType: 'video',
      status: 'confirmed',
      // The practice's visit length (the booking policy's, 30 minutes by default).
      duration: 30,
      reason: SEE_NOW_REASON,
    });
    const startsAt = Date.parse(visit.startsAt);
    // This minute, whatever the scheduling grid says.
    expect(startsAt).toBeLessThanOrEqual(Date.now());
    expect(startsAt).toBeGreaterThan(before - 60_000);
    expect(Date.parse(visit.endsAt) - startsAt).toBe(30 * 60_000);

    const [entry] = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(
        and(eq(auditEntries.event, 'APPOINTMENT_CREATE'), sql`${auditEntries.details}->'appointmentIds' ? ${visit.id}`),
      );
    expect(entry).toMatchObject({ userId: providerId, url: 'seeNow' });
    expect(entry!.details).toMatchObject({ patientIds: [patientId], seeNow: true });

    // The patient is told as of any new video visit, with the link to its room.
    await t.runtime.jobs.drain();
    const mails = await t.runtime.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
    expect(mails.map((m) => m.kind)).toEqual(['appointment-invitation']);
    expect(mails[0]!.textBody).toContain(`/video-call/${visit.id}`);

    // The provider may open the room at once.
    const room = await provider.gql<{ videoVisit: { role: string } }>(VIDEO_VISIT, { appointmentId: visit.id });
    expect(room.errors).toBeUndefined();
    expect(room.data?.videoVisit.role).toBe('provider');
  });

  it('refuses a second visit of the provider at that time, naming the visit in the way, and writes nothing', async () => {
    const first = (await createPatient(provider2, SEEN)).id;
    const second = (await createPatient(provider2, SEEN)).id;
    const visit = await seeNow(provider2, first);
    expect(visit.errors).toBeUndefined();
    const response = await seeNow(provider2, second);
    expect(errorOf(response)?.extensions).toMatchObject({
      code: 'PROVIDER_BUSY',
      messageId: 'appointmentMessages.seeNowProviderBusy',
    });
    expect(errorOf(response)?.message).toMatch(/^You have another visit from \d\d:\d\d to \d\d:\d\d\./);
    expect(await appointmentsOf(second)).toEqual([]);
  });

  it('frees the rest of a visit already completed (ended early), and refuses one completed before its time', async () => {
    const db = t.runtime.database.db;
    // The previous test's visit of this provider is out of the way.
    for (const a of await db.select().from(appointments).where(eq(appointments.providerId, provider2Id))) {
      await provider2.gql('mutation ($input: CancelAppointmentInput!) { cancelAppointment(input: $input) { id } }', {
        input: { id: a.id, reason: 'Done' },
      });
    }
    const earlier = (await createPatient(provider2, SEEN)).id;
    const later = (await createPatient(provider2, SEEN)).id;
    const next = (await createPatient(provider2, SEEN)).id;
    // Visits of the provider made completed around now, as the video visit's end makes them.
    const visitAt = async (patientId: string, fromMinutes: number, toMinutes: number) => {
      const response = await provider2.gql<{ createAppointment: { id: string } }>(
        'mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { id } }',
        { input: { patientId, date: '2099-01-06', time: '09:00', reason: 'Follow-up', allowOutsideHours: true } },
      );
      const id = response.data!.createAppointment.id;
      await db.execute(
        sql`UPDATE appointments SET status = 'completed', starts_at = now() + make_interval(mins => ${fromMinutes}), ends_at = now() + make_interval(mins => ${toMinutes}) WHERE id = ${id}`,
      );
      return id;
    };
    const endedBeforeItsTime = await visitAt(later, 10, 40);
    const refused = await seeNow(provider2, next);
    expect(errorOf(refused)?.extensions?.code).toBe('PROVIDER_BUSY');
    await db.execute(
      sql`UPDATE appointments SET status = 'cancelled', cancellation_kind = 'provider' WHERE id = ${endedBeforeItsTime}`,
    );

    const endedEarly = await visitAt(earlier, -20, 10);
    const response = await seeNow(provider2, next);
    expect(response.errors).toBeUndefined();
    const visit = response.data!.seeNow;
    const [released] = await db.select().from(appointments).where(eq(appointments.id, endedEarly));
    expect(released!.endsAt.toISOString()).toBe(visit.startsAt);
    expect(released!.status).toBe('completed');
  });

  it("answers another provider's patient like a missing one and records the attempt", async () => {
    const theirs = (await createPatient(provider2, SEEN)).id;
    const response = await seeNow(provider, theirs);
    expect(errorOf(response)).toMatchObject({
      message: PATIENT_MESSAGES.notFound,
      extensions: { code: 'NOT_FOUND' },
    });
    expect(await appointmentsOf(theirs)).toEqual([]);
    const denials = await denialsFor(theirs);
    expect(denials).toHaveLength(1);
    expect(denials[0]!.details).toMatchObject({ permission: 'visit:start:any' });
    // An id that is no patient at all is answered the same way, and is nobody's to record.
    const missing = await seeNow(provider, '00000000-0000-4000-8000-000000000000');
    expect(errorOf(missing)?.message).toBe(PATIENT_MESSAGES.notFound);
  });

  it('refuses administrators and patients whatever the patient', async () => {
    const patientId = (await createPatient(provider2, SEEN)).id;
    for (const client of [admin, patient]) {
      const response = await seeNow(client, patientId);
      expect(errorOf(response)).toMatchObject({
        message: messageText('appointmentMessages.cannotSeeNow'),
        extensions: { code: 'FORBIDDEN' },
      });
    }
    expect(await appointmentsOf(patientId)).toEqual([]);
  });
});
