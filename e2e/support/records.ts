/**
 * Factories for browser tests: each test makes the records it relies on, through the GraphQL API, instead of
 * reading the demo data's names (which another test may change). Names are unique per call (letters only, as
 * the name rules ask), so tests run in any order and in parallel against one server.
 */
import { request as playwrightRequest, type APIRequestContext } from '@playwright/test';
import { addDays, DEMO_PASSWORD, todayIn, zonedDateTime } from '@telehealth/shared';
import { uniqueLetters } from './access-requests.ts';
import { demoAccount } from './fixtures.ts';
import { graphqlCall, graphqlData } from './graphql.ts';

export interface PatientRecord {
  id: string;
  firstName: string;
  lastName: string;
  /** "First Last", as the screens show it. */
  name: string;
  email: string;
}

const CREATE_PATIENT = 'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }';
const SIGN_IN = 'mutation ($e: String!, $p: String!) { signIn(email: $e, password: $p) { success } }';
const INVITE = 'mutation ($input: InviteUserInput!) { inviteUser(input: $input) { id } }';
const OUTBOX = '{ listOutbox(limit: 50) { items { to kind text } } }';
const ACCEPT = 'mutation ($t: String!, $p: String!) { acceptInvitation(token: $t, password: $p) { success } }';

/** The password of every portal account a factory creates. */
export const PORTAL_PASSWORD = 'Portal-Factory-2026!';

/**
 * A patient record created by the person signed in on `request` (a provider's record is their own; an
 * administrator names the primary provider with `owner`). `fields` adds to or replaces the form's answers.
 */
export async function createPatientRecord(
  request: APIRequestContext,
  origin: string,
  fields: Record<string, unknown> = {},
): Promise<PatientRecord> {
  const letters = uniqueLetters();
  const input = {
    firstName: 'Robin',
    lastName: `Record${letters}`,
    email: `robin.${letters}@example.test`,
    dateOfBirth: '1986-04-03',
    ...fields,
  } as { firstName: string; lastName: string; email: string };
  const { createPatient } = await graphqlData<{ createPatient: { id: string } }>(
    request,
    originOf(origin),
    CREATE_PATIENT,
    {
      input,
    },
  );
  return { id: createPatient.id, ...pick(input), name: `${input.firstName} ${input.lastName}` };
}

/** The origin of a base URL (the server refuses a POST whose Origin header is anything else). */
const originOf = (url: string) => new URL(url).origin;

function pick(input: { firstName: string; lastName: string; email: string }) {
  return { firstName: input.firstName, lastName: input.lastName, email: input.email };
}

/** A request context of its own, signed in as `email` (the demo password unless given). Dispose it after use. */
export async function signedInRequest(
  origin: string,
  email: string,
  password: string = DEMO_PASSWORD,
): Promise<APIRequestContext> {
  const request = await playwrightRequest.newContext({ baseURL: origin });
  const { signIn } = await graphqlData<{ signIn: { success: boolean } }>(request, originOf(origin), SIGN_IN, {
    e: email,
    p: password,
  });
  if (!signIn.success) throw new Error(`cannot sign in ${email}`);
  return request;
}

export interface PortalPatient extends PatientRecord {
  password: string;
}

/**
 * A patient of `providerEmail` (the first demo provider unless given) with a portal account of their own: the
 * provider creates the record, the administrator invites it, and the invitation from the demo outbox is
 * accepted with PORTAL_PASSWORD. Not signed in anywhere; `fields` adds to or replaces the record's answers.
 */
export async function createPortalPatient(
  origin: string,
  options: { providerEmail?: string; fields?: Record<string, unknown>; language?: 'en' | 'es' } = {},
): Promise<PortalPatient> {
  origin = originOf(origin);
  const provider = await signedInRequest(origin, options.providerEmail ?? demoAccount('provider').email);
  const admin = await signedInRequest(origin, demoAccount('admin').email);
  try {
    const record = await createPatientRecord(provider, origin, { firstName: 'Jamie', ...options.fields });
    await graphqlData(admin, origin, INVITE, {
      input: {
        role: 'patient',
        email: record.email,
        patientId: record.id,
        ...(options.language ? { language: options.language } : {}),
      },
    });
    const token = await invitationToken(admin, origin, record.email);
    await graphqlData(admin, origin, ACCEPT, { t: token, p: PORTAL_PASSWORD });
    return { ...record, password: PORTAL_PASSWORD };
  } finally {
    await provider.dispose();
    await admin.dispose();
  }
}

