import fs from 'node:fs';
import path from 'node:path';
import { generateDrizzleJson, generateMigration } from 'drizzle-kit/api';
import { describe, expect, it } from 'vitest';

const server = path.resolve(import.meta.dirname, '..');
const meta = path.join(server, 'drizzle/meta');

// Decision 056: every table lives in a `src/<domain>/<name>.table.ts` (what drizzle.config.ts reads), and the
// snapshot of the latest migration describes them, so that `npm run db:generate` starts from the truth.
describe('drizzle snapshots', () => {
  it('the latest migration has a snapshot, and it matches the tables in code (generate would write nothing)', async () => {
    const journal = JSON.parse(fs.readFileSync(path.join(meta, '_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    const latest = journal.entries.at(-1)?.tag.slice(0, 4);
    const snapshotFiles = fs
      .readdirSync(meta)
      .filter((file) => /^\d{4}_snapshot\.json$/.test(file))
      .sort();
    expect(snapshotFiles.at(-1)).toBe(`${latest}_snapshot.json`);
    // drizzle-kit's snapshot type does not resolve outside drizzle-kit (skipLibCheck): the JSON goes in as it is.
    const snapshot: unknown = JSON.parse(fs.readFileSync(path.join(meta, `${latest}_snapshot.json`), 'utf8'));

    const tableFiles = fs.globSync('src/**/*.table.ts', { cwd: server });
    expect(tableFiles.length).toBeGreaterThan(0);
    const modules = await Promise.all(
      tableFiles.map((file) => import(path.join(server, file)) as Promise<Record<string, unknown>>),
    );
    const tables = Object.fromEntries(modules.flatMap((module) => Object.entries(module)));
    const statements = await generateMigration(snapshot, generateDrizzleJson(tables));
    expect(statements).toEqual([]);
  });
});
