// The floors to compare GraphQL with, started by patients.bench.ts:
// - /floor/patients: a bare Fastify route running the same list query through the same repository, with no
//   session, no GraphQL and no audit entry.
// - /floor/audited-patients: the work of an audited read without GraphQL: the same session plugin (cookie
//   check, the one statement that slides the deadline, the refreshed cookie), then the same page query with
//   its audit entry in one statement. GraphQL against it is the cost of GraphQL and the service; it against
//   the bare route is the cost of the session and the audit entry.
import cookie from '@fastify/cookie';
import Fastify from 'fastify';
import { RateLimiter } from '../src/rate-limit/rate-limiter.ts';
import { AuthService } from '../src/auth/auth.service.ts';
import { createAuth } from '../src/auth/auth.ts';
import { loadConfig } from '../src/config.ts';
import { connectDatabase } from '../src/db/client.ts';
import { Keyring } from '../src/keys/keyring.ts';
import { listPatientsPage, type PatientRow } from '../src/patients/patients.repository.ts';
import { sessionPlugin } from '../src/plugins/session.ts';

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
const authService = new AuthService({
  auth: createAuth({ db, config, secret }),
  db,
  config,
  secret,
  limiter: new RateLimiter(secret),
});

const app = Fastify({ logger: false });
await app.register(cookie);
await app.register(sessionPlugin, { authService });

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

await app.listen({ port, host: '127.0.0.1' });
console.log('floor ready');
