import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
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
import { actorScope, systemScope } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { videoRecordingChunks, videoRecordingConsents, videoRecordings } from './video.table.ts';
import { AppError, parseInput } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import { isPresent, listParticipants, type ParticipantRow } from './video.repository.ts';
import { finalizeLater, RECORDING_OPERATION } from './recording-files.ts';
import { requireRecordingProvider, requireVisitProvider } from './visit-access.ts';
import { sendVideoMessage } from './video-relay.ts';
import type { JoinedConnection } from './joined-connection.ts';
import { ADVISORY_LOCK_CLASSES } from '../db/advisory-locks.ts';

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
 * withdraws. The bytes (the provider's uploads, their assembly, playback and retention) are recording-files.ts's.
 */
export class RecordingsService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #config: Config;
  readonly #now: () => Date;

  constructor(options: { db: Database; keyring: Keyring; config: Config; now?: () => Date }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#config = options.config;
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
      await actorScope(caller.actor, RECORDING_OPERATION).audit(tx, 'RECORDING_REQUESTED', {
        appointmentIds: [appointment.id],
        recordingId: id,
        participants: present.length,
      });
      // The row was written just now, in this transaction: settling always finds it.
      return { recordingId: id, status: (await this.#settle(tx, id)) ?? 'asking' };
    });
    return { compositionSid: recordingId, recordingSid: recordingId, status, roomSid: input.roomSid };
  }

  /** stopRecording: the provider stops; the parts uploaded so far become the recording. */
  async stop(caller: Caller, raw: { recordingSid: string; roomSid: string }) {
    const input = parseInput(RecordingStopInputSchema, raw);
    const recording = await requireRecordingProvider(this.#db, caller, input.recordingSid);
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
      await actorScope(from.actor, RECORDING_OPERATION).audit(tx, 'RECORDING_CONSENT', {
        appointmentIds: [row.appointmentId],
        recordingId,
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

  // -- the rules --------------------------------------------------------------------------------------------

  #providersAppointment(caller: Caller, appointmentId: string) {
    return requireVisitProvider(this.#db, caller, appointmentId, 'videoMessages.recordingProviderOnly');
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
        await systemScope(RECORDING_OPERATION).audit(tx, 'RECORDING_STARTED', {
          appointmentIds: [recording.appointmentId],
          recordingId,
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
      // Never started, so no part was taken (uploads need a started recording): no blob to remove with the rows.
      await tx.delete(videoRecordingChunks).where(eq(videoRecordingChunks.recordingId, recordingId));
    } else {
      await finalizeLater(tx, recordingId);
    }
    await actorScope(actor, RECORDING_OPERATION).audit(tx, 'RECORDING_STOPPED', {
      appointmentIds: [recording.appointmentId],
      recordingId,
      status,
      reason,
    });
    await this.#tell(tx, recording.appointmentId, { id: recordingId, status, consents: [] });
    return status;
  }

  async #tell(tx: Executor, appointmentId: string, recording: RecordingState): Promise<void> {
    await sendVideoMessage(tx, { appointmentId, to: 'admitted' }, { type: 'recording', recording });
  }
}
