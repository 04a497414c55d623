import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { containsPattern } from '../src/db/like.ts';
import { afterFile } from './file-cleanup.ts';
import { createTestDatabase } from './helpers.ts';

describe('containsPattern', () => {
  it("finds a searched text anywhere, its %, _ and \\ matching only themselves (PostgreSQL's LIKE)", async () => {
    const client = new pg.Client({ connectionString: await createTestDatabase() });
    await client.connect();
    afterFile(() => client.end());
    const matches = async (value: string, search: string) =>
      (await client.query<{ hit: boolean }>('SELECT $1::text LIKE $2 AS hit', [value, containsPattern(search)]))
        .rows[0]!.hit;

    expect(await matches('Jordan Alvarez', 'dan Al')).toBe(true);
    expect(await matches('50% off', '50%')).toBe(true);
    expect(await matches('500 off', '50%')).toBe(false);
    expect(await matches('a_b', 'a_b')).toBe(true);
    expect(await matches('axb', 'a_b')).toBe(false);
    expect(await matches('C:\\notes', 'C:\\n')).toBe(true);
    expect(await matches('C:notes', 'C:\\n')).toBe(false);
  });
});
