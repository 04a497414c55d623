// The floor to compare GraphQL with: a bare Fastify route running the same list query through the same
// repository, with no session, no GraphQL and no audit entry. Started by patients.bench.ts.
import Fastify from 'fastify';
import { connectDatabase } from '../src/db/client.ts';
import { listPatientsPage } from '../src/patients/patients.repository.ts';

const url = process.env.FLOOR_DATABASE_URL;
const port = Number(process.env.FLOOR_PORT ?? 3799);
if (!url) throw new Error('FLOOR_DATABASE_URL is required');

const { db } = connectDatabase(url);
const app = Fastify({ logger: false });
app.get('/floor/patients', async () => {
  const page = await listPatientsPage(db, { scope: { kind: 'all' }, filter: {}, after: null, limit: 50 });
  return { items: page.rows, next: page.next };
});
await app.listen({ port, host: '127.0.0.1' });
console.log('floor ready');
