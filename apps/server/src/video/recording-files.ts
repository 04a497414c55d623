import { and, asc, eq, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Decoder, Reader, tools } from 'ts-ebml';
import { ERROR_CODES } from '@telehealth/shared';
import { actorScope, systemScope } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { Database, Executor } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import { AppError, notFound } from '../errors.ts';
import { addJob } from '../jobs/add-job.ts';
import type { Keyring } from '../keys/keyring.ts';
import { videoRecordingChunks, videoRecordings, videoRecordingSegments } from './video.table.ts';
import { requireRecordingProvider } from './visit-access.ts';

// A recording's bytes (decision 026): the parts the provider's recorder uploads, encrypted as they arrive; their
// assembly into one seekable WebM in encrypted segments (the `recording:finalize` job); playback by byte range;
// and deletion after the retention period. Consent and the recording's status are recordings.service.ts's.

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** The url of every recording's audit entry, whoever acted (the provider, a person in the call, SYSTEM). */
export const RECORDING_OPERATION = 'videoRecording';
/** The assembled file is stored in encrypted segments of this size, so a byte range decrypts only what it needs. */
const SEGMENT_BYTES = 1024 * 1024;
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

/** A recording's stored bytes: uploads, assembly, playback and retention (`runtime.recordingFiles`). */
export class RecordingFiles {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #log: Log;
  readonly #now: () => Date;

  constructor(options: { db: Database; keyring: Keyring; log: Log; now?: () => Date }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#log = options.log;
    this.#now = options.now ?? (() => new Date());
  }

  /** One part from the provider's recorder, stored encrypted; assembling is pushed back while parts arrive. */
  async appendChunk(caller: Caller, recordingId: string, seq: number, bytes: Buffer): Promise<void> {
    const recording = await requireRecordingProvider(this.#db, caller, recordingId);
    if (!['recording', 'paused', 'stopped'].includes(recording.status)) {
      throw new AppError(ERROR_CODES.badUserInput, 'videoMessages.recordingNotActive');
    }
    await this.#db.transaction(async (tx) => {
      await tx
        .insert(videoRecordingChunks)
        .values({
          recordingId,
          seq,
          data: this.#keyring.encryptBytes(bytes, partOf('chunks', recordingId, seq)),
        })
        .onConflictDoNothing();
      // While recording: assembled if the parts stop coming (the tab closed); once stopped, the late last part
      // moves the assembly a moment later so that it is included.
      await finalizeLater(tx, recordingId, recording.status === 'stopped' ? FINALIZE_AFTER_STOP_MS : FINALIZE_IDLE_MS);
    });
  }

  /**
   * Assembles a recording from its parts (a job): decrypts them in order, fixes the WebM's duration and seeking
   * index, and stores it in encrypted segments. Nothing uploaded: nothing kept.
   */
  async finalize(recordingId: string): Promise<void> {
    const recording = await this.#recordingOf(recordingId).catch(() => null);
    if (!recording || recording.status === 'ready' || recording.status === 'refused') return;
    const chunks = await this.#db
      .select({ seq: videoRecordingChunks.seq, data: videoRecordingChunks.data })
      .from(videoRecordingChunks)
      .where(eq(videoRecordingChunks.recordingId, recordingId))
      .orderBy(asc(videoRecordingChunks.seq));
    if (chunks.length === 0) {
      await this.#db.update(videoRecordings).set({ status: 'refused' }).where(eq(videoRecordings.id, recordingId));
      return;
    }
    const raw = Buffer.concat(
      chunks.map((c) => this.#keyring.decryptBytes(c.data, partOf('chunks', recordingId, c.seq))),
    );
    let file: Buffer;
    let durationMs: number | null = null;
    try {
      ({ file, durationMs } = makeSeekable(raw));
    } catch (error) {
      this.#log.warn({ err: error, recordingId }, 'recording: could not fix the WebM index; kept as recorded');
      file = raw;
    }
    await this.#db.transaction(async (tx) => {
      await tx.delete(videoRecordingSegments).where(eq(videoRecordingSegments.recordingId, recordingId));
      for (let idx = 0; idx * SEGMENT_BYTES < file.length; idx++) {
        await tx.insert(videoRecordingSegments).values({
          recordingId,
          idx,
          data: this.#keyring.encryptBytes(
            file.subarray(idx * SEGMENT_BYTES, (idx + 1) * SEGMENT_BYTES),
            partOf('segments', recordingId, idx),
          ),
        });
      }
      await tx.delete(videoRecordingChunks).where(eq(videoRecordingChunks.recordingId, recordingId));
      await tx
        .update(videoRecordings)
        .set({
          status: 'ready',
          durationMs,
          sizeBytes: file.length,
          segmentBytes: SEGMENT_BYTES,
          mimeType: 'video/webm',
          stoppedAt: recording.stoppedAt ?? this.#now(),
        })
        .where(eq(videoRecordings.id, recordingId));
    });
  }

  /**
   * The bytes of a ready recording (all, or one range) for the appointment's provider. A playback that starts at
   * the beginning is audited (a seek asks for later ranges of the same playback).
   */
  async read(caller: Caller, recordingId: string, range: { start: number; end: number } | null) {
    const recording = await requireRecordingProvider(this.#db, caller, recordingId);
    if (recording.status !== 'ready' || recording.sizeBytes === null || recording.segmentBytes === null) {
      throw notFound('videoMessages.recordingNotFound');
    }
    const size = recording.sizeBytes;
    const start = range ? Math.min(range.start, size - 1) : 0;
    const end = range ? Math.min(range.end, size - 1) : size - 1;
    const first = Math.floor(start / recording.segmentBytes);
    const last = Math.floor(end / recording.segmentBytes);
    const segments = await this.#db
      .select({ idx: videoRecordingSegments.idx, data: videoRecordingSegments.data })
      .from(videoRecordingSegments)
      .where(
        and(
          eq(videoRecordingSegments.recordingId, recordingId),
          sql`${videoRecordingSegments.idx} BETWEEN ${first} AND ${last}`,
        ),
      )
      .orderBy(asc(videoRecordingSegments.idx));
    const plain = Buffer.concat(
      segments.map((s) => this.#keyring.decryptBytes(s.data, partOf('segments', recordingId, s.idx))),
    );
    const offset = start - first * recording.segmentBytes;
    const body = plain.subarray(offset, offset + (end - start + 1));
    if (start === 0) {
      await actorScope(caller.actor, RECORDING_OPERATION).audit(this.#db, 'RECORDING_PLAY', {
        appointmentIds: [recording.appointmentId],
        recordingId,
        range: range ? `${start}-${end}` : 'all',
      });
    }
    return { body, start, end, size, mimeType: recording.mimeType ?? 'video/webm' };
  }

  /** Deletes the recordings past their retention (a daily job). */
  async deleteExpired(): Promise<number> {
    const expired = await this.#db
      .delete(videoRecordings)
      .where(lt(videoRecordings.expiresAt, this.#now()))
      .returning({ id: videoRecordings.id, appointmentId: videoRecordings.appointmentId });
    for (const row of expired) {
      await systemScope(RECORDING_OPERATION).audit(this.#db, 'RECORDING_DELETED', {
        appointmentIds: [row.appointmentId],
        recordingId: row.id,
        reason: 'retention',
      });
    }
    return expired.length;
  }

  async #recordingOf(recordingId: string) {
    const [row] = isUuid(recordingId)
      ? await this.#db.select().from(videoRecordings).where(eq(videoRecordings.id, recordingId))
      : [];
    if (!row) throw notFound('videoMessages.recordingNotFound');
    return row;
  }
}

