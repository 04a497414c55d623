import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import pg from 'pg';
import { BlobNotFoundError, type BlobStore } from '../blobs/blob-store.ts';
import { SEALED_FILE_TABLES } from '../keys/sealed-files.ts';
import { encryptStream, type BackupKey } from './backup-crypto.ts';
import { qualified, record, SCHEMAS, type Manifest, type TableInfo } from './backup-format.ts';

// A logical backup written by our own code (decision 037): every table of the application's schemas and of the job
// queue, read in one REPEATABLE READ READ ONLY transaction (one snapshot: the same rows any pg_dump would see),
// each row in PostgreSQL's own text form of the row, which casts back to the row exactly. No pg_dump needed,
// so it works the same against the embedded PostgreSQL (which has none) and any external PostgreSQL 15+.
// The stream is framed in records, gzip-compressed, then encrypted in authenticated chunks (backup-crypto.ts).
// The files of the blob store (decision 071) follow the files of DATA_DIR: every blob a row of the snapshot names,
// copied as stored (already sealed), each with its SHA-256, whatever the store (a folder or S3).

/** The queue's own schema version is installed by graphile-worker, like ours by the migrations. */
const SKIPPED_TABLES = new Set(['graphile_worker.migrations']);
/** What in DATA_DIR is not copied: the embedded database (dumped here logically), secrets, locks. */
const SKIPPED_FILES = new Set(['pg', 'auth-secret', 'data-keys', 'pg-password', 'pg-port', 'server.pid']);
/** The file blob store's folder under DATA_DIR: its blobs are copied through the store, as blob records. */
export const BLOB_STORE_FOLDER = 'blobs';
const ROWS_PER_FETCH = 500;
const ROWS_PER_FETCH_BINARY = 4;
const FILE_PART_BYTES = 64 * 1024;
export const BACKUP_FILE_SUFFIX = '.backup';

export interface BackupResult {
  file: string;
  bytes: number;
  tables: number;
  rows: number;
  files: number;
  /** Blobs copied from the blob store. */
  blobs: number;
  /** Blobs a row of the snapshot named that the store no longer had (their row was deleted meanwhile). */
  missingBlobs: number;
}

/** The file name of a backup made at `at`: sorts by time. */
export function backupFileName(at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `practice-${stamp}-${randomUUID().slice(0, 8)}${BACKUP_FILE_SUFFIX}`;
}

/**
 * Writes a backup of the database at `url` and the files under `dataDir` into `dir`, and answers where and how
 * big. Written to a temporary name, flushed, then renamed: a backup file that exists is complete.
 */
export async function writeBackup(options: {
  url: string;
  dataDir: string;
  dir: string;
  key: BackupKey;
  /** The blob store whose files the snapshot's rows name (without it, no blob records are written). */
  blobs?: BlobStore;
  onProgress?: (percent: number) => Promise<void>;
}): Promise<BackupResult> {
  const createdAt = new Date();
  fs.mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const file = path.join(options.dir, backupFileName(createdAt));
  const partial = `${file}.partial`;
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  const counts = { tables: 0, rows: 0, files: 0, blobs: 0, missingBlobs: 0 };
  try {
    await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
    const source = Readable.from(backupRecords(client, options, createdAt, counts));
    await pipeline(
      source,
      zlib.createGzip({ level: 6 }),
      encryptStream(options.key, createdAt),
      fs.createWriteStream(partial, { mode: 0o600 }),
    );
    await client.query('COMMIT');
    const handle = await fs.promises.open(partial, 'r');
    await handle.sync();
    await handle.close();
    await fs.promises.rename(partial, file);
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    await fs.promises.rm(partial, { force: true });
    throw error;
  } finally {
    await client.end();
  }
  return { file, bytes: (await fs.promises.stat(file)).size, ...counts };
}

/**
 * Removes the `.partial` files of backups in `dir` (left by a process that died while writing). Call only with the
 * backup lock held: then nobody is writing one.
 */
export async function removePartialBackups(dir: string): Promise<void> {
  let names: string[];
  try {
    names = await fs.promises.readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name.startsWith('practice-') && name.endsWith(`${BACKUP_FILE_SUFFIX}.partial`)) {
      await fs.promises.rm(path.join(dir, name), { force: true });
    }
  }
}

