import fs from 'node:fs';
import path from 'node:path';
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
});
