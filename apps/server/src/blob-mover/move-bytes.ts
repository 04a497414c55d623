import { Readable } from 'node:stream';
import { sql, type SQL } from 'drizzle-orm';
import type { SealedBlobs, SealedBlobWritten } from '../blobs/sealed-blobs.ts';
import type { Executor } from '../db/client.ts';
import type { FieldContext, Keyring } from '../keys/keyring.ts';
import { sealedFileTablesIn } from '../keys/rewrap-files.ts';
import { sealedFileContext, type SealedFileTable } from '../keys/sealed-files.ts';
import { recordingContext, segmentContext } from '../video/recording-files.ts';

/*
 * The mover (decision 071): takes the files that rows still hold as bytea out of the database into the blob store,
 * a few rows at a time, while the servers run. For each row: read and open its bytes, write them as a sealed blob,
 * then in one transaction set the row's blob reference and empty its bytes, only if the bytes are still there. A
 * crash between the two leaves a blob no row names (unreadable without a wrapped key), never a row without its
 * file; the row still holds its bytes and the next run moves it again. Recordings assembled before recordings were
 * blobs are the one different case: their segments (rows of video_recording_segments) become the recording's one
 * blob, and are deleted in the transaction that names it.
 */

/** The legacy bytes of a recording assembled before, in this table, one segment per row. */
const LEGACY_SEGMENTS = 'video_recording_segments';
const DEFAULT_BATCH = 20;

export interface MoveProgress {
  table: string;
  /** Rows (recordings, for segments) moved in this batch. */
  moved: number;
  /** Rows that could not be moved (their bytes did not open): left as they are, counted, logged by the caller. */
  failed: number;
  /** Rows that still hold bytes after this batch. */
  remaining: number;
}

export interface MoveOptions {
  batchSize?: number;
  onProgress?: (progress: MoveProgress) => void;
  /** Called after a row's blob is written, before its row changes (tests stop a run there). */
  afterWrite?: (table: string) => Promise<void>;
}

export interface MoveResult {
  moved: Record<string, number>;
  failed: Record<string, number>;
}

type Log = { warn(obj: unknown, msg?: string): void };

/** Moves the files rows hold as bytes into the blob store (the `blobs:move` job, and tests). */
export class BytesMover {
  readonly #db: Executor;
  readonly #keyring: Keyring;
  readonly #blobs: SealedBlobs;
  readonly #log: Log;

  constructor(options: { db: Executor; keyring: Keyring; blobs: SealedBlobs; log: Log }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#blobs = options.blobs;
    this.#log = options.log;
  }

