import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { runMigrations } from 'graphile-worker';
import pg from 'pg';
import { migrateDatabase } from '../db/client.ts';
import { decryptStream, encryptStream, type BackupHeader, type BackupKey } from './backup-crypto.ts';

// A logical backup written by our own code (decision 037): every table of the application's schemas and of the job
// queue, read in one REPEATABLE READ READ ONLY transaction (one snapshot: the same rows any pg_dump would see),
// each row in PostgreSQL's own text form of the row, which casts back to the row exactly. No pg_dump needed,
// so it works the same against the embedded PostgreSQL (which has none) and any external PostgreSQL 15+.
// The stream is framed in records, gzip-compressed, then encrypted in authenticated chunks (backup-crypto.ts).

const SCHEMAS = ['public', 'graphile_worker'];
const MIGRATIONS_SOURCE = path.resolve(import.meta.dirname, '../../drizzle');
/** The queue's own schema version is installed by graphile-worker, like ours by the migrations. */
const SKIPPED_TABLES = new Set(['graphile_worker.migrations']);
/** What in DATA_DIR is not copied: the embedded database (dumped here logically), secrets, locks. */
const SKIPPED_FILES = new Set(['pg', 'auth-secret', 'data-keys', 'pg-password', 'pg-port', 'server.pid']);
const ROWS_PER_FETCH = 500;
const ROWS_PER_FETCH_BINARY = 4;
const INSERT_BATCH_BYTES = 4 * 1024 * 1024;
const FILE_PART_BYTES = 64 * 1024;
export const BACKUP_FILE_SUFFIX = '.backup';

type RecordType = 'M' | 'T' | 'D' | 'E' | 'F' | 'B' | 'G' | 'Z';

interface TableInfo {
  schema: string;
  name: string;
  columns: string[];
}

interface Manifest {
  format: 1;
  createdAt: string;
  postgres: string;
  /** created_at of every applied migration (drizzle's record: the journal's `when`). */
  migrations: string[];
  tables: TableInfo[];
  sequences: { schema: string; name: string; lastValue: string | null }[];
}

export interface BackupResult {
  file: string;
  bytes: number;
  tables: number;
  rows: number;
  files: number;
}

function record(type: RecordType, payload: Buffer | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const head = Buffer.alloc(5);
  head.write(type, 0, 'ascii');
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
const qualified = (t: { schema: string; name: string }) => `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`;

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
  onProgress?: (percent: number) => Promise<void>;
}): Promise<BackupResult> {
  const createdAt = new Date();
  fs.mkdirSync(options.dir, { recursive: true, mode: 0o700 });
  const file = path.join(options.dir, backupFileName(createdAt));
  const partial = `${file}.partial`;
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  const counts = { tables: 0, rows: 0, files: 0 };
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
  options: { dataDir: string; dir: string; onProgress?: (percent: number) => Promise<void> },
  createdAt: Date,
  counts: { tables: number; rows: number; files: number },
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

  for (const relative of listFiles(options.dataDir, path.resolve(options.dir))) {
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
  yield record('Z', JSON.stringify({ tables: counts.tables, rows: counts.rows, files: counts.files }));
}

/** The regular files under DATA_DIR that belong in a backup (relative paths), not the backups themselves. */
function listFiles(dataDir: string, backupDir: string): string[] {
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
      if (!prefix && SKIPPED_FILES.has(entry.name)) continue;
      if (path.resolve(full) === backupDir || entry.name.endsWith('.partial')) continue;
      if (entry.isDirectory()) walk(full, relative);
      else if (entry.isFile()) out.push(relative);
    }
  };
  walk(dataDir, '');
  return out.sort();
}

/** The records of a decrypted, decompressed backup stream, one at a time. */
async function* readRecords(source: AsyncIterable<Buffer>): AsyncGenerator<{ type: RecordType; body: Buffer }> {
  let buffered: Buffer = Buffer.alloc(0);
  for await (const chunk of source) {
    buffered = Buffer.concat([buffered, chunk]);
    let offset = 0;
    while (buffered.length - offset >= 5) {
      const length = buffered.readUInt32BE(offset + 1);
      if (buffered.length - offset < 5 + length) break;
      const type = buffered.toString('ascii', offset, offset + 1) as RecordType;
      yield { type, body: buffered.subarray(offset + 5, offset + 5 + length) };
      offset += 5 + length;
    }
    buffered = buffered.subarray(offset);
  }
  if (buffered.length > 0) throw new Error('The backup ends in the middle of a record: it is incomplete.');
}

