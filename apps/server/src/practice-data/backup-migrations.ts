import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { RestoreRefused, type Manifest } from './backup-format.ts';

// The migrations a backup was made at: refused when this version does not know them, else the restore's own copy.

const MIGRATIONS_SOURCE = path.resolve(import.meta.dirname, '../../drizzle');

/** Refuses a backup made by a newer version of the application (migrations this one does not know). */
export function unknownMigrationsRefused(manifest: Manifest, folder?: string): void {
  const source = folder ?? MIGRATIONS_SOURCE;
  const journal = JSON.parse(fs.readFileSync(path.join(source, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number }[];
  };
  const known = new Set(journal.entries.map((e) => String(e.when)));
  if (manifest.migrations.some((m) => !known.has(m))) {
    throw new RestoreRefused(
      'The backup was made by a newer version of the application (it has migrations this one does not know): restore it with that version.',
    );
  }
}

/** A copy of the migrations folder whose journal holds exactly the migrations the backup was made at. */
export function migrationsUpTo(manifest: Manifest, folder?: string): string {
  const source = folder ?? MIGRATIONS_SOURCE;
  unknownMigrationsRefused(manifest, source);
  const journal = JSON.parse(fs.readFileSync(path.join(source, 'meta/_journal.json'), 'utf8')) as {
    entries: { when: number; tag: string }[];
  };
  const wanted = new Set(manifest.migrations);
  const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'restore-migrations-'));
  try {
    fs.cpSync(source, copy, { recursive: true });
    fs.writeFileSync(
      path.join(copy, 'meta/_journal.json'),
      JSON.stringify({ ...journal, entries: journal.entries.filter((e) => wanted.has(String(e.when))) }),
    );
  } catch (error) {
    fs.rmSync(copy, { recursive: true, force: true });
    throw error;
  }
  return copy;
}
