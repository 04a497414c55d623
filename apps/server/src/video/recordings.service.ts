import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { Decoder, Reader, tools } from 'ts-ebml';
import {
  ERROR_CODES,
  RECORDING_MIN_PARTICIPANTS,
  RECORDING_NOTICE_VERSION,
  RecordingStartInputSchema,
  RecordingStopInputSchema,
  type ConsentDecision,
  type RecordingState,
  type RecordingStatus,
} from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import { appendAuditEntry, SYSTEM_ACTOR, type AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { appointments } from '../appointments/appointments.table.ts';
import {
  videoRecordingChunks,
  videoRecordingConsents,
  videoRecordings,
  videoRecordingSegments,
} from './video.table.ts';
import { AppError, notFound, parseInput } from '../errors.ts';
import { addJob } from '../jobs/add-job.ts';
import type { Keyring } from '../keys/keyring.ts';
import { isPresent, listParticipants, type ParticipantRow } from './video.repository.ts';
import { requireVisitProvider } from './visit-access.ts';
import { sendVideoMessage } from './video-relay.ts';
import type { JoinedConnection } from './joined-connection.ts';
import { isUuid } from '../db/ids.ts';
import { ADVISORY_LOCK_CLASSES } from '../db/advisory-locks.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** The assembled file is stored in encrypted segments of this size, so a byte range decrypts only what it needs. */
const SEGMENT_BYTES = 1024 * 1024;
/** After the last uploaded part, the recording is assembled this much later if nobody stopped it (tab closed). */
const FINALIZE_IDLE_MS = 90_000;
/** After a stop, time for the recorder's last part to arrive. */
const FINALIZE_AFTER_STOP_MS = 3_000;
const ACTIVE: RecordingStatus[] = ['asking', 'recording', 'paused'];

export interface RecordingView {
  id: string;
  appointmentId: string;
  status: string;
  durationMs: number | null;
  sizeBytes: number | null;
  mimeType: string | null;
  startedAt: Date | null;
  stoppedAt: Date | null;
  expiresAt: Date;
  createdAt: Date;
}

/**
 * Recordings of video visits with everyone's consent (decision 026): the provider asks; each person in the call
 * answers (stored with the notice's version); recording runs only while everyone present has agreed and at least
 * two are in the call, pauses when someone new joins until they agree, and stops when anyone declines or
 * withdraws. The provider's browser uploads the parts while recording; a job assembles them (duration and
 * seeking index fixed with ts-ebml), encrypted with the data keys. Only the appointment's provider plays back.
 */
export class RecordingsService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #config: Config;
  readonly #log: Log;
  readonly #now: () => Date;

  constructor(options: { db: Database; keyring: Keyring; config: Config; log: Log; now?: () => Date }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#config = options.config;
    this.#log = options.log;
    this.#now = options.now ?? (() => new Date());
  }

  // -- the specification's start and stop calls (GraphQL) ---------------------------------------------------

  /** startRecording: the provider asks everyone in the call; the answer names the recording (recordingSid). */
  async start(caller: Caller, raw: { roomSid: string; identity: string; appointmentId: string }) {
    const input = parseInput(RecordingStartInputSchema, raw);
    const appointment = await this.#providersAppointment(caller, input.appointmentId);
    const now = this.#now();
    const { recordingId, status } = await this.#db.transaction(async (tx) => {
      await tx.execute(
        sql`SELECT pg_advisory_xact_lock(${ADVISORY_LOCK_CLASSES.videoVisit}, hashtext(${appointment.id}))`,
      );
      const present = await this.#presentAdmitted(tx, appointment.id);
      if (present.length < RECORDING_MIN_PARTICIPANTS) {
        throw new AppError(ERROR_CODES.badUserInput, 'videoMessages.recordingNeedsTwo', {
          n: present.length,
          m: Math.max(0, present.length - 1),
        });
      }
      const [active] = await tx
        .select({ id: videoRecordings.id, status: videoRecordings.status })
        .from(videoRecordings)
        .where(and(eq(videoRecordings.appointmentId, appointment.id), inArray(videoRecordings.status, ACTIVE)));
      if (active) return { recordingId: active.id, status: active.status };
      const id = randomUUID();
      await tx.insert(videoRecordings).values({
        id,
        appointmentId: appointment.id,
        requestedBy: caller.user.id,
        status: 'asking',
        noticeVersion: RECORDING_NOTICE_VERSION,
        expiresAt: new Date(now.getTime() + this.#config.settings.current().recordingRetentionDays * 86_400_000),
      });
      await tx.insert(videoRecordingConsents).values(
        present.map((p) => ({
          recordingId: id,
          peerId: p.peerId,
          userId: p.userId,
          role: p.role,
          // Asking is the provider's own agreement.
          decision: p.userId === caller.user.id ? 'yes' : 'pending',
          noticeVersion: RECORDING_NOTICE_VERSION,
          askedAt: now,
          decidedAt: p.userId === caller.user.id ? now : null,
        })),
      );
      await this.#audit(tx, caller.actor, 'RECORDING_REQUESTED', appointment.id, id, { participants: present.length });
      // The row was written just now, in this transaction: settling always finds it.
      return { recordingId: id, status: (await this.#settle(tx, id)) ?? 'asking' };
    });
    return { compositionSid: recordingId, recordingSid: recordingId, status, roomSid: input.roomSid };
  }

  /** stopRecording: the provider stops; the parts uploaded so far become the recording. */
  async stop(caller: Caller, raw: { recordingSid: string; roomSid: string }) {
    const input = parseInput(RecordingStopInputSchema, raw);
    const recording = await this.#providersRecording(caller, input.recordingSid);
    await this.#db.transaction(async (tx) => {
      await this.#end(tx, recording.id, caller.actor, 'stopped by the provider');
    });
    return {
      compositionSid: recording.id,
      recordingSid: recording.id,
      status: 'completed',
      roomSid: input.roomSid,
    };
  }

  /** The recordings of an appointment (its details), for its provider. */
  async list(caller: Caller, appointmentId: string): Promise<RecordingView[]> {
    await this.#providersAppointment(caller, appointmentId);
    return this.#db
      .select({
        id: videoRecordings.id,
        appointmentId: videoRecordings.appointmentId,
        status: videoRecordings.status,
        durationMs: videoRecordings.durationMs,
        sizeBytes: videoRecordings.sizeBytes,
        mimeType: videoRecordings.mimeType,
        startedAt: videoRecordings.startedAt,
        stoppedAt: videoRecordings.stoppedAt,
        expiresAt: videoRecordings.expiresAt,
        createdAt: videoRecordings.createdAt,
      })
      .from(videoRecordings)
      .where(eq(videoRecordings.appointmentId, appointmentId))
      .orderBy(asc(videoRecordings.createdAt));
  }

  // -- the call (signalling socket) -------------------------------------------------------------------------

  /** A person's answer, or withdrawal: a no stops the recording for everyone. */
  async consent(from: JoinedConnection, recordingId: string, agree: boolean): Promise<boolean> {
    return this.#db.transaction(async (tx) => {
      const [row] = await tx
        .select({ status: videoRecordings.status, appointmentId: videoRecordings.appointmentId })
        .from(videoRecordings)
        .where(eq(videoRecordings.id, recordingId))
        .for('update');
      if (!row || row.appointmentId !== from.grant.appointmentId || !ACTIVE.includes(row.status as RecordingStatus)) {
        return false;
      }
      const now = this.#now();
      await tx
        .insert(videoRecordingConsents)
        .values({
          recordingId,
          peerId: from.grant.peerId,
          userId: from.grant.userId,
          role: from.grant.role,
          decision: agree ? 'yes' : 'no',
          noticeVersion: RECORDING_NOTICE_VERSION,
          askedAt: now,
          decidedAt: now,
        })
        .onConflictDoUpdate({
          target: [videoRecordingConsents.recordingId, videoRecordingConsents.peerId],
          set: { decision: agree ? 'yes' : 'no', decidedAt: now, noticeVersion: RECORDING_NOTICE_VERSION },
        });
      await this.#audit(tx, from.actor, 'RECORDING_CONSENT', row.appointmentId, recordingId, {
        decision: agree ? 'yes' : 'no',
        noticeVersion: RECORDING_NOTICE_VERSION,
      });
      await this.#settle(tx, recordingId);
      return true;
    });
  }

  /**
   * Someone was let in or left: a running recording pauses until a newcomer agrees, and goes on once everyone
   * present has. The newcomer is told the recording's state.
   */
  async peopleChanged(tx: Executor, appointmentId: string, newcomer?: ParticipantRow): Promise<void> {
    const [active] = await tx
      .select({ id: videoRecordings.id })
      .from(videoRecordings)
      .where(and(eq(videoRecordings.appointmentId, appointmentId), inArray(videoRecordings.status, ACTIVE)));
    if (!active) return;
    if (newcomer) {
      await tx
        .insert(videoRecordingConsents)
        .values({
          recordingId: active.id,
          peerId: newcomer.peerId,
          userId: newcomer.userId,
          role: newcomer.role,
          decision: 'pending',
          noticeVersion: RECORDING_NOTICE_VERSION,
          askedAt: this.#now(),
        })
        .onConflictDoNothing();
    }
    await this.#settle(tx, active.id);
  }

  /** The visit ended: a recording still running stops. */
  async visitEnded(tx: Executor, appointmentId: string, actor: AuditActor): Promise<void> {
    const active = await tx
      .select({ id: videoRecordings.id })
      .from(videoRecordings)
      .where(and(eq(videoRecordings.appointmentId, appointmentId), inArray(videoRecordings.status, ACTIVE)));
    for (const { id } of active) await this.#end(tx, id, actor, 'the visit ended');
  }

  // -- the recorder's uploads and playback (HTTP) -----------------------------------------------------------

  /** One part from the provider's recorder, stored encrypted; assembling is pushed back while parts arrive. */
  async appendChunk(caller: Caller, recordingId: string, seq: number, bytes: Buffer): Promise<void> {
    const recording = await this.#providersRecording(caller, recordingId);
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
      await addJob(
        tx,
        'recording:finalize',
        { recordingId },
        {
          jobKey: `recording:finalize:${recordingId}`,
          delayMs: recording.status === 'stopped' ? FINALIZE_AFTER_STOP_MS : FINALIZE_IDLE_MS,
        },
      );
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
    const recording = await this.#providersRecording(caller, recordingId);
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
      await this.#audit(this.#db, caller.actor, 'RECORDING_PLAY', recording.appointmentId, recordingId, {
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
      await this.#audit(this.#db, SYSTEM_ACTOR, 'RECORDING_DELETED', row.appointmentId, row.id, {
        reason: 'retention',
      });
    }
    return expired.length;
  }

  // -- the rules --------------------------------------------------------------------------------------------

  #providersAppointment(caller: Caller, appointmentId: string) {
    return requireVisitProvider(this.#db, caller, appointmentId, 'videoMessages.recordingProviderOnly');
  }

  /**
   * A recording of the caller's own visit. Anyone else (the patient too: recordings are the provider's alone) is
   * answered exactly as if it did not exist (issue 24), and an attempt on an existing one is recorded. The
   * permission is checked first, so that a caller without it is refused the same way for any id.
   */
  async #providersRecording(caller: Caller, recordingId: string) {
    await authorize(this.#db, caller, 'visit:join', { message: 'videoMessages.recordingProviderOnly' });
    const found = await scopeOf(this.#db, caller).find('visit:join', recordingId, {
      load: async (db, id) => {
        const [row] = await db
          .select({ recording: videoRecordings, providerId: appointments.providerId })
          .from(videoRecordings)
          .innerJoin(appointments, eq(appointments.id, videoRecordings.appointmentId))
          .where(eq(videoRecordings.id, id));
        return row;
      },
      within: (row) => row.providerId === caller.user.id,
      missing: 'videoMessages.recordingNotFound',
      denial: (row) => ({
        appointmentIds: [row.recording.appointmentId],
        recordingId,
        reason: 'not the provider of the appointment',
      }),
    });
    return found.recording;
  }

  async #recordingOf(recordingId: string) {
    const [row] = isUuid(recordingId)
      ? await this.#db.select().from(videoRecordings).where(eq(videoRecordings.id, recordingId))
      : [];
    if (!row) throw notFound('videoMessages.recordingNotFound');
    return row;
  }

  async #presentAdmitted(tx: Executor, appointmentId: string): Promise<ParticipantRow[]> {
    const now = this.#now();
    return (await listParticipants(tx, appointmentId, this.#keyring)).filter(
      (p) => p.presence === 'admitted' && isPresent(p, now),
    );
  }

  /**
   * Applies the rules to a recording's answers and the people present, and tells the call: a no (before anything
   * was recorded: refused) stops it; everyone present agreed and at least two: recording; otherwise, once it
   * had started, paused. Answers the status it leaves.
   */
  async #settle(tx: Executor, recordingId: string): Promise<RecordingStatus | null> {
    const [recording] = await tx
      .select()
      .from(videoRecordings)
      .where(eq(videoRecordings.id, recordingId))
      .for('update');
    if (!recording) return null;
    if (!ACTIVE.includes(recording.status as RecordingStatus)) return recording.status as RecordingStatus;
    const present = await this.#presentAdmitted(tx, recording.appointmentId);
    const consents = await tx
      .select({ peerId: videoRecordingConsents.peerId, decision: videoRecordingConsents.decision })
      .from(videoRecordingConsents)
      .where(eq(videoRecordingConsents.recordingId, recordingId));
    const decisionOf = (peerId: string) =>
      (consents.find((c) => c.peerId === peerId)?.decision ?? 'pending') as ConsentDecision;
    if (consents.some((c) => c.decision === 'no')) {
      return this.#end(tx, recordingId, SYSTEM_ACTOR, 'a participant declined or withdrew');
    }
    const everyoneAgreed = present.every((p) => decisionOf(p.peerId) === 'yes');
    const status: RecordingStatus =
      everyoneAgreed && present.length >= RECORDING_MIN_PARTICIPANTS
        ? 'recording'
        : recording.startedAt
          ? 'paused'
          : 'asking';
    if (status !== recording.status) {
      await tx
        .update(videoRecordings)
        .set({ status, ...(status === 'recording' && !recording.startedAt ? { startedAt: this.#now() } : {}) })
        .where(eq(videoRecordings.id, recordingId));
      if (status === 'recording' && !recording.startedAt) {
        await this.#audit(tx, SYSTEM_ACTOR, 'RECORDING_STARTED', recording.appointmentId, recordingId, {
          participants: present.length,
        });
      }
    }
    await this.#tell(tx, recording.appointmentId, {
      id: recordingId,
      status,
      consents: present.map((p) => ({ peerId: p.peerId, name: p.displayName, decision: decisionOf(p.peerId) })),
    });
    return status;
  }

  /** Stops a recording: refused when nothing was recorded yet, else stopped and assembled shortly. */
  async #end(tx: Executor, recordingId: string, actor: AuditActor, reason: string): Promise<RecordingStatus | null> {
    const [recording] = await tx
      .select()
      .from(videoRecordings)
      .where(eq(videoRecordings.id, recordingId))
      .for('update');
    if (!recording) return null;
    if (!ACTIVE.includes(recording.status as RecordingStatus)) return recording.status as RecordingStatus;
    const status: RecordingStatus = recording.startedAt ? 'stopped' : 'refused';
    await tx.update(videoRecordings).set({ status, stoppedAt: this.#now() }).where(eq(videoRecordings.id, recordingId));
    if (status === 'refused') {
      await tx.delete(videoRecordingChunks).where(eq(videoRecordingChunks.recordingId, recordingId));
    } else {
      await addJob(
        tx,
        'recording:finalize',
        { recordingId },
        {
          jobKey: `recording:finalize:${recordingId}`,
          delayMs: FINALIZE_AFTER_STOP_MS,
        },
      );
    }
    await this.#audit(tx, actor, 'RECORDING_STOPPED', recording.appointmentId, recordingId, { status, reason });
    await this.#tell(tx, recording.appointmentId, { id: recordingId, status, consents: [] });
    return status;
  }

  async #tell(tx: Executor, appointmentId: string, recording: RecordingState): Promise<void> {
    await sendVideoMessage(tx, { appointmentId, to: 'admitted' }, { type: 'recording', recording });
  }

  #audit(
    tx: Executor,
    actor: AuditActor,
    event:
      | 'RECORDING_REQUESTED'
      | 'RECORDING_CONSENT'
      | 'RECORDING_STARTED'
      | 'RECORDING_STOPPED'
      | 'RECORDING_PLAY'
      | 'RECORDING_DELETED',
    appointmentId: string,
    recordingId: string,
    details: Record<string, unknown>,
  ) {
    return appendAuditEntry(tx, {
      event,
      level: 'INFO',
      actor,
      url: 'videoRecording',
      details: { appointmentIds: [appointmentId], recordingId, ...details },
    });
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