/** Where an encrypted part of a recording is stored: bound to its table, recording and number. */
function partOf(kind: 'chunks' | 'segments', recordingId: string, n: number) {
  return { table: `video_recording_${kind}`, column: 'data', id: `${recordingId}:${n}` };
}

/**
 * A WebM from MediaRecorder with its duration and Cues (seeking index) written into the metadata: Chromium's
 * recorder leaves both out, so a player could neither show the length nor seek.
 */
export function makeSeekable(raw: Buffer): { file: Buffer; durationMs: number } {
  const reader = new Reader();
  reader.logging = false;
  reader.drop_default_duration = false;
  const exact = raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength) as ArrayBuffer;
  for (const element of new Decoder().decode(exact)) reader.read(element);
  reader.stop();
  // ts-ebml answers `Buffer.concat(...).buffer`, which for a small result is Node's whole shared pool: with
  // pooling off for the call, the ArrayBuffer is exactly the metadata.
  const poolSize = Buffer.poolSize;
  let metadata: ArrayBuffer;
  try {
    Buffer.poolSize = 0;
    metadata = tools.makeMetadataSeekable(reader.metadatas, reader.duration, reader.cues);
  } finally {
    Buffer.poolSize = poolSize;
  }
  const scaleNs =
    (reader as unknown as { timestampScale?: number; timecodeScale?: number }).timestampScale ?? 1_000_000;
  return {
    file: Buffer.concat([Buffer.from(metadata), raw.subarray(reader.metadataSize)]),
    durationMs: Math.round((reader.duration * scaleNs) / 1_000_000),
  };
}
