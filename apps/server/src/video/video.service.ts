import { randomUUID } from 'node:crypto';
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  appointmentIdOfRoom,
  ERROR_CODES,
  VIDEO_MAX_PARTICIPANTS,
  VideoTokenRequestSchema,
  videoRoomName,
  zonedDateTime,
  type VideoIceServer,
  type VideoPeer,
  type VideoRefusal,
  type VideoRole,
  type VideoWaitingEntry,
} from '@telehealth/shared';
import { authorize, type Reach } from '../access/authorize.ts';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type {
  AppointmentChange,
  AppointmentListener,
  AppointmentsService,
} from '../appointments/appointments.service.ts';
import { appendAuditEntry, SYSTEM_ACTOR, type AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { videoParticipants } from './video.table.ts';
import type { MailService } from '../mail/mail.service.ts';
import { visitClosedReason, visitWindow } from './visit-access.ts';
import { AppError, parseInput } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import {
  findVisitAppointment,
  findWaiting,
  isPresent,
  listParticipants,
  PRESENCE_STALE_MS,
  saveParticipant,
  type ParticipantRow,
  type VisitAppointment,
} from './video.repository.ts';
import { publishToUsers } from '../live/live-events.ts';
import type { RecordingsService } from './recordings.service.ts';
import { sendVideoMessage } from './video-relay.ts';
import { turnCredentials, VideoTokens } from './video-tokens.ts';
import type { JoinedConnection } from './joined-connection.ts';
import { isUuid } from '../db/ids.ts';
import { VideoGuests } from './video-guests.ts';
import { TOKEN_SECONDS, type VideoVisitView } from './visit-view.ts';
import { ADVISORY_LOCK_CLASSES } from '../db/advisory-locks.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** At most this many waiting people in one live message (a NOTIFY payload stays under 8,000 bytes). */
const WAITING_SENT_MAX = 20;

export interface VideoServiceOptions {
  db: Database;
  keyring: Keyring;
  config: Config;
  secret: string;
  appointments: AppointmentsService;
  recordings: RecordingsService;
  mail: MailService;
  log: Log;
  now?: () => Date;
}

export type { JoinedConnection, VideoVisitView };

export type JoinResult = { ok: true; joined: JoinedConnection } | { ok: false; reason: VideoRefusal };

/**
 * Video visits (decision 026): who may join an appointment's visit and when, the short-lived tokens, the
 * waiting room and admission, and the appointment's steps (checked-in, in-progress, completed). Signalling
 * itself goes through `video_signals` (video-relay.ts), so the people of one call may sit on different
 * instances. Also an appointment listener: cancelling an appointment closes its visit at once.
 */
export class VideoService implements AppointmentListener {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #config: Config;
  readonly #appointments: AppointmentsService;
  readonly #recordings: RecordingsService;
  readonly #log: Log;
  readonly #now: () => Date;
  readonly tokens: VideoTokens;
  readonly #guests: VideoGuests;

  constructor(options: VideoServiceOptions) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#config = options.config;
    this.#appointments = options.appointments;
    this.#recordings = options.recordings;
    this.#log = options.log;
    this.#now = options.now ?? (() => new Date());
    this.tokens = new VideoTokens(options.secret, this.#now);
    this.#guests = new VideoGuests({
      ...options,
      now: this.#now,
      tokens: this.tokens,
      rules: {
        view: (caller, appointment) => this.#view(caller, appointment),
        viewFor: (role, appointment) => this.#viewFor(role, appointment),
        closed: (reason, view) => this.#closed(reason, view),
        auditRefusal: (actor, url, appointment, reason) => this.#auditRefusal(actor, url, appointment, reason),
        iceServers: (peerId) => this.iceServers(peerId),
      },
    });
  }

  // -- GraphQL ----------------------------------------------------------------------------------------------

  /** The visit of an appointment, for its join screen. Only the appointment's provider and patient. */
  async visit(caller: Caller, appointmentId: string): Promise<VideoVisitView> {
    const appointment = await this.#reachableVisit(caller, appointmentId);
    await appendAuditEntry(this.#db, {
      event: 'APPOINTMENT_VIEW',
      level: 'INFO',
      actor: caller.actor,
      url: caller.operation,
      details: { appointmentIds: [appointment.id], patientIds: [appointment.patientId] },
    });
    return this.#view(caller, appointment);
  }

  /**
   * The specification's token request: identity (the name given) and room in, a token out, bound to the
   * appointment, the person and the join window (at most 10 minutes). Refusals are audited.
   */
  async requestToken(caller: Caller, input: unknown) {
    const { identity, room } = parseInput(VideoTokenRequestSchema, input);
    const appointmentId = appointmentIdOfRoom(this.#config.video.roomPrefix, room);
    if (!appointmentId || !isUuid(appointmentId)) throw new AppError(ERROR_CODES.badUserInput, 'videoMessages.badRoom');
    const appointment = await this.#reachableVisit(caller, appointmentId);
    const view = this.#view(caller, appointment);
    if (view.closedReason) {
      await this.#auditRefusal(caller.actor, caller.operation, appointment, view.closedReason);
      throw this.#closed(view.closedReason, view);
    }
    const now = Math.floor(this.#now().getTime() / 1000);
    const expiresAt = now + TOKEN_SECONDS;
    const peerId = this.tokens.peerIdOf(appointment.id, caller.user.id);
    const token = this.tokens.sign({
      appointmentId: appointment.id,
      peerId,
      userId: caller.user.id,
      guestId: null,
      role: view.role,
      name: identity,
      expiresAt,
    });
    return {
      token,
      room,
      peerId,
      role: view.role,
      expiresAt: new Date(expiresAt * 1000),
      iceServers: this.iceServers(peerId),
    };
  }

  /** The STUN and TURN servers for one person; TURN with coturn's time-limited credentials. */
  iceServers(peerId: string): VideoIceServer[] {
    const { stunUrls, turnUrls, turnSecret } = this.#config.video;
    const servers: VideoIceServer[] = [];
    if (stunUrls.length > 0) servers.push({ urls: stunUrls });
    if (turnUrls.length > 0 && turnSecret) {
      const expiresAt = Math.floor(this.#now().getTime() / 1000) + 12 * 3600;
      servers.push({ urls: turnUrls, ...turnCredentials(turnSecret, peerId, expiresAt) });
    }
    return servers;
  }

  /** The people waiting in the caller's visits (a provider's dashboard, calendar and call page). */
  async waiting(caller: Caller): Promise<VideoWaitingEntry[]> {
    await authorize(this.#db, caller, 'visit:join');
    if (caller.user.role !== 'provider') return [];
    return this.#waitingOf(this.#db, caller.user.id);
  }

  async #waitingOf(db: Executor, providerId: string): Promise<VideoWaitingEntry[]> {
    const since = new Date(this.#now().getTime() - PRESENCE_STALE_MS);
    const rows = await findWaiting(db, providerId, since, this.#keyring);
    return rows.map((r) => ({
      appointmentId: r.participant.appointmentId,
      peerId: r.participant.peerId,
      name: r.participant.displayName,
      role: r.participant.role,
      since: r.participant.joinedAt.toISOString(),
      patientName: `${r.patientFirstName} ${r.patientLastName}`,
      startsAt: r.startsAt.toISOString(),
    }));
  }

  /** Tells the visits' providers, on their live channels, who waits now (inside the change's transaction). */
  async #announceWaiting(tx: Executor, appointmentIds: string[]): Promise<void> {
    const rows = await tx.execute<{ provider_id: string }>(
      sql`SELECT DISTINCT provider_id FROM appointments WHERE id = ANY(${sql.param(appointmentIds)}::uuid[])`,
    );
    for (const { provider_id: providerId } of rows.rows) {
      const waiting = await this.#waitingOf(tx, providerId);
      await publishToUsers(tx, [providerId], { type: 'video-waiting', waiting: waiting.slice(0, WAITING_SENT_MAX) });
    }
  }

  // -- guests ---------------------------------------------------------------------------------------------

  /** The provider invites a guest to a visit (VideoGuests.invite). */
  inviteGuest(caller: Caller, input: unknown) {
    return this.#guests.inviteGuest(caller, input);
  }

  guests(caller: Caller, appointmentId: string) {
    return this.#guests.guests(caller, appointmentId);
  }

  guestVisit(guestToken: string): Promise<VideoVisitView> {
    return this.#guests.guestVisit(guestToken);
  }

  requestGuestToken(input: { guestToken: string; identity: unknown }, actor: AuditActor) {
    return this.#guests.requestGuestToken(input, actor);
  }

  // -- the signalling socket --------------------------------------------------------------------------------

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
    const grant = this.tokens.verify(options.token);
    const guest = grant?.guestId ? await this.#guests.activeGuest(grant.guestId) : null;
    const genuine =
      grant !== null &&
      (options.sessionUserId === null
        ? grant.role === 'guest' && guest?.appointmentId === grant.appointmentId
        : grant.role !== 'guest' && grant.userId === options.sessionUserId);
    if (!grant || !genuine) {
      await this.#auditStranger(
        options.actor,
        grant?.appointmentId ?? null,
        'token invalid, revoked or not the session’s',
      );
      return { ok: false, reason: 'tokenInvalid' };
    }
    const appointment = await findVisitAppointment(this.#db, grant.appointmentId);
    if (!appointment) return { ok: false, reason: 'notFound' };
    const role = grant.role === 'guest' ? 'guest' : roleOf(appointment, grant.userId);
    if (!role) {
      await this.#auditStranger(options.actor, appointment.id, 'not the appointment’s provider or patient');
      return { ok: false, reason: 'notYourVisit' };
    }
    const refusal = visitClosedReason(appointment, role, this.#config.video, this.#now());
    if (refusal) {
      await this.#auditRefusal(options.actor, 'videoSignal', appointment, refusal);
      return { ok: false, reason: refusal };
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
      await appendAuditEntry(tx, {
        event: 'VIDEO_JOIN',
        level: 'INFO',
        actor: options.actor,
        url: 'videoSignal',
        details: { appointmentIds: [appointment.id], patientIds: [appointment.patientId], role, presence, resumed },
      });
      if (role !== 'provider') await this.#announceWaiting(tx, [appointment.id]);
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
  async admit(by: JoinedConnection, peerId: string): Promise<'ok' | 'PROVIDER_ONLY' | 'UNKNOWN_PEER'> {
    if (by.grant.role !== 'provider') return 'PROVIDER_ONLY';
    const appointmentId = by.grant.appointmentId;
    const now = this.#now();
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
      await appendAuditEntry(tx, {
        event: 'VIDEO_ADMIT',
        level: 'INFO',
        actor: by.actor,
        url: 'videoSignal',
        details: { appointmentIds: [appointmentId], role: target.role },
      });
      await this.#announceWaiting(tx, [appointmentId]);
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
      await appendAuditEntry(tx, {
        event: 'VIDEO_END',
        level: 'INFO',
        actor: by.actor,
        url: 'videoSignal',
        details: { appointmentIds: [appointmentId] },
      });
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
      await this.#announceWaiting(tx, [from.grant.appointmentId]);
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
        await this.#announceWaiting(tx, [from.grant.appointmentId]);
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

  /** A person's answer to a recording request, from their signalling socket. */
  consent(from: JoinedConnection, recordingId: string, agree: boolean): Promise<boolean> {
    return this.#recordings.consent(from, recordingId, agree);
  }

  // -- the rules --------------------------------------------------------------------------------------------

  async #reachableVisit(caller: Caller, appointmentId: string): Promise<VisitAppointment> {
    const reach: Reach<'visit'> = await authorize(this.#db, caller, 'visit:join');
    // Another's visit is answered like a missing appointment (issue 24): no answer tells it from an id never given.
    return scopeOf(this.#db, caller).find('visit:join', appointmentId, {
      load: findVisitAppointment,
      within: (appointment) =>
        reach.kind === 'any' ||
        (reach.field === 'providerId' ? appointment.providerId : appointment.patientAccountId) === reach.callerId,
      missing: 'videoMessages.notFound',
      denial: { appointmentIds: [appointmentId] },
    });
  }

  #view(caller: Caller, appointment: VisitAppointment): VideoVisitView {
    return this.#viewFor(appointment.providerId === caller.user.id ? 'provider' : 'patient', appointment);
  }

  #viewFor(role: VideoRole, appointment: VisitAppointment): VideoVisitView {
    const { opensAt, closesAt } = visitWindow(appointment, role, this.#config.video);
    return {
      appointmentId: appointment.id,
      room: videoRoomName(this.#config.video.roomPrefix, appointment.id),
      role,
      status: appointment.status,
      appointmentType: appointment.appointmentType,
      startsAt: appointment.startsAt,
      endsAt: appointment.endsAt,
      opensAt,
      closesAt,
      closedReason: visitClosedReason(appointment, role, this.#config.video, this.#now()),
      providerName: appointment.providerName,
      patientName: appointment.patientName,
      // For the end screen's "Write the note", which opens the chart: only to the provider whose chart it is.
      patientId:
        role === 'provider' && appointment.patientOwnerId === appointment.providerId ? appointment.patientId : null,
    };
  }

  #closed(reason: VideoRefusal, view: VideoVisitView): AppError {
    const params: Record<string, string | number> = {};
    if (reason === 'tooEarly') {
      params['minutes'] = Math.round((view.startsAt.getTime() - view.opensAt.getTime()) / 60_000);
      params['opensAt'] = zonedDateTime(view.opensAt, this.#appointments.timeZone).time;
    }
    if (reason === 'tooLate') params['minutes'] = this.#config.video.joinLateMinutes;
    if (reason === 'roomFull') params['max'] = VIDEO_MAX_PARTICIPANTS;
    return new AppError(ERROR_CODES.videoClosed, `videoMessages.${reason}`, params, { reason });
  }

  async #closeVisit(tx: Executor, appointmentIds: string[], reason: 'cancelled' | 'provider-ended'): Promise<void> {
    for (const appointmentId of appointmentIds) {
      await sendVideoMessage(tx, { appointmentId, to: 'all' }, { type: 'ended', reason });
    }
    await tx
      .update(videoParticipants)
      .set({ connectionId: null })
      .where(and(inArray(videoParticipants.appointmentId, appointmentIds), isNotNull(videoParticipants.connectionId)));
    await this.#announceWaiting(tx, appointmentIds);
  }

  #auditRefusal(actor: AuditActor, url: string, appointment: VisitAppointment, reason: VideoRefusal) {
    return appendAuditEntry(this.#db, {
      event: 'VIDEO_JOIN_REFUSED',
      level: 'INFO',
      actor,
      url,
      details: { appointmentIds: [appointment.id], reason },
    });
  }

  #auditStranger(actor: AuditActor, appointmentId: string | null, reason: string) {
    this.#log.warn({ appointmentId }, 'video: a join was refused');
    return appendAuditEntry(this.#db, {
      event: 'UNAUTHORIZED_ACCESS',
      level: 'WARNING',
      actor,
      url: 'videoSignal',
      details: { permission: 'visit:join:own', reason, appointmentIds: appointmentId ? [appointmentId] : [] },
    });
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
