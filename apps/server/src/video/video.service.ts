import {
  appointmentIdOfRoom,
  ERROR_CODES,
  VIDEO_MAX_PARTICIPANTS,
  VideoTokenRequestSchema,
  videoRoomName,
  zonedDateTime,
  type VideoIceServer,
  type VideoRefusal,
  type VideoRole,
  type VideoWaitingEntry,
} from '@telehealth/shared';
import { authorize, type Reach } from '../access/authorize.ts';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { AppointmentsService } from '../appointments/appointments.service.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import { AppError, parseInput } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { VideoConsentGate } from './consent-gate.ts';
import { findVisitAppointment, type VisitAppointment } from './video.repository.ts';
import { turnCredentials, VideoTokens } from './video-tokens.ts';
import { visitClosedReason, visitWindow } from './visit-access.ts';
import { TOKEN_SECONDS, type VideoVisitView, type VisitRules } from './visit-view.ts';
import { findWaitingEntries } from './waiting-room.ts';

export type { VideoVisitView };

/**
 * Video visits (decision 026): who may join an appointment's visit and when, its join screen, the short-lived
 * tokens and the servers that carry the call, and the provider's waiting room. The visit's rules (`VisitRules`:
 * its window and refusals) are here; the guests (video-guests.ts) and the signalling socket (video-signalling.ts)
 * use them and the tokens made here.
 */
export class VideoService implements VisitRules {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #config: Config;
  readonly #appointments: AppointmentsService;
  readonly #consent: VideoConsentGate;
  readonly #now: () => Date;
  readonly tokens: VideoTokens;

  constructor(options: {
    db: Database;
    keyring: Keyring;
    config: Config;
    secret: string;
    appointments: AppointmentsService;
    consent: VideoConsentGate;
    now?: () => Date;
  }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#config = options.config;
    this.#appointments = options.appointments;
    this.#consent = options.consent;
    this.#now = options.now ?? (() => new Date());
    this.tokens = new VideoTokens(options.secret, this.#now);
  }

  /** The visit of an appointment, for its join screen. Only the appointment's provider and patient. */
  async visit(caller: Caller, appointmentId: string): Promise<VideoVisitView> {
    const appointment = await this.#reachableVisit(caller, appointmentId);
    await scopeOf(this.#db, caller).audit(this.#db, 'APPOINTMENT_VIEW', {
      appointmentIds: [appointment.id],
      patientIds: [appointment.patientId],
    });
    return this.view(caller, appointment);
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
    const view = this.view(caller, appointment);
    if (view.closedReason) {
      await scopeOf(this.#db, caller).audit(this.#db, 'VIDEO_JOIN_REFUSED', {
        appointmentIds: [appointment.id],
        reason: view.closedReason,
      });
      throw this.closed(view.closedReason, view);
    }
    // The patient's own consent (decision 069): refused before any token, and nothing else is written.
    if (view.role === 'patient' && (await this.#consent.blocks(appointment.patientId))) {
      await scopeOf(this.#db, caller).audit(this.#db, 'VIDEO_JOIN_REFUSED', {
        appointmentIds: [appointment.id],
        patientIds: [appointment.patientId],
        reason: 'consentRequired',
      });
      throw this.closed('consentRequired', view);
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
    return findWaitingEntries(this.#db, caller.user.id, this.#now(), this.#keyring);
  }

  // -- the rules --------------------------------------------------------------------------------------------

  /** The visit as the caller (its provider or its patient) sees it. */
  view(caller: Caller, appointment: VisitAppointment): VideoVisitView {
    return this.viewFor(appointment.providerId === caller.user.id ? 'provider' : 'patient', appointment);
  }

  /** The visit as one role sees it: its window, and whether it is open to that role now. */
  viewFor(role: VideoRole, appointment: VisitAppointment): VideoVisitView {
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

  /** The error of a visit closed to the caller, with what its message says (minutes, the opening time). */
  closed(reason: VideoRefusal, view: VideoVisitView): AppError {
    const params: Record<string, string | number> = {};
    if (reason === 'tooEarly') {
      params['minutes'] = Math.round((view.startsAt.getTime() - view.opensAt.getTime()) / 60_000);
      params['opensAt'] = zonedDateTime(view.opensAt, this.#appointments.timeZone).time;
    }
    if (reason === 'tooLate') params['minutes'] = this.#config.video.joinLateMinutes;
    if (reason === 'roomFull') params['max'] = VIDEO_MAX_PARTICIPANTS;
    return new AppError(ERROR_CODES.videoClosed, `videoMessages.${reason}`, params, { reason });
  }

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
}
