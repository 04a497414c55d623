import { Readable } from 'node:stream';
import { and, asc, eq, inArray, lt } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { ERROR_CODES } from '@telehealth/shared';
import { actorScope, systemScope } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { Database, Executor } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import { AppError, notFound } from '../errors.ts';
import { addJob } from '../jobs/add-job.ts';
import type { SealedBlobs } from '../blobs/sealed-blobs.ts';
import type { FieldContext, Keyring } from '../keys/keyring.ts';
import { videoRecordingChunks, videoRecordings, videoRecordingSegments } from './video.table.ts';
import { requireRecordingProvider } from './visit-access.ts';
import { scanWebm, withFixedMetadata, type SeekableFix } from './webm-seekable.ts';

// A recording's bytes (decisions 026, 071): the parts the provider's recorder uploads, each a sealed blob as it
// arrives; their assembly into one seekable WebM, one sealed blob (the `recording:finalize` job); playback by
// byte range from the blob; and deletion of rows and blobs after the retention period. Consent and the
// recording's status are recordings.service.ts's.

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** The url of every recording's audit entry, whoever acted (the provider, a person in the call, SYSTEM). */
export const RECORDING_OPERATION = 'videoRecording';
/** After the last uploaded part, the recording is assembled this much later if nobody stopped it (tab closed). */
const FINALIZE_IDLE_MS = 90_000;
/** After a stop, time for the recorder's last part to arrive. */
const FINALIZE_AFTER_STOP_MS = 3_000;

/**
 * Assembles the recording after `delayMs` (by default once the last part after a stop has had time to arrive).
 * The job is keyed per recording, so a later call moves it.
 */
export function finalizeLater(
  tx: Executor,
  recordingId: string,
  delayMs = FINALIZE_AFTER_STOP_MS,
): Promise<string | null> {
  return addJob(tx, 'recording:finalize', { recordingId }, { jobKey: `recording:finalize:${recordingId}`, delayMs });
}

/** A ready recording's bytes as the playback route sends them. */
export interface RecordingBody {
  body: Readable;
  start: number;
  end: number;
  size: number;
  mimeType: string;
}

/** A recording's stored bytes: uploads, assembly, playback and retention (`runtime.recordingFiles`). */
export class RecordingFiles {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #blobs: SealedBlobs;
  readonly #log: Log;
  readonly #now: () => Date;

  constructor(options: { db: Database; keyring: Keyring; blobs: SealedBlobs; log: Log; now?: () => Date }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#blobs = options.blobs;
    this.#log = options.log;
    this.#now = options.now ?? (() => new Date());
  }

