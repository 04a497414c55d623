import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { migrateDatabase } from '../src/db/client.ts';
import { createTestDatabase } from './helpers.ts';

describe('migrations', () => {
  it('lets two instances start at once against one database without both migrating', async () => {
    const url = await createTestDatabase();
    await Promise.all([migrateDatabase(url), migrateDatabase(url), migrateDatabase(url)]);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const applied = await client.query<{ n: number }>('SELECT count(*)::int AS n FROM drizzle.__drizzle_migrations');
    const tables = await client.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_name = 'audit_entries'",
    );
    await client.end();
    const journal = JSON.parse(
      fs.readFileSync(path.resolve(import.meta.dirname, '../drizzle/meta/_journal.json'), 'utf8'),
    ) as { entries: unknown[] };
    expect(applied.rows[0]?.n).toBe(journal.entries.length);
    expect(tables.rows[0]?.n).toBe(1);
  });

  it('0007 gives a provider one id: the provider record takes its account id, patients keep their provider', async () => {
    const url = await createTestDatabase();
    // The migrations before 0007, from a copy of the folder whose journal stops there.
    const source = path.resolve(import.meta.dirname, '../drizzle');
    const before = fs.mkdtempSync(path.join(os.tmpdir(), 'migrations-'));
    fs.cpSync(source, before, { recursive: true });
    const journalPath = path.join(before, 'meta/_journal.json');
    const journal = JSON.parse(fs.readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
    const at = journal.entries.findIndex((e) => e.tag === '0007_provider_id');
    expect(at).toBeGreaterThan(0);
    fs.writeFileSync(journalPath, JSON.stringify({ ...journal, entries: journal.entries.slice(0, at) }));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      await migrate(drizzle(client), { migrationsFolder: before });
      const [withRecord, withoutRecord, idle] = [crypto.randomUUID(), crypto.randomUUID(), crypto.randomUUID()];
      const oldRecordId = crypto.randomUUID();
      await client.query(
        `INSERT INTO users (id, email, name, first_name, last_name, role) VALUES
           ($1, 'with.record@clinic.example', 'Wendy Record', 'Wendy', 'Record', 'provider'),
           ($2, 'without.record@clinic.example', 'Owen Less', 'Owen', 'Less', 'provider'),
           ($3, 'idle@clinic.example', 'Ida Le', 'Ida', 'Le', 'provider')`,
        [withRecord, withoutRecord, idle],
      );
      await client.query(
        `INSERT INTO providers (id, account_id, first_name, last_name, email, specialty, experience)
         VALUES ($1, $2, 'Wendy', 'Record', 'with.record@clinic.example', 'Psychiatry', 9)`,
        [oldRecordId, withRecord],
      );
      await client.query(
        `INSERT INTO patients (first_name, last_name, email, date_of_birth, owner_id) VALUES
           ('Ann', 'One', 'ann@example.net', '1990-01-01', $1),
           ('Ben', 'Two', 'ben@example.net', '1991-02-02', $2),
           ('Cy', 'Three', 'cy@example.net', '1992-03-03', NULL)`,
        [withRecord, withoutRecord],
      );

      await migrateDatabase(url);

      const records = await client.query<{ id: string; specialty: string; experience: number }>(
        'SELECT id, specialty, experience FROM providers ORDER BY email',
      );
      expect(records.rows).toEqual([
        { id: idle, specialty: 'Other', experience: 0 },
        { id: withRecord, specialty: 'Psychiatry', experience: 9 },
        { id: withoutRecord, specialty: 'Other', experience: 0 },
      ]);
      const owners = await client.query<{ email: string; owner_id: string | null }>(
        'SELECT email, owner_id FROM patients ORDER BY email',
      );
      expect(owners.rows).toEqual([
        { email: 'ann@example.net', owner_id: withRecord },
        { email: 'ben@example.net', owner_id: withoutRecord },
        { email: 'cy@example.net', owner_id: null },
      ]);
      // A patient's provider must now be a provider record: an account without one is refused.
      const admin = crypto.randomUUID();
      await client.query(
        `INSERT INTO users (id, email, name, role) VALUES ($1, 'admin@clinic.example', 'A', 'admin')`,
        [admin],
      );
      await expect(
        client.query(
          `INSERT INTO patients (first_name, last_name, email, date_of_birth, owner_id)
           VALUES ('Di', 'Four', 'di@example.net', '1993-04-04', $1)`,
          [admin],
        ),
      ).rejects.toMatchObject({ code: '23503', constraint: 'patients_owner_id_providers_id_fk' });
    } finally {
      await client.end();
      fs.rmSync(before, { recursive: true, force: true });
    }
  });
});