async function* backupRecords(
  client: pg.Client,
  options: { dataDir: string; dir: string; blobs?: BlobStore; onProgress?: (percent: number) => Promise<void> },
  createdAt: Date,
  counts: { tables: number; rows: number; files: number; blobs: number; missingBlobs: number },
): AsyncGenerator<Buffer> {
  const tables = await client.query<TableInfo & { binary: boolean }>(
    `SELECT n.nspname AS schema, c.relname AS name,
            array_agg(a.attname::text ORDER BY a.attnum) AS columns,
            bool_or(a.atttypid = 'bytea'::regtype) AS binary
     FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped
     WHERE c.relkind = 'r' AND n.nspname = ANY($1)
     GROUP BY n.nspname, c.relname
     ORDER BY n.nspname, c.relname`,
    [SCHEMAS],
  );
  const list = tables.rows.filter((t) => !SKIPPED_TABLES.has(`${t.schema}.${t.name}`));
  const migrations = await client.query<{ created_at: string }>(
    'SELECT created_at::text FROM drizzle.__drizzle_migrations ORDER BY created_at',
  );
  const sequences = await client.query<{ schema: string; name: string; last_value: string | null }>(
    'SELECT schemaname AS schema, sequencename AS name, last_value::text FROM pg_sequences WHERE schemaname = ANY($1)',
    [SCHEMAS],
  );
  const version = await client.query<{ server_version: string }>('SHOW server_version');
  const manifest: Manifest = {
    format: 1,
    createdAt: createdAt.toISOString(),
    postgres: version.rows[0]?.server_version ?? '',
    migrations: migrations.rows.map((m) => m.created_at),
    tables: list.map(({ schema, name, columns }) => ({ schema, name, columns })),
    sequences: sequences.rows.map((s) => ({ schema: s.schema, name: s.name, lastValue: s.last_value })),
  };
  yield record('M', JSON.stringify(manifest));

  for (const [index, table] of list.entries()) {
    yield record('T', JSON.stringify({ schema: table.schema, name: table.name }));
    const hash = createHash('sha256');
    let rows = 0;
    await client.query(`DECLARE backup_rows NO SCROLL CURSOR FOR SELECT t::text AS r FROM ${qualified(table)} t`);
    for (;;) {
      const batch = await client.query<{ r: string }>(
        `FETCH ${table.binary ? ROWS_PER_FETCH_BINARY : ROWS_PER_FETCH} FROM backup_rows`,
      );
      for (const { r } of batch.rows) {
        hash.update(r).update('\n');
        rows += 1;
        yield record('D', r);
      }
      if (batch.rows.length === 0) break;
    }
    await client.query('CLOSE backup_rows');
    yield record('E', JSON.stringify({ rows, sha256: hash.digest('hex') }));
    counts.tables += 1;
    counts.rows += rows;
    await options.onProgress?.(Math.floor(((index + 1) / (list.length + 1)) * 100));
  }

  const skipped = options.blobs ? new Set([...SKIPPED_FILES, BLOB_STORE_FOLDER]) : SKIPPED_FILES;
  for (const relative of listFiles(options.dataDir, path.resolve(options.dir), skipped)) {
    const full = path.join(options.dataDir, relative);
    const stat = fs.statSync(full);
    yield record('F', JSON.stringify({ path: relative, mode: stat.mode & 0o777 }));
    const hash = createHash('sha256');
    for await (const part of fs.createReadStream(full, { highWaterMark: FILE_PART_BYTES })) {
      hash.update(part as Buffer);
      yield record('B', part as Buffer);
    }
    yield record('G', JSON.stringify({ sha256: hash.digest('hex') }));
    counts.files += 1;
  }

  if (options.blobs) {
    for (const key of await blobKeysOfSnapshot(client)) {
      let stored: Readable;
      try {
        stored = await options.blobs.get(key);
      } catch (error) {
        if (!(error instanceof BlobNotFoundError)) throw error;
        counts.missingBlobs += 1;
        continue;
      }
      yield record('K', JSON.stringify({ key }));
      const hash = createHash('sha256');
      let bytes = 0;
      for await (const chunk of stored) {
        const part = chunk as Buffer;
        hash.update(part);
        bytes += part.length;
        // A store answers its own chunk sizes: framed in parts of at most FILE_PART_BYTES, like files.
        for (let at = 0; at < part.length; at += FILE_PART_BYTES)
          yield record('B', part.subarray(at, at + FILE_PART_BYTES));
      }
      yield record('G', JSON.stringify({ sha256: hash.digest('hex'), bytes }));
      counts.blobs += 1;
    }
  }
  yield record(
    'Z',
    JSON.stringify({ tables: counts.tables, rows: counts.rows, files: counts.files, blobs: counts.blobs }),
  );
}

/** Every blob key the snapshot's rows name, sorted (a key once: a blob belongs to one row). */
async function blobKeysOfSnapshot(client: pg.Client): Promise<string[]> {
  const keys: string[] = [];
  for (const set of SEALED_FILE_TABLES) {
    // A table without its blob columns yet (a database of a release before them) names no blob.
    const exists = await client.query<{ ok: boolean }>(
      `SELECT EXISTS (SELECT 1 FROM information_schema.columns
                      WHERE table_schema = 'public' AND table_name = $1 AND column_name = 'blob_key') AS ok`,
      [set.table],
    );
    if (!exists.rows[0]?.ok) continue;
    const found = await client.query<{ key: string }>(
      `SELECT blob_key AS key FROM public.${set.table} WHERE blob_key IS NOT NULL`,
    );
    for (const { key } of found.rows) keys.push(key);
  }
  return [...new Set(keys)].sort();
}

/** The regular files under DATA_DIR that belong in a backup (relative paths), not the backups themselves. */
function listFiles(dataDir: string, backupDir: string, skipped: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const walk = (dir: string, prefix: string) => {
    let entries: fs.Dirent[];
    try {
      entries = fs.readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      const relative = prefix ? `${prefix}/${entry.name}` : entry.name;
      if (!prefix && skipped.has(entry.name)) continue;
      if (path.resolve(full) === backupDir || entry.name.endsWith('.partial')) continue;
      if (entry.isDirectory()) walk(full, relative);
      else if (entry.isFile()) out.push(relative);
    }
  };
  walk(dataDir, '');
  return out.sort();
}
