import { sql, type SQL } from 'drizzle-orm';
import type { Executor } from '../db/client.ts';
import type { SealedBlobs } from '../blobs/sealed-blobs.ts';
import { ENCRYPTED_TABLES, type EncryptedColumns } from './encrypted-columns.ts';
import { ENCRYPTED_PREFIX, type Keyring } from './keyring.ts';
import { filesNotUnderCurrentKey, rewrapTableFiles, sealedFileTablesIn } from './rewrap-files.ts';

/** `plaintext`: encrypt what is not encrypted yet (at start). `rotate`: re-encrypt what is not under the current key. */
export type ReencryptMode = 'plaintext' | 'rotate';

export interface ReencryptProgress {
  table: string;
  /** Rows handled so far in this table (rewritten or skipped because they changed meanwhile). */
  done: number;
  /** Rows that needed work when the walk began. */
  total: number;
}

export interface ReencryptOptions {
  mode: ReencryptMode;
  batchSize?: number;
  onProgress?: (progress: ReencryptProgress) => void;
  /** Called with each batch's row ids between reading and writing them (tests write there to race the walk). */
  afterRead?: (table: string, ids: string[]) => Promise<void>;
}

const DEFAULT_BATCH = 500;

/**
 * Walks one table in id order, a batch at a time, and rewrites the encrypted values that need it. Each row is
 * written only if its encrypted columns still hold what was read (compare and set), so a concurrent write is
 * never lost: such a row is skipped and counted, and a later walk finds it again if it still needs work.
 */
export async function reencryptTable(
  db: Executor,
  keyring: Keyring,
  set: EncryptedColumns<string>,
  options: ReencryptOptions,
): Promise<{ rewritten: number; skipped: number }> {
  const batchSize = options.batchSize ?? DEFAULT_BATCH;
  const needsWork = (stored: string) =>
    options.mode === 'plaintext' ? !stored.startsWith(ENCRYPTED_PREFIX) : !keyring.isCurrent(stored);
  const pending = pendingCondition(set, keyring, options.mode);
  const table = sql.identifier(set.tableName);
  const id = sql.identifier(set.idColumn.name);
  const columns = set.columns.map((c) => sql.identifier(c.name));

  const [{ total } = { total: 0 }] = await rows<{ total: number }>(
    db,
    sql`SELECT count(*)::int AS total FROM ${table} WHERE ${pending}`,
  );
  let rewritten = 0;
  let skipped = 0;
  let after: string | null = null;
  for (;;) {
    const batch: Record<string, string | null>[] = await rows<Record<string, string | null>>(
      db,
      sql`SELECT ${id}::text AS id, ${sql.join(columns, sql`, `)} FROM ${table}
          WHERE (${pending}) ${after === null ? sql`` : sql`AND ${id} > ${after}::uuid`}
          ORDER BY ${id} LIMIT ${batchSize}`,
    );
    if (batch.length === 0) break;
    after = batch.at(-1)!.id!;
    await options.afterRead?.(
      set.tableName,
      batch.map((row) => row.id!),
    );

    const values = batch.map((row) => {
      const rowId = row.id!;
      const pairs = set.columns.map(({ name }) => {
        const stored = row[name] ?? null;
        if (stored === null || !needsWork(stored)) return [stored, stored] as const;
        const context = { table: set.tableName, column: name, id: rowId };
        const plaintext = options.mode === 'plaintext' ? stored : keyring.decrypt(stored, context);
        return [stored, keyring.encrypt(plaintext, context)] as const;
      });
      return sql`(${rowId}::uuid, ${sql.join(
        pairs.flatMap(([old, next]) => [sql`${old}::text`, sql`${next}::text`]),
        sql`, `,
      )})`;
    });
    const names = set.columns.flatMap(({ name }) => [sql.identifier(`old_${name}`), sql.identifier(`new_${name}`)]);
    // Signed notes and their records refuse changes (decision 027) except a re-encryption that says so.
    const updated = await db.transaction(async (tx) => {
      await tx.execute(sql`SELECT set_config('telehealth.reencrypt', 'on', true)`);
      return rows<{ id: string }>(
        tx,
        sql`UPDATE ${table} AS t SET ${sql.join(
          set.columns.map(({ name }) => sql`${sql.identifier(name)} = v.${sql.identifier(`new_${name}`)}`),
          sql`, `,
        )}
          FROM (VALUES ${sql.join(values, sql`, `)}) AS v(id, ${sql.join(names, sql`, `)})
          WHERE t.${id} = v.id AND ${sql.join(
            set.columns.map(
              ({ name }) => sql`t.${sql.identifier(name)} IS NOT DISTINCT FROM v.${sql.identifier(`old_${name}`)}`,
            ),
            sql` AND `,
          )}
          RETURNING t.${id}`,
      );
    });
    rewritten += updated.length;
    skipped += batch.length - updated.length;
    options.onProgress?.({ table: set.tableName, done: rewritten + skipped, total });
    if (batch.length < batchSize) break;
  }
  return { rewritten, skipped };
}

