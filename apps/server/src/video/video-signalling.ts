import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { VIDEO_MAX_PARTICIPANTS, type VideoPeer, type VideoRefusal, type VideoRole } from '@telehealth/shared';
import { actorScope, type ActorScope } from '../access/scope.ts';
import type {
  AppointmentChange,
  AppointmentListener,
  AppointmentsService,
} from '../appointments/appointments.service.ts';
import { SYSTEM_ACTOR, type AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import { ADVISORY_LOCK_CLASSES } from '../db/advisory-locks.ts';
import type { Database, Executor } from '../db/client.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { VideoConsentGate } from './consent-gate.ts';
import type { JoinedConnection } from './joined-connection.ts';
import type { RecordingsService } from './recordings.service.ts';
import type { VideoGuests } from './video-guests.ts';
import { sendVideoMessage } from './video-relay.ts';
import type { VideoTokens } from './video-tokens.ts';
import {
  findVisitAppointment,
  isPresent,
  listParticipants,
  saveParticipant,
  type ParticipantRow,
  type VisitAppointment,
} from './video.repository.ts';
import { videoParticipants } from './video.table.ts';
import { visitClosedReason } from './visit-access.ts';
import { announceWaiting } from './waiting-room.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** The url of the audit entries written on the signalling socket. */
const SIGNAL_OPERATION = 'videoSignal';

export type JoinResult = { ok: true; joined: JoinedConnection } | { ok: false; reason: VideoRefusal };

/**
 * The signalling socket of a video visit (decision 026), whose methods `video.routes.ts` calls for each message:
 * joining with a token (the waiting room or the call), relaying WebRTC messages between admitted people, the
 * provider's admit, notice and end, leaving, and the socket's heartbeat; each change tells the providers' waiting
 * lists (waiting-room.ts). Every message goes through `video_signals` (video-relay.ts), so the people of one call
 * may sit on different instances. Also an appointment listener: cancelling an appointment closes its visit at once.
 * Its audit entries are the socket person's (`actorScope`, url `videoSignal`): a guest has no session.
 */
export class VideoSignalling implements AppointmentListener {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #config: Config;
  readonly #appointments: AppointmentsService;
  readonly #recordings: RecordingsService;
  readonly #guests: VideoGuests;
  readonly #tokens: VideoTokens;
  readonly #consent: VideoConsentGate;
  readonly #log: Log;
  readonly #now: () => Date;

  constructor(options: {
    db: Database;
    keyring: Keyring;
    config: Config;
    appointments: AppointmentsService;
    recordings: RecordingsService;
    guests: VideoGuests;
    tokens: VideoTokens;
    consent: VideoConsentGate;
    log: Log;
    now?: () => Date;
  }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#config = options.config;
    this.#appointments = options.appointments;
    this.#recordings = options.recordings;
    this.#guests = options.guests;
    this.#tokens = options.tokens;
    this.#consent = options.consent;
    this.#log = options.log;
    this.#now = options.now ?? (() => new Date());
  }

  /**
   * A socket's `join`: checks the token and the appointment again (it may have been cancelled or moved since),
   * then puts the person in the waiting room or the call and tells everyone concerned.
   */
  async join(options: {
    token: string;
    pageId: string;
    connectionId: string;
    /** The session's account; null on the guests' socket, where only a guest's token is accepted. */
    sessionUserId: string | null;
    actor: AuditActor;
  }): Promise<JoinResult> {
    const scope = actorScope(options.actor, SIGNAL_OPERATION);
    const grant = this.#tokens.verify(options.token);
    const guest = grant?.guestId ? await this.#guests.activeGuest(grant.guestId) : null;
    const genuine =
      grant !== null &&
      (options.sessionUserId === null
        ? grant.role === 'guest' && guest?.appointmentId === grant.appointmentId
        : grant.role !== 'guest' && grant.userId === options.sessionUserId);
    if (!grant || !genuine) {
      await this.#refuseStranger(scope, grant?.appointmentId ?? null, 'token invalid, revoked or not the session’s');
      return { ok: false, reason: 'tokenInvalid' };
    }
    const appointment = await findVisitAppointment(this.#db, grant.appointmentId);
    if (!appointment) return { ok: false, reason: 'notFound' };
    const role = grant.role === 'guest' ? 'guest' : roleOf(appointment, grant.userId);
    if (!role) {
      await this.#refuseStranger(scope, appointment.id, 'not the appointment’s provider or patient');
      return { ok: false, reason: 'notYourVisit' };
    }
    const refusal = visitClosedReason(appointment, role, this.#config.video, this.#now());
    if (refusal) {
      await scope.audit(this.#db, 'VIDEO_JOIN_REFUSED', { appointmentIds: [appointment.id], reason: refusal });
      return { ok: false, reason: refusal };
    }
    // A token is good for 10 minutes: the consent is asked again here (decision 069), as the setting or the
    // consent's version may have changed since it was given.
    if (role === 'patient' && (await this.#consent.blocks(appointment.patientId))) {
      await scope.audit(this.#db, 'VIDEO_JOIN_REFUSED', {
        appointmentIds: [appointment.id],
        patientIds: [appointment.patientId],
        reason: 'consentRequired',
      });
      return { ok: false, reason: 'consentRequired' };
    }
    const now = this.#now();
    let full = false;
    await this.#db.transaction(async (tx) => {
      // One join or admission of a visit at a time: the room count and the peers told are then exact.
      await tx.execute(
        sql`SELECT pg_advisory_xact_lock(${ADVISORY_LOCK_CLASSES.videoVisit}, hashtext(${appointment.id}))`,
      );
      const rows = await listParticipants(tx, appointment.id, this.#keyring);
      const mine = rows.find((r) => r.peerId === grant.peerId);
      const others = rows.filter((r) => r.peerId !== grant.peerId && isPresent(r, now));
      if (others.length + 1 > VIDEO_MAX_PARTICIPANTS) {
        full = true;
        return;
      }
      const reloaded = mine !== undefined && mine.pageId !== options.pageId;
      // The same page again (its socket dropped): the others keep their connections to it and hear nothing.
      // Someone waiting is announced again, as a dropped socket took them off the provider's list.
      const resumed = mine !== undefined && !reloaded;
      const presence = role === 'provider' || mine?.presence === 'admitted' ? 'admitted' : 'waiting';
      const row: Omit<ParticipantRow, 'joinedAt' | 'seenAt'> & { seenAt: Date } = {
        id: mine?.id ?? randomUUID(),
        appointmentId: appointment.id,
        peerId: grant.peerId,
        userId: grant.userId,
        role,
        displayName: grant.name,
        presence,
        connectionId: options.connectionId,
        pageId: options.pageId,
        admittedAt: presence === 'admitted' ? (mine?.admittedAt ?? now) : null,
        seenAt: now,
      };
      // The same person's earlier socket (another window, or the one this page is replacing) is closed.
      if (mine?.connectionId && mine.connectionId !== options.connectionId) {
        await sendVideoMessage(tx, { connectionId: mine.connectionId }, { type: 'ended', reason: 'replaced' });
      }
      await saveParticipant(tx, row, this.#keyring);
      const self = peerOf(row);
      const admittedOthers = others.filter((r) => r.presence === 'admitted');
      await sendVideoMessage(
        tx,
        { connectionId: options.connectionId },
        {
          type: 'joined',
          self,
          resumed,
          // The newcomer answers (polite); who was there first makes the offer. Waiting people are listed to
          // the provider only.
          peers: (presence === 'admitted' ? (role === 'provider' ? others : admittedOthers) : []).map((r) => ({
            ...peerOf(r),
            polite: true,
          })),
        },
      );
      if (!resumed || presence === 'waiting') {
        if (reloaded && mine.presence === 'admitted') {
          await sendVideoMessage(
            tx,
            { appointmentId: appointment.id, to: 'all' },
            { type: 'peer-left', peerId: grant.peerId },
            { exceptPeer: grant.peerId },
          );
        }
        // Admitted: everyone in the call is told (and makes an offer). Waiting: only the provider (who lets
        // people in); the others hear of a guest or the patient once admitted.
        await sendVideoMessage(
          tx,
          { appointmentId: appointment.id, to: presence === 'admitted' ? 'admitted' : 'provider' },
          { type: 'peer-joined', peer: self, polite: false },
          { exceptPeer: grant.peerId },
        );
      }
      await scope.audit(tx, 'VIDEO_JOIN', {
        appointmentIds: [appointment.id],
        patientIds: [appointment.patientId],
        role,
        presence,
        resumed,
      });
      if (role !== 'provider') await announceWaiting(tx, this.#now(), this.#keyring, [appointment.id]);
      // Someone in the call now: a running recording waits for their consent (and they are told of it).
      if (presence === 'admitted') {
        await this.#recordings.peopleChanged(tx, appointment.id, { ...row, joinedAt: mine?.joinedAt ?? now });
      }
    });
    if (full) return { ok: false, reason: 'roomFull' };
    // The patient arriving checks the visit in; a live visit is left as it is.
    if (role === 'patient' && (appointment.status === 'scheduled' || appointment.status === 'confirmed')) {
      await this.#appointments.advanceForVisit(appointment.id, 'checked-in', {
        userId: grant.userId,
        actor: options.actor,
      });
    }
    return { ok: true, joined: { connectionId: options.connectionId, grant, actor: options.actor } };
  }

  /** Relays one WebRTC message to a peer, only between admitted people of the visit. */
  async signal(from: JoinedConnection, to: string, data: unknown): Promise<boolean> {
    const reached = await this.#db.transaction((tx) =>
      sendVideoMessage(
        tx,
        { appointmentId: from.grant.appointmentId, to: 'peers', peerIds: [to] },
        { type: 'signal', from: from.grant.peerId, data: data as never },
        { fromConnection: from.connectionId, onlyAdmitted: true },
      ),
    );
    return reached > 0;
  }

  /** The provider lets someone in from the waiting room; the appointment is then in progress. */
  async admit(
    by: JoinedConnection,
    peerId: string,
  ): Promise<'ok' | 'PROVIDER_ONLY' | 'UNKNOWN_PEER' | 'CONSENT_REQUIRED'> {
    if (by.grant.role !== 'provider') return 'PROVIDER_ONLY';
    const appointmentId = by.grant.appointmentId;
    const now = this.#now();
    // The patient waiting since before the setting was turned on (or a new consent version): not let in
    // (decision 069). Their page is told, and asks them to sign; the provider hears why.
    const visit = await findVisitAppointment(this.#db, appointmentId);
    const patientPeerId = visit?.patientAccountId ? this.#tokens.peerIdOf(appointmentId, visit.patientAccountId) : null;
    if (visit && peerId === patientPeerId) {
      const appointment = visit;
      if (await this.#consent.blocks(appointment.patientId)) {
        await this.#db.transaction(async (tx) => {
          await sendVideoMessage(
            tx,
            { appointmentId, to: 'peers', peerIds: [peerId] },
            { type: 'ended', reason: 'consentRequired' },
          );
          await actorScope(by.actor, SIGNAL_OPERATION).audit(tx, 'VIDEO_JOIN_REFUSED', {
            appointmentIds: [appointmentId],
            patientIds: [appointment.patientId],
            reason: 'consentRequired',
          });
        });
        return 'CONSENT_REQUIRED';
      }
    }
    const admitted = await this.#db.transaction(async (tx) => {
      await tx.execute(
        sql`SELECT pg_advisory_xact_lock(${ADVISORY_LOCK_CLASSES.videoVisit}, hashtext(${appointmentId}))`,
      );
      const rows = await listParticipants(tx, appointmentId, this.#keyring);
      const target = rows.find((r) => r.peerId === peerId && isPresent(r, now));
      if (!target || target.presence === 'admitted') return null;
      await tx
        .update(videoParticipants)
        .set({ presence: 'admitted', admittedAt: now })
        .where(and(eq(videoParticipants.appointmentId, appointmentId), eq(videoParticipants.peerId, peerId)));
      const peer = peerOf({ ...target, presence: 'admitted' });
      const inCall = rows.filter((r) => r.peerId !== peerId && r.presence === 'admitted' && isPresent(r, now));
      await sendVideoMessage(
        tx,
        { connectionId: target.connectionId! },
        {
          type: 'admitted',
          peers: inCall.map((r) => ({ ...peerOf(r), polite: true })),
        },
      );
      await sendVideoMessage(
        tx,
        { appointmentId, to: 'admitted' },
        { type: 'peer-joined', peer, polite: false },
        { exceptPeer: peerId },
      );
      await actorScope(by.actor, SIGNAL_OPERATION).audit(tx, 'VIDEO_ADMIT', {
        appointmentIds: [appointmentId],
        role: target.role,
      });
      await announceWaiting(tx, this.#now(), this.#keyring, [appointmentId]);
      await this.#recordings.peopleChanged(tx, appointmentId, { ...target, presence: 'admitted' });
      return target;
    });
    if (!admitted) return 'UNKNOWN_PEER';
    await this.#appointments.advanceForVisit(appointmentId, 'in-progress', {
      userId: by.grant.userId,
      actor: by.actor,
    });
    return 'ok';
  }

  /** The provider's short message to someone waiting ('Running 5 minutes late'). */
  async notice(by: JoinedConnection, peerId: string, text: string): Promise<'ok' | 'PROVIDER_ONLY' | 'UNKNOWN_PEER'> {
    if (by.grant.role !== 'provider') return 'PROVIDER_ONLY';
    const reached = await this.#db.transaction((tx) =>
      sendVideoMessage(
        tx,
        { appointmentId: by.grant.appointmentId, to: 'peers', peerIds: [peerId] },
        {
          type: 'notice',
          from: by.grant.peerId,
          text,
        },
      ),
    );
    return reached > 0 ? 'ok' : 'UNKNOWN_PEER';
  }

  /** The provider ends the visit for everyone: the appointment is completed. */
  async end(by: JoinedConnection): Promise<'ok' | 'PROVIDER_ONLY'> {
    if (by.grant.role !== 'provider') return 'PROVIDER_ONLY';
    const appointmentId = by.grant.appointmentId;
    await this.#db.transaction(async (tx) => {
      await this.#recordings.visitEnded(tx, appointmentId, by.actor);
      await this.#closeVisit(tx, [appointmentId], 'provider-ended');
      await actorScope(by.actor, SIGNAL_OPERATION).audit(tx, 'VIDEO_END', { appointmentIds: [appointmentId] });
    });
    await this.#appointments.advanceForVisit(appointmentId, 'completed', { userId: by.grant.userId, actor: by.actor });
    return 'ok';
  }

  /** The person left (End Call, closing the page): the others are told. */
  async leave(from: JoinedConnection): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const left = await tx
        .update(videoParticipants)
        .set({ connectionId: null })
        .where(eq(videoParticipants.connectionId, from.connectionId))
        .returning({ presence: videoParticipants.presence });
      if (left.length === 0) return;
      // Someone waiting was known to the provider only.
      await sendVideoMessage(
        tx,
        { appointmentId: from.grant.appointmentId, to: left[0]?.presence === 'waiting' ? 'provider' : 'all' },
        { type: 'peer-left', peerId: from.grant.peerId },
      );
      await announceWaiting(tx, this.#now(), this.#keyring, [from.grant.appointmentId]);
    });
  }

  /**
   * The socket closed without a word (network, a reload). Someone in the call stays listed, so that a
   * reconnecting page resumes without the others tearing their connection down; someone waiting leaves the list.
   */
  async disconnected(from: JoinedConnection): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const gone = await tx
        .update(videoParticipants)
        .set({ connectionId: null })
        .where(eq(videoParticipants.connectionId, from.connectionId))
        .returning({ presence: videoParticipants.presence });
      if (gone[0]?.presence === 'waiting') {
        await sendVideoMessage(
          tx,
          { appointmentId: from.grant.appointmentId, to: 'provider' },
          { type: 'peer-left', peerId: from.grant.peerId },
        );
        await announceWaiting(tx, this.#now(), this.#keyring, [from.grant.appointmentId]);
      }
    });
  }

  /** A socket's heartbeat: the person is still there. */
  async seen(from: JoinedConnection): Promise<void> {
    await this.#db
      .update(videoParticipants)
      .set({ seenAt: this.#now() })
      .where(eq(videoParticipants.connectionId, from.connectionId));
  }

  // -- appointment changes ----------------------------------------------------------------------------------

  async appointmentsChanged(tx: Executor, change: AppointmentChange, appointmentIds: string[]): Promise<void> {
    if (change !== 'cancelled') return;
    for (const id of appointmentIds) await this.#recordings.visitEnded(tx, id, SYSTEM_ACTOR);
    await this.#closeVisit(tx, appointmentIds, 'cancelled');
  }

  async #closeVisit(tx: Executor, appointmentIds: string[], reason: 'cancelled' | 'provider-ended'): Promise<void> {
    for (const appointmentId of appointmentIds) {
      await sendVideoMessage(tx, { appointmentId, to: 'all' }, { type: 'ended', reason });
    }
    await tx
      .update(videoParticipants)
      .set({ connectionId: null })
      .where(and(inArray(videoParticipants.appointmentId, appointmentIds), isNotNull(videoParticipants.connectionId)));
    await announceWaiting(tx, this.#now(), this.#keyring, appointmentIds);
  }

  /** A join by someone the visit does not know: logged, and recorded as an attempt out of reach. */
  #refuseStranger(scope: ActorScope, appointmentId: string | null, reason: string): Promise<void> {
    this.#log.warn({ appointmentId }, 'video: a join was refused');
    return scope.audit(
      this.#db,
      'UNAUTHORIZED_ACCESS',
      { permission: 'visit:join:own', reason, appointmentIds: appointmentId ? [appointmentId] : [] },
      { level: 'WARNING' },
    );
  }
}

function roleOf(appointment: VisitAppointment, userId: string | null): VideoRole | null {
  if (userId === null) return null;
  if (appointment.providerId === userId) return 'provider';
  if (appointment.patientAccountId === userId) return 'patient';
  return null;
}

function peerOf(row: Pick<ParticipantRow, 'peerId' | 'displayName' | 'role' | 'presence'>): VideoPeer {
  return { peerId: row.peerId, name: row.displayName, role: row.role, presence: row.presence };
}