/** The token of the newest invitation to `email` in the demo outbox (the mail is written when invited). */
async function invitationToken(admin: APIRequestContext, origin: string, email: string): Promise<string> {
  const { listOutbox } = await graphqlData<{
    listOutbox: { items: { to: string; kind: string; text: string | null }[] };
  }>(admin, origin, OUTBOX);
  const mail = listOutbox.items.find((item) => item.to === email && item.kind === 'invitation');
  const token = /\/invite#([^\s]+)/.exec(mail?.text ?? '')?.[1];
  if (!token) throw new Error(`no invitation to ${email} in the outbox`);
  return token;
}

const ME = '{ me { userId } }';
const SLOTS = 'query ($p: ID!, $d: String!) { availableSlots(providerId: $p, date: $d) { time available } }';
const CREATE_APPOINTMENT =
  'mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { id date time } }';

/**
 * A visit booked by the provider signed in on `request` for their patient, at the first free time on a weekday
 * from `daysAhead` days on (in the practice's zone, `zone`). Answers the appointment's id, date and time.
 */
export async function bookVisit(
  request: APIRequestContext,
  origin: string,
  patientId: string,
  options: { zone?: string; daysAhead?: number; fields?: Record<string, unknown> } = {},
): Promise<{ id: string; date: string; time: string }> {
  origin = originOf(origin);
  const { me } = await graphqlData<{ me: { userId: string } }>(request, origin, ME);
  const zone = options.zone ?? 'America/New_York';
  for (let offset = options.daysAhead ?? 1; offset < (options.daysAhead ?? 1) + 30; offset++) {
    const date = addDays(todayIn(zone), offset);
    const weekday = new Date(`${date}T12:00:00Z`).getUTCDay();
    if (weekday === 0 || weekday === 6) continue;
    const { availableSlots } = await graphqlData<{ availableSlots: { time: string; available: boolean }[] }>(
      request,
      origin,
      SLOTS,
      { p: me.userId, d: date },
    );
    // Another test may take a free time first (the booking is then refused): the next one is tried.
    for (const slot of availableSlots.filter((candidate) => candidate.available)) {
      const booked = await graphqlCall<{ createAppointment: { id: string; date: string; time: string } }>(
        request,
        origin,
        CREATE_APPOINTMENT,
        { input: { patientId, date, time: slot.time, reason: 'Follow-up', ...options.fields } },
      );
      if (booked.data) return booked.data.createAppointment;
    }
  }
  throw new Error('no free time in the next 30 days');
}

const PRACTICE_ZONE = '{ appConfig { practiceTimeZone } }';
const HALF_HOUR = 1_800_000;

/**
 * A visit at the first free half hour from `from` (now unless given) on, in the server's practice time zone,
 * booked by the person signed in on `request` outside the working hours if need be: a video visit of 30 minutes
 * unless `fields` says otherwise (an administrator names the provider with `fields.providerId`). A half hour the
 * patient or the provider already holds is refused, and the next one is tried, twelve in all. Answers the
 * appointment's id, and the date and time asked for (in the practice's zone, as `HH:MM`).
 */
export async function bookHalfHour(
  request: APIRequestContext,
  origin: string,
  patientId: string,
  options: { from?: Date; fields?: Record<string, unknown> } = {},
): Promise<{ id: string; date: string; time: string }> {
  origin = originOf(origin);
  const { appConfig } = await graphqlData<{ appConfig: { practiceTimeZone: string } }>(request, origin, PRACTICE_ZONE);
  const first = Math.ceil((options.from ?? new Date()).getTime() / HALF_HOUR) * HALF_HOUR;
  for (let k = 0; k < 12; k++) {
    const at = zonedDateTime(new Date(first + k * HALF_HOUR), appConfig.practiceTimeZone);
    const booked = await graphqlCall<{ createAppointment: { id: string } }>(request, origin, CREATE_APPOINTMENT, {
      input: {
        patientId,
        date: at.date,
        time: at.time,
        duration: 30,
        appointmentType: 'video',
        reason: 'Follow-up',
        allowOutsideHours: true,
        ...options.fields,
      },
    });
    if (booked.data) return { id: booked.data.createAppointment.id, date: at.date, time: at.time };
  }
  throw new Error('no free half hour to book');
}