export interface RestoreResult {
  tables: number;
  rows: number;
  files: number;
  /** Files of the backup not written because the target already had a file there. */
  skippedFiles: string[];
  createdAt: string;
}

export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

interface BackupReader {
  records: AsyncGenerator<{ type: RecordType; body: Buffer }>;
  close(): void;
}

/** The records of the backup `file`, decrypted (authenticated chunk by chunk) and decompressed as they are read. */
function openBackup(file: string, keyFor: (header: BackupHeader) => Buffer): BackupReader {
  const read = fs.createReadStream(file);
  const decrypt = decryptStream(keyFor);
  const gunzip = zlib.createGunzip();
  // pipe() does not pass errors on: a wrong key must end the reading, not leave it waiting.
  read.on('error', (error) => decrypt.destroy(error));
  decrypt.on('error', (error) => gunzip.destroy(error));
  return { records: readRecords(read.pipe(decrypt).pipe(gunzip)), close: () => read.destroy() };
}

/** The manifest, the backup's first record (its text too: the second reading must meet the same one). */
async function readManifest(reader: BackupReader): Promise<{ manifest: Manifest; text: string }> {
  const first = await reader.records.next();
  if (first.done || first.value.type !== 'M') throw new RestoreRefused('The backup has no manifest: it is damaged.');
  const text = first.value.body.toString('utf8');
  return { manifest: JSON.parse(text) as Manifest, text };
}

/**
 * Reads the whole backup and writes nothing (issue 24, point 9): the key and every chunk's authentication, each
 * table's rows against its count and SHA-256, every table the manifest lists, each file against its SHA-256 and
 * its place under `dataDir`, the end record, and migrations this version knows. Answers the manifest's text, or
 * throws why the backup cannot be restored.
 */
export async function checkBackupFile(options: {
  file: string;
  dataDir: string;
  keyFor: (header: BackupHeader) => Buffer;
  migrationsFolder?: string;
}): Promise<string> {
  const reader = openBackup(options.file, options.keyFor);
  try {
    const { manifest, text } = await readManifest(reader);
    unknownMigrationsRefused(manifest, options.migrationsFolder);
    const seen = new Set<TableInfo>();
    let table: TableInfo | null = null;
    let hash = createHash('sha256');
    let rows = 0;
    let fileHash: ReturnType<typeof createHash> | null = null;
    let ended = false;
    for await (const { type, body } of reader.records) {
      if (ended) throw new RestoreRefused('The backup has records after its end: it is damaged.');
      const inTable = table !== null;
      const inFile = fileHash !== null;
      if (type === 'T' && !inTable && !inFile) {
        const named = JSON.parse(body.toString('utf8')) as { schema: string; name: string };
        table = manifest.tables.find((t) => t.schema === named.schema && t.name === named.name) ?? null;
        if (!table || seen.has(table))
          throw new RestoreRefused(`The backup names a table it did not list: ${named.name}.`);
        seen.add(table);
        hash = createHash('sha256');
        rows = 0;
      } else if (type === 'D' && inTable) {
        hash.update(body.toString('utf8')).update('\n');
        rows += 1;
      } else if (type === 'E' && inTable) {
        const end = JSON.parse(body.toString('utf8')) as { rows: number; sha256: string };
        if (end.rows !== rows || end.sha256 !== hash.digest('hex')) {
          throw new RestoreRefused(`The rows of ${table!.name} do not match the backup's checksum.`);
        }
        table = null;
      } else if (type === 'F' && !inTable && !inFile) {
        const meta = JSON.parse(body.toString('utf8')) as { path: string };
        dataFileTarget(options.dataDir, meta.path);
        fileHash = createHash('sha256');
      } else if (type === 'B' && inFile) {
        fileHash!.update(body);
      } else if (type === 'G' && inFile) {
        const end = JSON.parse(body.toString('utf8')) as { sha256: string };
        if (end.sha256 !== fileHash!.digest('hex')) throw new RestoreRefused('A file of the backup is damaged.');
        fileHash = null;
      } else if (type === 'Z' && !inTable && !inFile) {
        ended = true;
      } else {
        throw new RestoreRefused('The backup holds a record out of place or unknown to this version: it is damaged.');
      }
    }
    if (!ended) throw new RestoreRefused('The backup is incomplete: its end is missing.');
    if (seen.size !== manifest.tables.length) {
      throw new RestoreRefused('The backup is incomplete: it lacks tables its manifest lists.');
    }
    return text;
  } finally {
    reader.close();
  }
}