/** Rows with at least one value that needs work. */
function pendingCondition(set: EncryptedColumns<string>, keyring: Keyring, mode: ReencryptMode): SQL {
  const prefix = mode === 'plaintext' ? ENCRYPTED_PREFIX : keyring.currentPrefix;
  return sql.join(
    set.columns.map(({ name }) => {
      const column = sql.identifier(name);
      return sql`(${column} IS NOT NULL AND NOT starts_with(${column}, ${prefix}::text))`;
    }),
    sql` OR `,
  );
}

async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return result.rows as T[];
}

export interface RotationResult {
  /** Values rewritten, per table. */
  rewritten: Record<string, number>;
  /** Rows still holding a value under another key after the last walk, per table (0 when done). */
  remaining: Record<string, number>;
}

/**
 * Re-encrypts every value that is not under the keyring's current key, in batches, while servers keep reading and
 * writing. Walks again (up to three times) while rows changed under it; running it twice does nothing the second
 * time. Servers must already have the new key first in their keyring, or they keep writing under the old one (the
 * result then counts those rows as remaining).
 */
export async function rotateDataKeys(
  db: Executor,
  keyring: Keyring,
  options: Omit<ReencryptOptions, 'mode'> & {
    /** With the blob store, the file keys of every sealed file are re-wrapped too (decision 071), as `<table> files`. */
    blobs?: SealedBlobs;
  } = {},
): Promise<RotationResult> {
  const { blobs, ...walkOptions } = options;
  const rewritten: Record<string, number> = {};
  for (let walk = 0; walk < 3; walk++) {
    let skipped = 0;
    for (const set of ENCRYPTED_TABLES) {
      const result = await reencryptTable(db, keyring, set, { ...walkOptions, mode: 'rotate' });
      rewritten[set.tableName] = (rewritten[set.tableName] ?? 0) + result.rewritten;
      skipped += result.skipped;
    }
    if (blobs) {
      for (const set of await sealedFileTablesIn(db)) {
        const name = filesName(set.table);
        const result = await rewrapTableFiles(db, keyring, blobs, set, {
          onProgress: ({ done, total }) => options.onProgress?.({ table: name, done, total }),
        });
        rewritten[name] = (rewritten[name] ?? 0) + result.rewritten;
        skipped += result.skipped;
      }
    }
    if (skipped === 0) break;
  }
  const remaining: Record<string, number> = {};
  for (const set of ENCRYPTED_TABLES) {
    const [{ n } = { n: 0 }] = await rows<{ n: number }>(
      db,
      sql`SELECT count(*)::int AS n FROM ${sql.identifier(set.tableName)} WHERE ${pendingCondition(set, keyring, 'rotate')}`,
    );
    remaining[set.tableName] = n;
  }
  if (blobs) {
    for (const [table, n] of Object.entries(await filesNotUnderCurrentKey(db, keyring)))
      remaining[filesName(table)] = n;
  }
  return { rewritten, remaining };
}

/** How the rotation's counts name the files of a table. */
function filesName(table: string): string {
  return `${table} files`;
}

/**
 * Encrypts values written before their column was encrypted (the rows a migration like 0005 leaves in plain text),
 * then validates the column's CHECK constraint. Runs at start under the migration lock; once every constraint is
 * validated it only reads the catalogue. A column listed as encrypted without its constraint stops the start.
 */
export async function encryptPlaintextAtStart(
  db: Executor,
  keyring: Keyring,
  log: { info(obj: unknown, msg?: string): void },
): Promise<Record<string, number>> {
  const encrypted: Record<string, number> = {};
  for (const set of ENCRYPTED_TABLES) {
    const constraints = await rows<{ name: string; validated: boolean }>(
      db,
      sql`SELECT conname AS name, convalidated AS validated FROM pg_constraint
          WHERE conrelid = to_regclass(${set.tableName}) AND contype = 'c'
            AND conname IN (${sql.join(
              set.columns.map((c) => sql`${c.constraint}`),
              sql`, `,
            )})`,
    );
    const missing = set.columns.filter((c) => !constraints.some((row) => row.name === c.constraint));
    if (missing.length > 0) {
      throw new Error(
        `Encrypted columns without their CHECK constraint: ${missing.map((c) => `${set.tableName}.${c.name} (${c.constraint})`).join(', ')}. Add them in the table's migration.`,
      );
    }
    const unvalidated = constraints.filter((row) => !row.validated);
    if (unvalidated.length === 0) continue;
    let count = 0;
    for (;;) {
      const result = await reencryptTable(db, keyring, set, { mode: 'plaintext' });
      count += result.rewritten;
      if (result.skipped === 0) break;
    }
    encrypted[set.tableName] = count;
    if (count > 0) log.info({ table: set.tableName, rows: count }, 'encrypted the plain-text values written before');
    for (const { name } of unvalidated) {
      await db.execute(sql`ALTER TABLE ${sql.identifier(set.tableName)} VALIDATE CONSTRAINT ${sql.identifier(name)}`);
    }
  }
  return encrypted;
}
