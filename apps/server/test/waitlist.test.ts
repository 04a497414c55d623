import { and, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, APPOINTMENT_MESSAGES, DEMO_CLINIC_PHONE, messageText, todayIn } from '@telehealth/shared';
import { appointments, waitlistEntries } from '../src/appointments/appointments.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createPatient } from './factories/patients.ts';
import { createTestApp, TestClient, type GraphQLResponse, type TestApp } from './helpers.ts';

const ZONE = 'America/New_York';
const ADD = 'mutation ($input: AddToWaitlistInput!) { addToWaitlist(input: $input) { id status weekdays timeOfDay } }';
const LIST = 'query ($providerId: ID) { listWaitlist(providerId: $providerId) { id patient status } }';
const CREATE = 'mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { id } }';
const CANCEL = 'mutation ($input: CancelAppointmentInput!) { cancelAppointment(input: $input) { id } }';
const OFFER = 'query ($token: String!) { waitlistOffer(token: $token) { status providerName date time duration } }';
const CLAIM = 'mutation ($token: String!) { claimWaitlistOffer(token: $token) { success message date time } }';

let t: TestApp;
// The test app runs in demo mode, whose fictional number a refused offer names (decision 048).
const gone = messageText('appointmentMessages.offerGonePhone', { phone: DEMO_CLINIC_PHONE });
let provider: TestClient;
let provider2: TestClient;
let patientClient: TestClient;
let providerId: string;
/** The patients of these tests (each with a name and address of their own). */
const WAITING = { firstName: 'Wanda', dateOfBirth: '1979-03-04' };

/** A Thursday some weeks ahead. */
function thursday(weeksAhead: number): string {
  let date = addDays(todayIn(ZONE), 7 * weeksAhead);
  while (new Date(`${date}T12:00:00Z`).getUTCDay() !== 4) date = addDays(date, 1);
  return date;
}

async function offerMails(email: string) {
  return t.runtime.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.toAddress, email), eq(mailOutbox.kind, 'waitlist-offer')));
}

const tokenIn = (text: string | null) => /\/waitlist\/offer#([A-Za-z0-9_-]+)/.exec(text ?? '')?.[1] ?? '';

beforeAll(async () => {
  t = await createTestApp({ BOOKING_MAIL_GRACE_SECONDS: '0' });
  ({ provider, provider2, patient: patientClient, providerId } = await demoClients(t));
});