/** Where a file of the backup goes under `dataDir`; refused when it names a place outside. */
function dataFileTarget(dataDir: string, relative: string): string {
  const target = path.resolve(dataDir, relative);
  if (!target.startsWith(path.resolve(dataDir) + path.sep)) {
    throw new RestoreRefused('The backup names a file outside DATA_DIR.');
  }
  return target;
}

/**
 * Restores a backup into the empty database at `url` (and its files into `dataDir`, never over an existing file).
 * The key comes from `keyFor` (by what the header names). A database that is not empty is refused first; then the
 * whole file is read and checked (checkBackupFile) before anything is written, so a wrong key, a cut, changed or
 * incomplete file leaves the database untouched. Then the migrations up to the backup's, the queue's schema, and
 * the rows in one transaction. Should anything fail after the migrations began, what the restore created is
 * dropped again: a failed restore leaves the database as it found it. Its temporary folders are removed in any case.
 */
export async function restoreBackup(options: {
  url: string;
  file: string;
  dataDir: string;
  keyFor: (header: BackupHeader) => Buffer;
  migrationsFolder?: string;
}): Promise<RestoreResult> {
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  const staged: { temp: string; final: string }[] = [];
  /** Every temporary file made, complete or not: all removed at the end. */
  const temps: string[] = [];
  let migrations: string | undefined;
  let before: ObjectsBefore | undefined;
  let reader: BackupReader | undefined;
  try {
    const existing = await client.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
       WHERE c.relkind = 'r' AND n.nspname IN ('public', 'drizzle')`,
    );
    if ((existing.rows[0]?.n ?? 0) > 0) {
      throw new RestoreRefused(
        'The database is not empty: restore only into an empty database (a new DATA_DIR for the embedded one, or a new database for DATABASE_URL).',
      );
    }
    const checked = await checkBackupFile(options);

    // The file is whole: from here on, anything that fails is undone.
    before = await objectsBefore(client);
    reader = openBackup(options.file, options.keyFor);
    const { manifest, text } = await readManifest(reader);
    if (text !== checked) throw new RestoreRefused('The backup file changed while it was being restored.');
    migrations = migrationsUpTo(manifest, options.migrationsFolder);
    await migrateDatabase(options.url, { migrationsFolder: migrations });
    if (manifest.tables.some((t) => t.schema === 'graphile_worker')) {
      const pool = new pg.Pool({ connectionString: options.url, max: 1 });
      pool.on('error', () => undefined);
      try {
        await runMigrations({ pgPool: pool });
      } finally {
        await pool.end();
      }
    }

    const result: RestoreResult = { tables: 0, rows: 0, files: 0, skippedFiles: [], createdAt: manifest.createdAt };
    const records = reader.records;
    await client.query('BEGIN');
    const foreignKeys = await client.query<{ tbl: string; name: string; def: string }>(
      `SELECT conrelid::regclass::text AS tbl, conname AS name, pg_get_constraintdef(oid) AS def
       FROM pg_constraint WHERE contype = 'f' AND connamespace = ANY(
         SELECT oid FROM pg_namespace WHERE nspname = ANY($1))`,
      [SCHEMAS],
    );
    for (const fk of foreignKeys.rows) {
      await client.query(`ALTER TABLE ${fk.tbl} DROP CONSTRAINT ${quoteIdent(fk.name)}`);
    }
    const insertColumns = new Map<TableInfo, string[]>();
    for (const table of manifest.tables) {
      const columns = await client.query<{ name: string; generated: boolean }>(
        `SELECT a.attname AS name, a.attgenerated <> '' AS generated FROM pg_attribute a
         WHERE a.attrelid = $1::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attnum`,
        [qualified(table)],
      );
      if (columns.rows.map((c) => c.name).join(',') !== table.columns.join(',')) {
        throw new RestoreRefused(`The table ${table.schema}.${table.name} does not have the backup's columns.`);
      }
      // Generated columns are computed again by the insert.
      insertColumns.set(
        table,
        columns.rows.filter((c) => !c.generated).map((c) => c.name),
      );
      await client.query(`ALTER TABLE ${qualified(table)} DISABLE TRIGGER USER`);
      await client.query(`DELETE FROM ${qualified(table)}`);
    }

    let table: TableInfo | null = null;
    let batch: string[] = [];
    let batchBytes = 0;
    let hash = createHash('sha256');
    let rows = 0;
    let file: {
      path: string;
      temp: string;
      handle: fs.promises.FileHandle;
      hash: ReturnType<typeof createHash>;
    } | null = null;
    let ended = false;
    const flush = async () => {
      if (!table || batch.length === 0) return;
      const names = insertColumns.get(table) ?? table.columns;
      const cols = names.map((c) => `(x).${quoteIdent(c)}`).join(', ');
      await client.query(
        `INSERT INTO ${qualified(table)} (${names.map(quoteIdent).join(', ')}) OVERRIDING SYSTEM VALUE
         SELECT ${cols} FROM (SELECT r::${qualified(table)} AS x FROM unnest($1::text[]) AS u(r)) AS v`,
        [batch],
      );
      batch = [];
      batchBytes = 0;
    };
    for await (const { type, body } of records) {
      if (ended) throw new RestoreRefused('The backup has records after its end: it is damaged.');
      if (type === 'T') {
        const named = JSON.parse(body.toString('utf8')) as { schema: string; name: string };
        table = manifest.tables.find((t) => t.schema === named.schema && t.name === named.name) ?? null;
        if (!table) throw new RestoreRefused(`The backup names a table it did not list: ${named.name}.`);
        hash = createHash('sha256');
        rows = 0;
      } else if (type === 'D') {
        const row = body.toString('utf8');
        hash.update(row).update('\n');
        rows += 1;
        batch.push(row);
        batchBytes += body.length;
        if (batchBytes >= INSERT_BATCH_BYTES || batch.length >= 5000) await flush();
      } else if (type === 'E') {
        await flush();
        const end = JSON.parse(body.toString('utf8')) as { rows: number; sha256: string };
        if (end.rows !== rows || end.sha256 !== hash.digest('hex')) {
          throw new RestoreRefused(`The rows of ${table?.name ?? '?'} do not match the backup's checksum.`);
        }
        result.tables += 1;
        result.rows += rows;
        table = null;
      } else if (type === 'F') {
        const meta = JSON.parse(body.toString('utf8')) as { path: string; mode: number };
        const target = dataFileTarget(options.dataDir, meta.path);
        const temp = path.join(os.tmpdir(), `restore-${randomUUID()}`);
        temps.push(temp);
        file = { path: target, temp, handle: await fs.promises.open(temp, 'w', 0o600), hash: createHash('sha256') };
      } else if (type === 'B' && file) {
        file.hash.update(body);
        await file.handle.write(body);
      } else if (type === 'G' && file) {
        await file.handle.close();
        const end = JSON.parse(body.toString('utf8')) as { sha256: string };
        if (end.sha256 !== file.hash.digest('hex')) throw new RestoreRefused('A file of the backup is damaged.');
        staged.push({ temp: file.temp, final: file.path });
        file = null;
      } else if (type === 'Z') {
        ended = true;
      } else {
        throw new RestoreRefused('The backup holds a record this version does not know: it is damaged.');
      }
    }
    if (!ended) throw new RestoreRefused('The backup is incomplete: its end is missing.');

    for (const sequence of manifest.sequences) {
      await client.query(
        sequence.lastValue === null ? 'SELECT setval($1::regclass, 1, false)' : 'SELECT setval($1::regclass, $2)',
        sequence.lastValue === null
          ? [`${quoteIdent(sequence.schema)}.${quoteIdent(sequence.name)}`]
          : [`${quoteIdent(sequence.schema)}.${quoteIdent(sequence.name)}`, sequence.lastValue],
      );
    }
    await afterRestore(client, manifest);
    for (const fk of foreignKeys.rows) {
      await client.query(`ALTER TABLE ${fk.tbl} ADD CONSTRAINT ${quoteIdent(fk.name)} ${fk.def}`);
    }
    for (const t of manifest.tables) await client.query(`ALTER TABLE ${qualified(t)} ENABLE TRIGGER USER`);
    await client.query('COMMIT');

    await advanceTransactionIds(client);
    for (const { temp, final } of staged) {
      if (fs.existsSync(final)) {
        result.skippedFiles.push(path.relative(options.dataDir, final));
        continue;
      }
      await fs.promises.mkdir(path.dirname(final), { recursive: true, mode: 0o700 });
      await fs.promises.copyFile(temp, final);
      result.files += 1;
    }
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    if (before) {
      try {
        await undoRestore(client, before);
      } catch (undoError) {
        const why = (e: unknown) => (e instanceof Error ? e.message : String(e));
        throw new Error(
          `${why(error)} Removing what the restore had created failed too (${why(undoError)}): drop and create the database again before the next attempt.`,
          { cause: undoError },
        );
      }
    }
    throw error;
  } finally {
    reader?.close();
    for (const temp of temps) await fs.promises.rm(temp, { force: true });
    if (migrations) await fs.promises.rm(migrations, { recursive: true, force: true });
    await client.end();
  }
}

