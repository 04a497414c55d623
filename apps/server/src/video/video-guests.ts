import { randomUUID } from 'node:crypto';
import { and, eq, isNull, sql } from 'drizzle-orm';
import {
  ERROR_CODES,
  InviteVideoGuestInputSchema,
  videoGuestPath,
  VideoNameSchema,
  VIDEO_MAX_PARTICIPANTS,
} from '@telehealth/shared';
import type { Caller } from '../access/caller.ts';
import { actorScope, scopeOf } from '../access/scope.ts';
import type { AppointmentsService } from '../appointments/appointments.service.ts';
import { formatWhen } from '../appointments/appointment-notifications.ts';
import { hashLinkToken, newLinkToken } from '../auth/account-tokens.ts';
import type { AuditActor } from '../audit/audit.repository.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import { ADVISORY_LOCK_CLASSES } from '../db/advisory-locks.ts';
import { AppError, notFound, parseInput } from '../errors.ts';
import { videoGuestsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { MailService } from '../mail/mail.service.ts';
import { videoGuestMail } from '../mail/templates.ts';
import { videoGuests } from './video.table.ts';
import { findVisitAppointment } from './video.repository.ts';
import { requireVisitProvider } from './visit-access.ts';
import { TOKEN_SECONDS, type VideoVisitView, type VisitRules } from './visit-view.ts';
import type { VideoTokens } from './video-tokens.ts';

/**
 * A visit's guests (a family member, a second clinician): the provider's invitation by e-mail, the list, and
 * the guest's own link and token (`ctx.videoGuests`). The rules of the visit (window, refusal) are VideoService's
 * and come in as `rules`; a guest has no session, so a refusal is recorded with the request's actor (`actorScope`).
 */
export class VideoGuests {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #config: Config;
  readonly #appointments: AppointmentsService;
  readonly #mail: MailService;
  readonly #now: () => Date;
  readonly #tokens: VideoTokens;
  readonly #rules: VisitRules;

  constructor(options: {
    db: Database;
    keyring: Keyring;
    config: Config;
    appointments: AppointmentsService;
    mail: MailService;
    now?: () => Date;
    tokens: VideoTokens;
    rules: VisitRules;
  }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#config = options.config;
    this.#appointments = options.appointments;
    this.#mail = options.mail;
    this.#now = options.now ?? (() => new Date());
    this.#tokens = options.tokens;
    this.#rules = options.rules;
  }

  /**
   * The provider invites a family member or a second clinician by e-mail: a link for this visit only, whose
   * holder joins as a guest and waits to be let in. At most VIDEO_MAX_PARTICIPANTS people in all.
   */
  async inviteGuest(caller: Caller, input: unknown) {
    const data = parseInput(InviteVideoGuestInputSchema, input);
    const appointment = await requireVisitProvider(this.#db, caller, data.appointmentId, 'videoMessages.providerOnly');
    const view = this.#rules.view(caller, appointment);
    if (view.closedReason && view.closedReason !== 'tooEarly') throw this.#rules.closed(view.closedReason, view);
    const token = newLinkToken();
    const id = randomUUID();
    await this.#db.transaction(async (tx) => {
      await tx.execute(
        sql`SELECT pg_advisory_xact_lock(${ADVISORY_LOCK_CLASSES.videoVisit}, hashtext(${appointment.id}))`,
      );
      const [{ n } = { n: 0 }] = await tx
        .select({ n: sql<number>`count(*)::int` })
        .from(videoGuests)
        .where(and(eq(videoGuests.appointmentId, appointment.id), isNull(videoGuests.revokedAt)));
      // The provider and the patient, and the guests: at most VIDEO_MAX_PARTICIPANTS.
      if (n >= VIDEO_MAX_PARTICIPANTS - 2) {
        throw new AppError(ERROR_CODES.badUserInput, 'videoMessages.guestsFull', { max: VIDEO_MAX_PARTICIPANTS });
      }
      await tx.insert(videoGuests).values(
        videoGuestsEncrypted.seal(this.#keyring, id, {
          id,
          appointmentId: appointment.id,
          invitedBy: caller.user.id,
          name: data.name,
          email: data.email,
          tokenHash: hashLinkToken(token),
        }),
      );
      const language = data.language;
      await this.#mail.enqueue(tx, [
        {
          to: data.email,
          kind: 'video-guest-invitation',
          language,
          content: videoGuestMail(this.#mail.context, language, {
            guestName: data.name,
            providerName: appointment.providerName,
            when: formatWhen(appointment.startsAt, this.#appointments.timeZone, language),
            link: `${this.#config.publicUrl}${videoGuestPath(appointment.id)}#${token}`,
          }),
        },
      ]);
      await scopeOf(this.#db, caller).audit(tx, 'VIDEO_GUEST_INVITED', {
        appointmentIds: [appointment.id],
        guestId: id,
      });
    });
    return { id, name: data.name, email: data.email };
  }

  /** The guests invited to a visit (its provider). */
  async guests(caller: Caller, appointmentId: string) {
    const appointment = await requireVisitProvider(this.#db, caller, appointmentId, 'videoMessages.providerOnly');
    const rows = await this.#db
      .select()
      .from(videoGuests)
      .where(and(eq(videoGuests.appointmentId, appointment.id), isNull(videoGuests.revokedAt)))
      .orderBy(videoGuests.createdAt);
    return rows.map((row) => videoGuestsEncrypted.open(this.#keyring, row));
  }

  /** A guest's link opened: the visit's window (no patient name: the guest may be a second clinician). */
  async guestVisit(guestToken: string): Promise<VideoVisitView> {
    const { appointment } = await this.#guestByToken(guestToken);
    return { ...this.#rules.viewFor('guest', appointment), patientName: '' };
  }

  /** A guest's token request: the same shape, the invitation's token instead of a session. */
  async requestGuestToken(input: { guestToken: string; identity: unknown }, actor: AuditActor) {
    const identity = parseInput(VideoNameSchema, input.identity);
    const { guest, appointment } = await this.#guestByToken(input.guestToken);
    const view = this.#rules.viewFor('guest', appointment);
    if (view.closedReason) {
      await actorScope(actor, 'requestGuestVideoToken').audit(this.#db, 'VIDEO_JOIN_REFUSED', {
        appointmentIds: [appointment.id],
        reason: view.closedReason,
      });
      throw this.#rules.closed(view.closedReason, view);
    }
    const expiresAt = Math.floor(this.#now().getTime() / 1000) + TOKEN_SECONDS;
    const peerId = this.#tokens.peerIdOf(appointment.id, `guest:${guest.id}`);
    const token = this.#tokens.sign({
      appointmentId: appointment.id,
      peerId,
      userId: null,
      guestId: guest.id,
      role: 'guest',
      name: identity,
      expiresAt,
    });
    return {
      token,
      room: view.room,
      peerId,
      role: 'guest' as const,
      expiresAt: new Date(expiresAt * 1000),
      iceServers: this.#rules.iceServers(peerId),
    };
  }

  async #guestByToken(guestToken: string) {
    const [guest] =
      typeof guestToken === 'string' && guestToken.length >= 20 && guestToken.length <= 100
        ? await this.#db
            .select({ id: videoGuests.id, appointmentId: videoGuests.appointmentId })
            .from(videoGuests)
            .where(and(eq(videoGuests.tokenHash, hashLinkToken(guestToken)), isNull(videoGuests.revokedAt)))
        : [];
    const appointment = guest ? await findVisitAppointment(this.#db, guest.appointmentId) : undefined;
    if (!guest || !appointment) throw notFound('videoMessages.guestLinkInvalid');
    return { guest, appointment };
  }

  /** The guest with this id, unless its invitation was withdrawn. */
  async activeGuest(guestId: string) {
    const [guest] = isUuid(guestId)
      ? await this.#db
          .select({ id: videoGuests.id, appointmentId: videoGuests.appointmentId })
          .from(videoGuests)
          .where(and(eq(videoGuests.id, guestId), isNull(videoGuests.revokedAt)))
      : [];
    return guest ?? null;
  }
}