describe('the waitlist', () => {
  it('offers a cancelled time to the first matching patients; exactly one of two simultaneous claims gets it', async () => {
    const date = thursday(3);
    const booked = await createPatient(provider, WAITING);
    const [first, second, third, fourth] = await Promise.all([
      createPatient(provider, WAITING),
      createPatient(provider, WAITING),
      createPatient(provider, WAITING),
      createPatient(provider, WAITING),
    ]);
    const afternoonOnly = await createPatient(provider, WAITING);
    const otherDays = await createPatient(provider, WAITING);
    const entry = (patientId: string, extra: Record<string, unknown> = {}) =>
      provider.gql(ADD, {
        input: {
          patientId,
          fromDate: todayIn(ZONE),
          toDate: addDays(date, 7),
          weekdays: [4],
          reason: 'Earlier visit',
          ...extra,
        },
      });
    // In this order: the oldest entries come first.
    expect((await entry(afternoonOnly.id, { timeOfDay: 'afternoon' })).errors).toBeUndefined();
    expect((await entry(otherDays.id, { weekdays: [1, 2] })).errors).toBeUndefined();
    for (const p of [first, second, third, fourth]) expect((await entry(p.id)).errors).toBeUndefined();
    const listed = await provider.gql<{ listWaitlist: { id: string }[] }>(LIST, {});
    expect(listed.data?.listWaitlist).toHaveLength(6);

    const appointment = await provider.gql<{ createAppointment: { id: string } }>(CREATE, {
      input: { patientId: booked.id, date, time: '10:00', reason: 'Follow-up' },
    });
    await provider.gql(CANCEL, { input: { id: appointment.data!.createAppointment.id, reason: 'Cannot come' } });
    await t.runtime.jobs.drain();

    // The first three matching entries, not the afternoon-only one, not the other days, not the fourth.
    const offered = await Promise.all(
      [first, second, third, fourth, afternoonOnly, otherDays].map((p) => offerMails(p.email)),
    );
    expect(offered.map((m) => m.length)).toEqual([1, 1, 1, 0, 0, 0]);
    expect(offered[0]![0]!.textBody).not.toContain('Earlier visit');
    const [tokenA, tokenB, tokenC] = offered.slice(0, 3).map((m) => tokenIn(m[0]!.textBody));

    const view = await new TestClient(t.app).gql<{ waitlistOffer: Record<string, unknown> }>(OFFER, { token: tokenA });
    expect(view.data?.waitlistOffer).toMatchObject({ status: 'open', date, time: '10:00', duration: 30 });

    // Two patients claim at the same moment, without signing in: the link is the authority.
    const claims: GraphQLResponse<{ claimWaitlistOffer: { success: boolean } }>[] = await Promise.all(
      [tokenA, tokenB].map((token) =>
        new TestClient(t.app).gql<{ claimWaitlistOffer: { success: boolean } }>(CLAIM, { token }),
      ),
    );
    const won = claims.filter((c) => c.data?.claimWaitlistOffer.success);
    expect(won).toHaveLength(1);
    const lost = claims.find((c) => !c.data)!;
    expect(lost.errors?.[0]?.message).toBe(gone);
    const late = await new TestClient(t.app).gql(CLAIM, { token: tokenC });
    expect(late.errors?.[0]?.message).toBe(gone);

    const winner = won[0] === claims[0] ? first : second;
    const rows = await t.runtime.database.db
      .select()
      .from(appointments)
      .where(and(eq(appointments.providerId, providerId), inArray(appointments.status, ['confirmed', 'scheduled'])));
    const atTen = rows.filter((r) => r.startsAt.getTime() === new Date(`${date}T15:00:00Z`).getTime());
    expect(atTen.map((r) => r.patientId)).toEqual([winner.id]);
    const [winnerEntry] = await t.runtime.database.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.patientId, winner.id));
    expect(winnerEntry).toMatchObject({ status: 'booked', appointmentId: atTen[0]!.id });

    // The others are told it is gone; the winner gets the invitation.
    await t.runtime.jobs.drain();
    const loser = winner === first ? second : first;
    const goneMails = await t.runtime.database.db.select().from(mailOutbox).where(eq(mailOutbox.kind, 'waitlist-gone'));
    expect(goneMails.map((m) => m.toAddress).sort()).toEqual([loser.email, third.email].sort());
    const invitation = await t.runtime.database.db
      .select()
      .from(mailOutbox)
      .where(and(eq(mailOutbox.toAddress, winner.email), eq(mailOutbox.kind, 'appointment-invitation')));
    expect(invitation.map((m) => m.calendarMethod)).toEqual(['REQUEST']);
    const after = await provider.gql<{ listWaitlist: { id: string }[] }>(LIST, {});
    expect(after.data?.listWaitlist).toHaveLength(5);
  });

  it('answers a claim of a time staff booked meanwhile with "gone", writing nothing', async () => {
    const date = thursday(5);
    const waiting = await createPatient(provider, WAITING);
    await provider.gql(ADD, {
      input: { patientId: waiting.id, fromDate: todayIn(ZONE), toDate: date, weekdays: [4], reason: 'Sooner' },
    });
    const first = await provider.gql<{ createAppointment: { id: string } }>(CREATE, {
      input: { patientId: (await createPatient(provider, WAITING)).id, date, time: '08:30', reason: 'Follow-up' },
    });
    await provider.gql(CANCEL, { input: { id: first.data!.createAppointment.id, reason: 'Cannot come' } });
    await t.runtime.jobs.drain();
    const token = tokenIn((await offerMails(waiting.email))[0]?.textBody ?? null);
    expect(token).not.toBe('');
    const walkIn = await provider.gql(CREATE, {
      input: { patientId: (await createPatient(provider, WAITING)).id, date, time: '08:30', reason: 'Walk-in' },
    });
    expect(walkIn.errors).toBeUndefined();
    const claim = await new TestClient(t.app).gql(CLAIM, { token });
    expect(claim.errors?.[0]?.message).toBe(gone);
    const view = await new TestClient(t.app).gql<{ waitlistOffer: { status: string } }>(OFFER, { token });
    expect(view.data?.waitlistOffer.status).toBe('gone');
    const [entry] = await t.runtime.database.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.patientId, waiting.id));
    expect(entry?.status).toBe('waiting');
  });

  it("answers an unknown link plainly, and keeps the waitlist to the provider's staff", async () => {
    const unknown = await new TestClient(t.app).gql(CLAIM, { token: 'not-a-real-token' });
    expect(unknown.errors?.[0]?.message).toBe(
      messageText('appointmentMessages.offerNotFoundPhone', { phone: DEMO_CLINIC_PHONE }),
    );
    const denied = await provider2.gql(LIST, { providerId });
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const patientAdd = await patientClient.gql(ADD, {
      input: {
        patientId: (await createPatient(provider, WAITING)).id,
        fromDate: todayIn(ZONE),
        toDate: thursday(2),
        weekdays: [4],
        reason: 'x',
      },
    });
    expect(patientAdd.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.cannotCreate);
    const noDays = await provider.gql(ADD, {
      input: {
        patientId: (await createPatient(provider, WAITING)).id,
        fromDate: todayIn(ZONE),
        toDate: thursday(2),
        weekdays: [],
        reason: 'x',
      },
    });
    expect(noDays.errors?.[0]?.message).toContain(APPOINTMENT_MESSAGES.waitlistWeekdays);
  });

  it("keeps another provider's patient off a provider's waitlist: answered like a missing patient, and recorded", async () => {
    const theirs = await createPatient(provider, WAITING);
    const input = { fromDate: todayIn(ZONE), toDate: thursday(2), weekdays: [4], reason: 'x' };
    const denied = await provider2.gql(ADD, { input: { ...input, patientId: theirs.id } });
    const missing = await provider2.gql(ADD, { input: { ...input, patientId: crypto.randomUUID() } });
    expect(denied.errors).toEqual(missing.errors);
    expect(denied.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.selectPatient);
    const denials = await t.runtime.database.db
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(
        and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), sql`${auditEntries.details}->'patientIds' ? ${theirs.id}`),
      );
    expect(denials.map((d) => d.details)).toEqual([
      { permission: 'patient:read:any', reason: "not in the caller's scope", patientIds: [theirs.id] },
    ]);
    const entries = await t.runtime.database.db
      .select()
      .from(waitlistEntries)
      .where(eq(waitlistEntries.patientId, theirs.id));
    expect(entries).toEqual([]);
  });
});
