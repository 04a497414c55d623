import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { runMigrations } from 'graphile-worker';
import pg from 'pg';
import type { BlobStore } from '../blobs/blob-store.ts';
import { migrateDatabase } from '../db/client.ts';
import type { BackupHeader } from './backup-crypto.ts';
import {
  openBackup,
  qualified,
  quoteIdent,
  readManifest,
  RestoreRefused,
  SCHEMAS,
  type BackupReader,
  type TableInfo,
} from './backup-format.ts';
import { migrationsUpTo } from './backup-migrations.ts';
import { blobKeyOf, checkBackupFile, dataFileTarget } from './check-backup.ts';
import {
  advanceTransactionIds,
  afterRestore,
  objectsBefore,
  undoRestore,
  type ObjectsBefore,
} from './restored-database.ts';

// Restoring a backup into an empty database (decision 037): checked whole first, undone whole if it fails.

const INSERT_BATCH_BYTES = 4 * 1024 * 1024;

export interface RestoreResult {
  tables: number;
  rows: number;
  files: number;
  /** Files of the backup not written because the target already had a file there. */
  skippedFiles: string[];
  /** Blobs put into the blob store. */
  blobs: number;
  /** Blobs of the backup not written because the store already had a blob under that key. */
  skippedBlobs: number;
  createdAt: string;
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
  /** The blob store the backup's blobs go back into (decision 071); a backup with blobs needs it. */
  blobs?: BlobStore;
  migrationsFolder?: string;
}): Promise<RestoreResult> {
  const client = new pg.Client({ connectionString: options.url });
  await client.connect();
  const staged: { temp: string; final: string }[] = [];
  /** Every temporary file made, complete or not: all removed at the end. */
  const temps: string[] = [];
  /** Blobs this restore put into the store: removed again if it fails. */
  const putBlobs: string[] = [];
  /** The bodies of those puts: one still open when the restore fails is destroyed, so its put gives up. */
  const uploads: PassThrough[] = [];
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

    const result: RestoreResult = {
      tables: 0,
      rows: 0,
      files: 0,
      skippedFiles: [],
      blobs: 0,
      skippedBlobs: 0,
      createdAt: manifest.createdAt,
    };
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
    /** The blob being put back, streamed into the store as its parts are read (null while skipped). */
    let blob: {
      key: string;
      hash: ReturnType<typeof createHash>;
      upload: { body: PassThrough; done: Promise<unknown> } | null;
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
      } else if (type === 'K' && !file && !blob) {
        const key = blobKeyOf(body);
        const store = options.blobs;
        if (!store) throw new RestoreRefused('The backup holds blobs: restore it with the blob store configured.');
        if ((await store.size(key)) !== null) {
          result.skippedBlobs += 1;
          blob = { key, hash: createHash('sha256'), upload: null };
        } else {
          const upload = new PassThrough();
          uploads.push(upload);
          putBlobs.push(key);
          const done = store.put(key, upload);
          done.catch(() => undefined);
          blob = { key, hash: createHash('sha256'), upload: { body: upload, done } };
        }
      } else if (type === 'B' && blob) {
        blob.hash.update(body);
        if (blob.upload && !blob.upload.body.write(body)) {
          await Promise.race([once(blob.upload.body, 'drain'), blob.upload.done]);
        }
      } else if (type === 'G' && blob) {
        if (blob.upload) {
          blob.upload.body.end();
          await blob.upload.done;
          result.blobs += 1;
        }
        const end = JSON.parse(body.toString('utf8')) as { sha256: string };
        if (end.sha256 !== blob.hash.digest('hex')) throw new RestoreRefused('A blob of the backup is damaged.');
        blob = null;
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
    for (const upload of uploads) upload.destroy(new Error('the restore failed'));
    for (const key of putBlobs) await options.blobs?.delete(key).catch(() => undefined);
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