  /** One part from the provider's recorder, sealed into the blob store; assembling is pushed back while parts arrive. */
  async appendChunk(caller: Caller, recordingId: string, seq: number, bytes: Buffer): Promise<void> {
    const recording = await requireRecordingProvider(this.#db, caller, recordingId);
    if (!['recording', 'paused', 'stopped'].includes(recording.status)) {
      throw new AppError(ERROR_CODES.badUserInput, 'videoMessages.recordingNotActive');
    }
    // The blob first, then its row: a failed transaction (or a part sent twice) removes the blob again.
    const written = await this.#blobs.write(Readable.from([bytes]), chunkContext(recordingId, seq));
    let kept = false;
    try {
      await this.#db.transaction(async (tx) => {
        const inserted = await tx
          .insert(videoRecordingChunks)
          .values({
            recordingId,
            seq,
            blobKey: written.blobKey,
            keyId: written.keyId,
            wrappedKey: written.wrappedKey,
            plainBytes: written.plainBytes,
          })
          .onConflictDoNothing()
          .returning({ seq: videoRecordingChunks.seq });
        // While recording: assembled if the parts stop coming (the tab closed); once stopped, the late last part
        // moves the assembly a moment later so that it is included.
        await finalizeLater(
          tx,
          recordingId,
          recording.status === 'stopped' ? FINALIZE_AFTER_STOP_MS : FINALIZE_IDLE_MS,
        );
        kept = inserted.length > 0;
      });
    } catch (error) {
      kept = false;
      throw error;
    } finally {
      if (!kept) await this.#removeBlobs([written.blobKey]);
    }
  }

  /**
   * Assembles a recording from its parts (a job) into one sealed blob: reads the parts in order once to learn the
   * WebM's duration and seeking index, then streams them again behind the fixed metadata into the store. No part
   * and no file is ever whole in memory. Nothing uploaded: nothing kept.
   */
  async finalize(recordingId: string): Promise<void> {
    const recording = await this.#recordingOf(recordingId).catch(() => null);
    if (!recording || recording.status === 'ready' || recording.status === 'refused') return;
    const chunks = await this.#db
      .select({
        seq: videoRecordingChunks.seq,
        data: videoRecordingChunks.data,
        blobKey: videoRecordingChunks.blobKey,
        keyId: videoRecordingChunks.keyId,
        wrappedKey: videoRecordingChunks.wrappedKey,
        plainBytes: videoRecordingChunks.plainBytes,
      })
      .from(videoRecordingChunks)
      .where(eq(videoRecordingChunks.recordingId, recordingId))
      .orderBy(asc(videoRecordingChunks.seq));
    if (chunks.length === 0) {
      await this.#db.update(videoRecordings).set({ status: 'refused' }).where(eq(videoRecordings.id, recordingId));
      return;
    }
    const parts = () => this.#chunkBytes(recordingId, chunks);
    let fix: SeekableFix | null = null;
    try {
      fix = await scanWebm(parts());
    } catch (error) {
      this.#log.warn({ err: error, recordingId }, 'recording: could not fix the WebM index; kept as recorded');
    }
    const written = await this.#blobs.write(
      Readable.from(fix ? withFixedMetadata(parts(), fix) : parts()),
      recordingContext(recordingId),
    );
    let removed: string[] = [];
    try {
      await this.#db.transaction(async (tx) => {
        // Only the parts assembled: a part that came meanwhile is not lost with them (it goes with the recording).
        const deleted = await tx
          .delete(videoRecordingChunks)
          .where(
            and(
              eq(videoRecordingChunks.recordingId, recordingId),
              inArray(
                videoRecordingChunks.seq,
                chunks.map((c) => c.seq),
              ),
            ),
          )
          .returning({ blobKey: videoRecordingChunks.blobKey });
        removed = deleted.flatMap((row) => (row.blobKey ? [row.blobKey] : []));
        await tx
          .update(videoRecordings)
          .set({
            status: 'ready',
            durationMs: fix?.durationMs ?? null,
            sizeBytes: written.plainBytes,
            segmentBytes: null,
            blobKey: written.blobKey,
            keyId: written.keyId,
            wrappedKey: written.wrappedKey,
            mimeType: 'video/webm',
            stoppedAt: recording.stoppedAt ?? this.#now(),
          })
          .where(eq(videoRecordings.id, recordingId));
      });
    } catch (error) {
      await this.#removeBlobs([written.blobKey]);
      throw error;
    }
    await this.#removeBlobs(removed);
  }

  /**
   * The bytes of a ready recording (all, or one range) for the appointment's provider, streamed from its blob. A
   * playback that starts at the beginning is audited (a seek asks for later ranges of the same playback).
   */
  async read(
    caller: Caller,
    recordingId: string,
    range: { start: number; end: number } | null,
  ): Promise<RecordingBody> {
    const recording = await requireRecordingProvider(this.#db, caller, recordingId);
    if (recording.status !== 'ready' || recording.sizeBytes === null || recording.sizeBytes === 0) {
      throw notFound('videoMessages.recordingNotFound');
    }
    const size = recording.sizeBytes;
    const start = range ? Math.min(range.start, size - 1) : 0;
    const end = range ? Math.min(range.end, size - 1) : size - 1;
    let body: Readable;
    if (recording.blobKey && recording.keyId && recording.wrappedKey) {
      body = await this.#blobs.read(
        {
          blobKey: recording.blobKey,
          keyId: recording.keyId,
          wrappedKey: recording.wrappedKey,
          plainBytes: size,
          context: recordingContext(recordingId),
        },
        { start, end },
      );
    } else if (recording.segmentBytes !== null) {
      body = Readable.from(this.#legacySegments(recordingId, recording.segmentBytes, start, end));
    } else {
      throw notFound('videoMessages.recordingNotFound');
    }
    if (start === 0) {
      await actorScope(caller.actor, RECORDING_OPERATION).audit(this.#db, 'RECORDING_PLAY', {
        appointmentIds: [recording.appointmentId],
        recordingId,
        range: range ? `${start}-${end}` : 'all',
      });
    }
    return { body, start, end, size, mimeType: recording.mimeType ?? 'video/webm' };
  }

  /** Deletes the recordings past their retention (a daily job), their blobs after their rows. */
  async deleteExpired(): Promise<number> {
    const now = this.#now();
    const { expired, blobKeys } = await this.#db.transaction(async (tx) => {
      const parts = await tx
        .select({ blobKey: videoRecordingChunks.blobKey })
        .from(videoRecordingChunks)
        .innerJoin(videoRecordings, eq(videoRecordings.id, videoRecordingChunks.recordingId))
        .where(lt(videoRecordings.expiresAt, now))
        .for('update');
      const rows = await tx.delete(videoRecordings).where(lt(videoRecordings.expiresAt, now)).returning({
        id: videoRecordings.id,
        appointmentId: videoRecordings.appointmentId,
        blobKey: videoRecordings.blobKey,
      });
      for (const row of rows) {
        await systemScope(RECORDING_OPERATION).audit(tx, 'RECORDING_DELETED', {
          appointmentIds: [row.appointmentId],
          recordingId: row.id,
          reason: 'retention',
        });
      }
      const keys = [...rows.map((row) => row.blobKey), ...parts.map((part) => part.blobKey)];
      return { expired: rows, blobKeys: keys.filter((key): key is string => key !== null) };
    });
    // A crash before this line leaves blobs no row names: unreadable without their wrapped keys (decision 071).
    await this.#removeBlobs(blobKeys);
    return expired.length;
  }

  /** The plaintext of the parts, in order: from their blobs, or from the bytes of a part stored before. */
  async *#chunkBytes(recordingId: string, chunks: StoredChunk[]): AsyncGenerator<Buffer> {
    for (const chunk of chunks) {
      if (chunk.blobKey && chunk.keyId && chunk.wrappedKey && chunk.plainBytes !== null) {
        if (chunk.plainBytes === 0) continue;
        const stream = await this.#blobs.read({
          blobKey: chunk.blobKey,
          keyId: chunk.keyId,
          wrappedKey: chunk.wrappedKey,
          plainBytes: chunk.plainBytes,
          context: chunkContext(recordingId, chunk.seq),
        });
        for await (const part of stream) yield part as Buffer;
      } else if (chunk.data) {
        yield this.#keyring.decryptBytes(chunk.data, chunkContext(recordingId, chunk.seq));
      }
    }
  }

  /** A range of a recording assembled before recordings were blobs, a segment at a time (until it is moved). */
  async *#legacySegments(
    recordingId: string,
    segmentBytes: number,
    start: number,
    end: number,
  ): AsyncGenerator<Buffer> {
    const first = Math.floor(start / segmentBytes);
    const last = Math.floor(end / segmentBytes);
    for (let idx = first; idx <= last; idx++) {
      const [segment] = await this.#db
        .select({ data: videoRecordingSegments.data })
        .from(videoRecordingSegments)
        .where(and(eq(videoRecordingSegments.recordingId, recordingId), eq(videoRecordingSegments.idx, idx)));
      if (!segment) return;
      const plain = this.#keyring.decryptBytes(segment.data, segmentContext(recordingId, idx));
      const from = idx === first ? start - idx * segmentBytes : 0;
      const to = idx === last ? end - idx * segmentBytes + 1 : plain.length;
      yield plain.subarray(from, to);
    }
  }

  async #removeBlobs(keys: readonly string[]): Promise<void> {
    for (const blobKey of keys) {
      try {
        await this.#blobs.remove({ blobKey });
      } catch (error) {
        this.#log.warn({ err: error }, 'recording: a blob could not be removed');
      }
    }
  }

  async #recordingOf(recordingId: string) {
    const [row] = isUuid(recordingId)
      ? await this.#db.select().from(videoRecordings).where(eq(videoRecordings.id, recordingId))
      : [];
    if (!row) throw notFound('videoMessages.recordingNotFound');
    return row;
  }
}

interface StoredChunk {
  seq: number;
  data: Buffer | null;
  blobKey: string | null;
  keyId: string | null;
  wrappedKey: Buffer | null;
  plainBytes: number | null;
}

/** The place a recorder's part is sealed for (the place its bytes had in the database before). */
export function chunkContext(recordingId: string, seq: number): FieldContext {
  return { table: 'video_recording_chunks', column: 'data', id: `${recordingId}:${seq}` };
}

/** The place a segment of a recording assembled before recordings were blobs was encrypted for. */
export function segmentContext(recordingId: string, idx: number): FieldContext {
  return { table: 'video_recording_segments', column: 'data', id: `${recordingId}:${idx}` };
}

/** The place an assembled recording's blob is sealed for. */
export function recordingContext(recordingId: string): FieldContext {
  return { table: 'video_recordings', column: 'file', id: recordingId };
}