  /** Rows still holding bytes, per table (counts only). */
  async remaining(): Promise<Record<string, number>> {
    const counts: Record<string, number> = {};
    for (const set of await this.#legacyTables())
      counts[set.table] = await this.#count(set.table, notNull(set.legacyBytes));
    counts[LEGACY_SEGMENTS] = await this.#count(LEGACY_SEGMENTS, sql`true`, 'DISTINCT recording_id');
    return counts;
  }

  /** True when any row still holds bytes (cheap: one EXISTS per table). */
  async anyLeft(): Promise<boolean> {
    for (const set of await this.#legacyTables()) {
      if (await this.#exists(set.table, notNull(set.legacyBytes))) return true;
    }
    return this.#exists(LEGACY_SEGMENTS, sql`true`);
  }

  /**
   * Moves every row that holds bytes, in batches, each table in turn; a row that cannot be opened is left and
   * counted. Running it again after it finished does nothing; after a crash it moves what is left.
   */
  async moveAll(options: MoveOptions = {}): Promise<MoveResult> {
    const batchSize = options.batchSize ?? DEFAULT_BATCH;
    const result: MoveResult = { moved: {}, failed: {} };
    for (const set of await this.#legacyTables()) {
      const { moved, failed } = await this.#moveRows(set, batchSize, options);
      result.moved[set.table] = moved;
      result.failed[set.table] = failed;
    }
    const { moved, failed } = await this.#moveSegments(batchSize, options);
    result.moved[LEGACY_SEGMENTS] = moved;
    result.failed[LEGACY_SEGMENTS] = failed;
    return result;
  }

  async #moveRows(
    set: SealedFileTable & { legacyBytes: string },
    batchSize: number,
    options: MoveOptions,
  ): Promise<{ moved: number; failed: number }> {
    const table = sql.identifier(set.table);
    const bytes = sql.identifier(set.legacyBytes);
    const contextId = sql.raw(set.contextIdSql);
    let moved = 0;
    let failed = 0;
    // Keyset order by the context id: a row that failed is passed over, not read again in this walk.
    let after: string | null = null;
    for (;;) {
      const batch: { cid: string; bytes: Buffer }[] = await rows<{ cid: string; bytes: Buffer }>(
        this.#db,
        sql`SELECT ${contextId} AS cid, ${bytes} AS bytes FROM ${table}
            WHERE ${bytes} IS NOT NULL ${after === null ? sql`` : sql`AND ${contextId} > ${after}`}
            ORDER BY ${contextId} LIMIT ${batchSize}`,
      );
      if (batch.length === 0) break;
      after = batch.at(-1)!.cid;
      let movedHere = 0;
      let failedHere = 0;
      for (const row of batch) {
        const context = sealedFileContext(set, row.cid);
        const plain = this.#open(row.bytes, context);
        if (!plain) {
          failedHere += 1;
          continue;
        }
        const written = await this.#blobs.write(Readable.from([plain]), context);
        try {
          await options.afterWrite?.(set.table);
          const plainBytes =
            set.plainBytesColumn === 'size_bytes'
              ? sql``
              : sql`, ${sql.identifier(set.plainBytesColumn)} = ${written.plainBytes}`;
          const updated = await rows(
            this.#db,
            sql`UPDATE ${table} SET blob_key = ${written.blobKey}, key_id = ${written.keyId},
                  wrapped_key = ${written.wrappedKey}, ${bytes} = NULL ${plainBytes}
                WHERE ${contextId} = ${row.cid} AND ${bytes} IS NOT NULL RETURNING 1 AS one`,
          );
          // The row went (deleted) or was moved by another instance meanwhile: this blob is nobody's.
          if (updated.length === 0) await this.#blobs.remove(written);
          else movedHere += 1;
        } catch (error) {
          await this.#blobs.remove(written).catch(() => undefined);
          throw error;
        }
      }
      moved += movedHere;
      failed += failedHere;
      options.onProgress?.({
        table: set.table,
        moved: movedHere,
        failed: failedHere,
        remaining: await this.#count(set.table, notNull(set.legacyBytes)),
      });
      if (batch.length < batchSize) break;
    }
    return { moved, failed };
  }

  /** Recordings assembled before: their segments, streamed one at a time, become the recording's blob. */
  async #moveSegments(batchSize: number, options: MoveOptions): Promise<{ moved: number; failed: number }> {
    let moved = 0;
    let failed = 0;
    let after: string | null = null;
    for (;;) {
      const batch: { id: string; blob_key: string | null }[] = await rows<{ id: string; blob_key: string | null }>(
        this.#db,
        sql`SELECT r.id::text AS id, r.blob_key FROM video_recordings r
            WHERE EXISTS (SELECT 1 FROM video_recording_segments s WHERE s.recording_id = r.id)
            ${after === null ? sql`` : sql`AND r.id > ${after}::uuid`}
            ORDER BY r.id LIMIT ${batchSize}`,
      );
      if (batch.length === 0) break;
      after = batch.at(-1)!.id;
      let movedHere = 0;
      let failedHere = 0;
      for (const recording of batch) {
        let written: SealedBlobWritten | null = null;
        if (recording.blob_key === null) {
          try {
            written = await this.#blobs.write(
              Readable.from(this.#segmentsOf(recording.id)),
              recordingContext(recording.id),
            );
          } catch (error) {
            this.#log.warn({ err: error, table: LEGACY_SEGMENTS }, 'blobs: a recording could not be moved');
            failedHere += 1;
            continue;
          }
        }
        try {
          if (written) await options.afterWrite?.(LEGACY_SEGMENTS);
          const named = await this.#db.transaction(async (tx) => {
            const updated = written
              ? await rows(
                  tx,
                  sql`UPDATE video_recordings SET blob_key = ${written.blobKey}, key_id = ${written.keyId},
                        wrapped_key = ${written.wrappedKey}, size_bytes = ${written.plainBytes}, segment_bytes = NULL
                      WHERE id = ${recording.id}::uuid AND blob_key IS NULL RETURNING 1 AS one`,
                )
              : [];
            // Segments left beside a blob (a recording already moved) are deleted with the rest.
            await tx.execute(sql`DELETE FROM video_recording_segments WHERE recording_id = ${recording.id}::uuid`);
            return updated.length > 0;
          });
          if (written && !named) await this.#blobs.remove(written);
          movedHere += 1;
        } catch (error) {
          if (written) await this.#blobs.remove(written).catch(() => undefined);
          throw error;
        }
      }
      moved += movedHere;
      failed += failedHere;
      options.onProgress?.({
        table: LEGACY_SEGMENTS,
        moved: movedHere,
        failed: failedHere,
        remaining: await this.#count(LEGACY_SEGMENTS, sql`true`, 'DISTINCT recording_id'),
      });
      if (batch.length < batchSize) break;
    }
    return { moved, failed };
  }

  /** A legacy recording's plaintext, a segment (one row) at a time, in order. */
  async *#segmentsOf(recordingId: string): AsyncGenerator<Buffer> {
    let idx = -1;
    for (;;) {
      const [segment] = await rows<{ idx: number; data: Buffer }>(
        this.#db,
        sql`SELECT idx, data FROM video_recording_segments WHERE recording_id = ${recordingId}::uuid AND idx > ${idx}
            ORDER BY idx LIMIT 1`,
      );
      if (!segment) return;
      idx = segment.idx;
      yield this.#keyring.decryptBytes(segment.data, segmentContext(recordingId, idx));
    }
  }

  /** The tables whose rows may still hold bytes (those with their blob columns in this database). */
  async #legacyTables(): Promise<(SealedFileTable & { legacyBytes: string })[]> {
    return (await sealedFileTablesIn(this.#db)).filter(
      (set): set is SealedFileTable & { legacyBytes: string } => !!set.legacyBytes,
    );
  }

  #open(bytes: Buffer, context: FieldContext): Buffer | null {
    try {
      return this.#keyring.decryptBytes(bytes, context);
    } catch (error) {
      this.#log.warn({ err: error, table: context.table }, 'blobs: a row’s bytes could not be opened; left in place');
      return null;
    }
  }

  async #count(table: string, where: SQL, what = '*'): Promise<number> {
    const [row] = await rows<{ n: number }>(
      this.#db,
      sql`SELECT count(${sql.raw(what)})::int AS n FROM ${sql.identifier(table)} WHERE ${where}`,
    );
    return row?.n ?? 0;
  }

  async #exists(table: string, where: SQL): Promise<boolean> {
    const [row] = await rows<{ any: boolean }>(
      this.#db,
      sql`SELECT EXISTS (SELECT 1 FROM ${sql.identifier(table)} WHERE ${where}) AS any`,
    );
    return row?.any ?? false;
  }
}

function notNull(column: string): SQL {
  return sql`${sql.identifier(column)} IS NOT NULL`;
}

async function rows<T>(db: Executor, query: SQL): Promise<T[]> {
  const result = await db.execute(query);
  return result.rows as T[];
}
