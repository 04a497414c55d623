import { sql, type SQL } from 'drizzle-orm';
import type { SealedBlobs } from '../blobs/sealed-blobs.ts';
import type { Executor } from '../db/client.ts';
import type { Keyring } from './keyring.ts';
import { SEALED_FILE_TABLES, sealedFileContext, type SealedFileTable } from './sealed-files.ts';

/*
 * Key rotation for files (decision 071): a sealed blob's content stays sealed under its own file key; what a data
 * key protects is the file key, wrapped in the row. Rotating re-wraps each file key not under the current data
 * key, in batches, compare-and-set on the wrapped key (a row changed meanwhile is skipped and found by the next
 * walk), the blobs themselves untouched: so recordings are rotated too, at the cost of a row update each.
 */

const DEFAULT_BATCH = 200;

export interface RewrapProgress {
  table: string;
  done: number;
  total: number;
}

/** Re-wraps the file keys of one table's rows that are not under the keyring's current data key. */
export async function rewrapTableFiles(
  db: Executor,
  keyring: Keyring,
  blobs: SealedBlobs,
  set: SealedFileTable,
  options: { batchSize?: number; onProgress?: (progress: RewrapProgress) => void } = {},
): Promise<{ rewritten: number; skipped: number }> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const table = sql.identifier(set.table);
  const pending = pendingCondition(keyring);
  const [{ total } = { total: 0 }] = await rows<{ total: number }>(
    db,
    sql`SELECT count(*)::int AS total FROM ${table} WHERE ${pending}`,
  );
  let rewritten = 0;
  let skipped = 0;
  let after: string | null = null;
  for (;;) {
    const batch: { blob_key: string; cid: string; key_id: string; wrapped_key: Buffer; plain_bytes: number }[] =
      await rows(
        db,
        sql`SELECT blob_key, ${sql.raw(set.contextIdSql)} AS cid, key_id, wrapped_key,
                 ${sql.identifier(set.plainBytesColumn)}::bigint AS plain_bytes
            FROM ${table} WHERE ${pending} ${after === null ? sql`` : sql`AND blob_key > ${after}`}
            ORDER BY blob_key LIMIT ${batchSize}`,
      );
    if (batch.length === 0) break;
    after = batch.at(-1)!.blob_key;
    const updated = await db.transaction(async (tx) => {
      let n = 0;
      for (const row of batch) {
        const next = blobs.rewrap(
          {
            blobKey: row.blob_key,
            keyId: row.key_id,
            wrappedKey: row.wrapped_key,
            plainBytes: Number(row.plain_bytes),
            context: sealedFileContext(set, row.cid),
          },
          keyring,
        );
        const changed = await rows(
          tx,
          sql`UPDATE ${table} SET key_id = ${next.keyId}, wrapped_key = ${next.wrappedKey}
              WHERE blob_key = ${row.blob_key} AND wrapped_key = ${row.wrapped_key} RETURNING 1 AS one`,
        );
        n += changed.length;
      }
      return n;
    });
    rewritten += updated;
    skipped += batch.length - updated;
    options.onProgress?.({ table: set.table, done: rewritten + skipped, total });
    if (batch.length < batchSize) break;
  }
  return { rewritten, skipped };
}

/**
 * The tables of SEALED_FILE_TABLES that have their blob columns in this database. All of them once every migration
 * ran; the check keeps rotation, the mover and backups working on a database migrated by a release that had not
 * added a table's columns yet (message attachments and card photos get theirs in decision 070's migration).
 */
export async function sealedFileTablesIn(db: Executor): Promise<SealedFileTable[]> {
  const present = await rows<{ table: string }>(
    db,
    sql`SELECT table_name AS table FROM information_schema.columns
        WHERE table_schema = current_schema() AND column_name = 'blob_key'`,
  );
  const names = new Set(present.map((row) => row.table));
  return SEALED_FILE_TABLES.filter((set) => names.has(set.table));
}

/** Rows of every table with files whose file key is not under the current data key, per table. */
export async function filesNotUnderCurrentKey(db: Executor, keyring: Keyring): Promise<Record<string, number>> {
  const remaining: Record<string, number> = {};
  for (const set of await sealedFileTablesIn(db)) {
    const [{ n } = { n: 0 }] = await rows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(set.table)} WHERE ${pendingCondition(keyring)}`,
    );
    remaining[set.table] = n;
  }
  return remaining;
}

function pendingCondition(keyring: Keyring): SQL {
  return sql`blob_key IS NOT NULL AND key_id IS DISTINCT FROM ${keyring.currentKeyId}`;
}

async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return result.rows as T[];
}