/** What the database held before a restore's migrations: what undoRestore must leave. */
interface ObjectsBefore {
  schemas: Set<string>;
  extensions: Set<string>;
  /** Relations, functions and types of the schema public, by oid. */
  publicObjects: Set<string>;
}

async function objectsBefore(client: pg.Client): Promise<ObjectsBefore> {
  const names = async (text: string) => new Set((await client.query<{ x: string }>(text)).rows.map((r) => r.x));
  return {
    schemas: await names('SELECT nspname::text AS x FROM pg_namespace'),
    extensions: await names('SELECT extname::text AS x FROM pg_extension'),
    publicObjects: await names(`SELECT oid::text AS x FROM pg_class WHERE relnamespace = 'public'::regnamespace
      UNION ALL SELECT oid::text FROM pg_proc WHERE pronamespace = 'public'::regnamespace
      UNION ALL SELECT oid::text FROM pg_type WHERE typnamespace = 'public'::regnamespace`),
  };
}

/**
 * Drops, in one transaction, what a failed restore created: the schemas (drizzle's record, the job queue), the
 * tables, functions and types in public, and the extensions the migrations installed.
 */
async function undoRestore(client: pg.Client, before: ObjectsBefore): Promise<void> {
  const created = async (text: string) =>
    (await client.query<{ oid: string; name: string }>(text)).rows.filter((r) => !before.publicObjects.has(r.oid));
  await client.query('BEGIN');
  try {
    const schemas = await client.query<{ name: string }>('SELECT nspname::text AS name FROM pg_namespace');
    for (const { name } of schemas.rows) {
      if (!before.schemas.has(name)) await client.query(`DROP SCHEMA ${quoteIdent(name)} CASCADE`);
    }
    // Relations first (their triggers and indexes go with them), then the functions and types left.
    const relations = await created(`SELECT c.oid::text AS oid,
        CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END
          || format(' IF EXISTS %I.%I', 'public', c.relname) AS name
      FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')`);
    for (const { name } of relations) await client.query(`DROP ${name} CASCADE`);
    const sequences = await created(`SELECT c.oid::text AS oid, format('%I.%I', 'public', c.relname) AS name
      FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'S'`);
    for (const { name } of sequences) await client.query(`DROP SEQUENCE IF EXISTS ${name} CASCADE`);
    const functions = await created(`SELECT p.oid::text AS oid, p.oid::regprocedure::text AS name FROM pg_proc p
      WHERE p.pronamespace = 'public'::regnamespace
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')`);
    for (const { name } of functions) await client.query(`DROP FUNCTION IF EXISTS ${name} CASCADE`);
    const types = await created(`SELECT t.oid::text AS oid, format('%I.%I', 'public', t.typname) AS name FROM pg_type t
      WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('e', 'd', 'r') AND t.typrelid = 0
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e')`);
    for (const { name } of types) await client.query(`DROP TYPE IF EXISTS ${name} CASCADE`);
    const extensions = await client.query<{ name: string }>('SELECT extname::text AS name FROM pg_extension');
    for (const { name } of extensions.rows) {
      if (!before.extensions.has(name)) await client.query(`DROP EXTENSION IF EXISTS ${quoteIdent(name)} CASCADE`);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/** Refuses a backup made by a newer version of the application (migrations this one does not know). */
function unknownMigrationsRefused(manifest: Manifest, folder?: string): void {
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
function migrationsUpTo(manifest: Manifest, folder?: string): string {
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

/**
 * What a restored database needs beyond its rows:
 * - the audit entries' transaction ids (decision 015) come from the old server, whose counter the new one does not
 *   share. They only order the chain, and no checksum covers them, so they are renumbered from 1 in the same
 *   order (a new number only where the entry id goes down), leaving them below the new server's counter: the
 *   sealer then seals what was not sealed yet, and new entries come after them.
 * - jobs locked by the old server's workers are released; the backup job that was running is dropped, and its
 *   run, recorded as running in the backup, is marked as interrupted.
 */
async function afterRestore(client: pg.Client, manifest: Manifest): Promise<void> {
  const has = (schema: string, name: string) => manifest.tables.some((t) => t.schema === schema && t.name === name);
  if (has('public', 'audit_chain') && has('public', 'audit_entries')) {
    await client.query(`
      WITH ordered AS (
        SELECT position, entry_id, lag(entry_id) OVER (ORDER BY position) AS prev FROM audit_chain
      ), renumbered AS (
        SELECT position, 1 + count(*) FILTER (WHERE prev >= entry_id) OVER (ORDER BY position) AS x FROM ordered
      )
      UPDATE audit_chain c SET xact_id = r.x::text::xid8 FROM renumbered r WHERE c.position = r.position`);
    await client.query('UPDATE audit_entries e SET xact_id = c.xact_id FROM audit_chain c WHERE c.entry_id = e.id');
    await client.query(`
      WITH head AS (SELECT coalesce(max(xact_id::text::bigint), 0) AS x FROM audit_chain),
      unsealed AS (
        SELECT e.id, row_number() OVER (ORDER BY e.xact_id, e.id) AS n FROM audit_entries e
        WHERE NOT EXISTS (SELECT 1 FROM audit_chain c WHERE c.entry_id = e.id)
      )
      UPDATE audit_entries e SET xact_id = (head.x + u.n)::text::xid8 FROM unsealed u, head WHERE e.id = u.id`);
  }
  if (has('graphile_worker', '_private_jobs') && has('graphile_worker', '_private_tasks')) {
    await client.query(`DELETE FROM graphile_worker._private_jobs j USING graphile_worker._private_tasks t
      WHERE j.task_id = t.id AND t.identifier = 'backup:run'`);
    await client.query('UPDATE graphile_worker._private_jobs SET locked_at = NULL, locked_by = NULL');
    if (has('graphile_worker', '_private_job_queues')) {
      await client.query('UPDATE graphile_worker._private_job_queues SET locked_at = NULL, locked_by = NULL');
    }
  }
  if (has('public', 'backup_runs')) {
    await client.query(`UPDATE backup_runs SET status = 'failed', finished_at = now(),
      error = 'interrupted: it was running when the backup this database was restored from was taken'
      WHERE status = 'running'`);
  }
}

/** Lets the new server's transaction counter pass every restored audit transaction id (normally it already has). */
async function advanceTransactionIds(client: pg.Client): Promise<void> {
  for (;;) {
    const state = await client.query<{ needed: string }>(
      `SELECT (coalesce((SELECT max(xact_id::text::bigint) FROM audit_entries), 0)
               - pg_current_xact_id()::text::bigint + 1)::text AS needed`,
    );
    const needed = Number(state.rows[0]?.needed ?? 0);
    if (needed <= 0) return;
    await client.query(
      `DO $$ BEGIN FOR i IN 1..${Math.min(needed, 100_000)} LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP; END $$`,
    );
  }
}
