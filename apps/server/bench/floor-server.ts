// The floors to compare GraphQL with, started by patients.bench.ts:
// - /floor/patients: a bare Fastify route running the same list query through the same repository, with no
//   session, no GraphQL and no audit entry.
// - /floor/audited-patients: the work of an audited read without GraphQL: the same session plugin (cookie
//   check, the one statement that slides the deadline, the refreshed cookie), then the same page query with
//   its audit entry in one statement. GraphQL against it is the cost of GraphQL and the service; it against
//   the bare route is the cost of the session and the audit entry.
import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { createAuth } from '../src/auth/auth.ts';
import { SessionLifetime } from '../src/auth/session-lifetime.ts';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/client.ts';
import { Keyring } from '../src/keys/keyring.ts';
import { listPatientsPage, type PatientRow } from '../src/patients/patients.repository.ts';
import { sessionPlugin } from '../src/plugins/session.ts';
import { addDays, MAX_PAGE_SIZE } from '@telehealth/shared';
import { findProviderBusy, listAppointmentsPage } from '../src/appointments/appointments.repository.ts';
import { findTimeOff, findWorkingHours } from '../src/appointments/availability.repository.ts';
import { daySlots, occurrence } from '../src/appointments/schedule.ts';

const url = process.env.FLOOR_DATABASE_URL;
const port = Number(process.env.FLOOR_PORT ?? 3799);
if (!url) throw new Error('FLOOR_DATABASE_URL is required');

// The server's own configuration (AUTH_SECRET, session times) from the environment the bench passes on.
const config = loadConfig({ ...process.env, DATABASE_URL: url });
const secret = config.authSecret;
if (!secret) throw new Error('AUTH_SECRET is required: the audited floor checks the server session cookies');
if (!config.dataEncryptionKeys) throw new Error('DATA_ENCRYPTION_KEY is required: the rows hold encrypted text');
const keyring = new Keyring(config.dataEncryptionKeys);
const { db } = connectDatabase(url);
const sessions = new SessionLifetime({ auth: createAuth({ db, config, secret }), db, config, secret });

const app = Fastify({ logger: false });
await app.register(cookie);
await app.register(sessionPlugin, { sessions });

/**
 * The fields the benchmark's GraphQL query asks for. Serialising whole rows would decrypt the clinical text, which
 * GraphQL never reads for that query (it is decrypted when first read, decision 016).
 */
function listItems(rows: PatientRow[]) {
  return rows.map(({ id, firstName, lastName, email, phone, dateOfBirth, isActive, createdAt }) => ({
    id,
    firstName,
    lastName,
    email,
    phone,
    dateOfBirth,
    isActive,
    createdAt,
  }));
}

app.get('/floor/patients', async () => {
  const page = await listPatientsPage(db, { scope: { kind: 'any' }, filter: {}, after: null, limit: 50 }, keyring);
  return { items: listItems(page.rows), next: page.next };
});

app.get('/floor/audited-patients', { config: { session: 'required' } }, async (request) => {
  const page = await listPatientsPage(
    db,
    {
      scope: { kind: 'any' },
      filter: {},
      after: null,
      limit: 50,
      audit: {
        event: 'PATIENT_VIEW',
        level: 'INFO',
        actor: request.actor,
        url: 'floor',
        details: { page: 'first' },
      },
    },
    keyring,
  );
  return { items: listItems(page.rows), next: page.next };
});

/** The calendar's month for one provider: the repository's page query alone (no session, GraphQL or audit). */
app.get<{ Querystring: { providerId: string; from: string; to: string } }>('/floor/appointments', async (request) => {
  const { providerId, from, to } = request.query;
  const page = await listAppointmentsPage(
    db,
    {
      reach: { kind: 'any' },
      query: { providerId, from: new Date(from), before: new Date(to) },
      after: null,
      limit: MAX_PAGE_SIZE,
    },
    keyring,
  );
  return {
    items: page.rows.map(({ id, patientFirstName, patientLastName, startsAt, endsAt, status, appointmentType }) => ({
      id,
      patient: `${patientFirstName} ${patientLastName}`,
      startsAt,
      endsAt,
      status,
      appointmentType,
    })),
    next: page.next,
  };
});

/** One day's free slots: the same three reads and the same arithmetic as availableSlots. */
app.get<{ Querystring: { providerId: string; date: string } }>('/floor/slots', async (request) => {
  const { providerId, date } = request.query;
  const zone = config.settings.current().timeZone;
  const dayStart = occurrence(date, '00:00', 15, zone).startsAt;
  const dayEnd = occurrence(addDays(date, 1), '00:00', 15, zone).startsAt;
  const [week, timeOff, busy] = await Promise.all([
    findWorkingHours(db, providerId, config.settings.current().defaultWorkingHours),
    findTimeOff(db, providerId, { from: date, to: date }),
    findProviderBusy(db, providerId, dayStart, dayEnd),
  ]);
  const step = config.settings.current().slotStepMinutes;
  return daySlots({ date, duration: 30, step, zone, week: week.intervals, timeOff, busy, now: new Date() });
});

await app.listen({ port, host: '127.0.0.1' });
console.log('floor ready');
