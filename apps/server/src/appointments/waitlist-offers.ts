import { and, asc, eq, gt, inArray, isNull, lt, ne, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import {
  clinicContactMessage,
  ERROR_CODES,
  SLOT_HOLDING_STATUSES,
  suitsTimeOfDay,
  WAITLIST_OFFER_VALID_MINUTES,
  WAITLIST_OFFERS_PER_SLOT,
  zonedDateTime,
  type Locale,
  type WaitlistTimeOfDay,
} from '@telehealth/shared';
import type { PublicCaller } from '../access/caller.ts';
import { hashLinkToken, newLinkToken } from '../auth/account-tokens.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { ADVISORY_LOCK_CLASSES } from '../db/advisory-locks.ts';
import { AppError } from '../errors.ts';
import { waitlistEntriesEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { MailService, OutgoingMail } from '../mail/mail.service.ts';
import { waitlistGoneMail, waitlistOfferMail } from '../mail/templates.ts';
import { patientRecords } from '../patients/patients.repository.ts';
import { providers } from '../providers/providers.table.ts';
import { userLanguageOrNullOf } from '../users/users.repository.ts';
import { formatWhen } from './appointment-notifications.ts';
import { AppointmentsService } from './appointments.service.ts';
import { appointments, waitlistEntries, waitlistOffers } from './appointments.table.ts';
import { weekdayOf } from './schedule.ts';

export type Log = Pick<FastifyBaseLogger, 'info' | 'warn'>;

const patient = patientRecords('patient');

/** No offer for a time that starts this soon: nobody could plan for it. */
const OFFER_LEAD_MINUTES = 60;

/**
 * The waitlist's offers (decision 025): the `waitlist:offer` job that offers a freed time to the first matching
 * waiting patients by an e-mailed link, and the public side of that link: what it offers, and claiming it (the
 * appointment booked atomically, the others told the time is gone). Built by WaitlistService, which passes its
 * calls through; a claim is a public caller's, without a session.
 */
export class WaitlistOffers {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #mail: MailService;
  readonly #config: Config;
  readonly #appointments: AppointmentsService;
  readonly #log: Log;

  constructor(options: {
    db: Database;
    keyring: Keyring;
    mail: MailService;
    config: Config;
    appointments: AppointmentsService;
    log: Log;
  }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#mail = options.mail;
    this.#config = options.config;
    this.#appointments = options.appointments;
    this.#log = options.log;
  }

  /** An offer link that leads nowhere: the person is sent to the practice, by phone when it has one (decision 048). */
  #offerNotFound(): AppError {
    const { id, params } = clinicContactMessage('appointmentMessages.offerNotFound', this.#appointments.clinicPhone());
    return new AppError(ERROR_CODES.notFound, id, params);
  }

  /** The time was taken or the offer expired. */
  #offerGone(): AppError {
    const { id, params } = clinicContactMessage('appointmentMessages.offerGone', this.#appointments.clinicPhone());
    return new AppError(ERROR_CODES.badUserInput, id, params, { reason: 'gone' });
  }

  /** The `waitlist:offer` job: offers a freed time to the first matching waiting patients. */
  async offerFreedSlot(slot: { providerId: string; startsAt: Date; endsAt: Date }): Promise<number> {
    const zone = this.#config.settings.current().timeZone;
    const { date, time } = zonedDateTime(slot.startsAt, zone);
    const length = (slot.endsAt.getTime() - slot.startsAt.getTime()) / 60_000;
    if (slot.startsAt.getTime() < Date.now() + OFFER_LEAD_MINUTES * 60_000) return 0;
    return this.#db.transaction(async (tx) => {
      // One offer round per provider at a time: two freed slots of one provider never race for an entry.
      await tx.execute(
        sql`SELECT pg_advisory_xact_lock(${ADVISORY_LOCK_CLASSES.waitlistOffer}, hashtext(${slot.providerId}))`,
      );
      const candidates = await tx
        .select({ entry: waitlistEntries, email: patient.email, language: userLanguageOrNullOf(patient.accountId) })
        .from(waitlistEntries)
        .innerJoin(patient, eq(patient.id, waitlistEntries.patientId))
        .where(
          and(
            eq(waitlistEntries.providerId, slot.providerId),
            eq(waitlistEntries.status, 'waiting'),
            isNull(patient.deletedAt),
            sql`${waitlistEntries.fromDate} <= ${date}::date AND ${waitlistEntries.toDate} >= ${date}::date`,
            sql`${weekdayOf(date)} = ANY(${waitlistEntries.weekdays})`,
            sql`${waitlistEntries.duration} <= ${length}`,
          ),
        )
        .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id));
      const chosen: typeof candidates = [];
      for (const candidate of candidates) {
        if (chosen.length >= WAITLIST_OFFERS_PER_SLOT) break;
        if (!suitsTimeOfDay(time, candidate.entry.timeOfDay as WaitlistTimeOfDay)) continue;
        const endsAt = new Date(slot.startsAt.getTime() + candidate.entry.duration * 60_000);
        if (!(await this.#isFree(tx, slot.providerId, candidate.entry.patientId, slot.startsAt, endsAt))) continue;
        chosen.push(candidate);
      }
      if (chosen.length === 0) return 0;
      const [provider] = await tx
        .select({ firstName: providers.firstName, lastName: providers.lastName })
        .from(providers)
        .where(eq(providers.id, slot.providerId));
      const providerName = `${provider?.firstName ?? ''} ${provider?.lastName ?? ''}`.trim();
      const expiresAt = new Date(
        Math.min(Date.now() + WAITLIST_OFFER_VALID_MINUTES * 60_000, slot.startsAt.getTime() - 30 * 60_000),
      );
      const mails: OutgoingMail[] = [];
      let offered = 0;
      for (const { entry, email, language } of chosen) {
        const token = newLinkToken();
        const inserted = await tx
          .insert(waitlistOffers)
          .values({
            entryId: entry.id,
            providerId: slot.providerId,
            startsAt: slot.startsAt,
            endsAt: new Date(slot.startsAt.getTime() + entry.duration * 60_000),
            tokenHash: hashLinkToken(token),
            expiresAt,
          })
          .onConflictDoNothing()
          .returning({ id: waitlistOffers.id });
        if (inserted.length === 0) continue;
        offered++;
        const locale: Locale = language === 'es' ? 'es' : 'en';
        mails.push({
          to: email,
          kind: 'waitlist-offer',
          language: locale,
          content: waitlistOfferMail(this.#mail.context, locale, {
            when: formatWhen(slot.startsAt, zone, locale),
            providerName,
            // In the fragment, like an invitation's: never sent to the server, so never in a log line.
            link: `${this.#config.publicUrl}/waitlist/offer#${token}`,
            validUntil: formatWhen(expiresAt, zone, locale),
          }),
        });
      }
      await this.#mail.enqueue(tx, mails);
      this.#log.info({ providerId: slot.providerId, offered }, 'waitlist offers queued');
      return offered;
    });
  }

  /** Public: what an offer's link offers, and whether it can still be claimed. */
  async offer(token: string) {
    const [row] = await this.#db
      .select({
        offer: waitlistOffers,
        entryStatus: waitlistEntries.status,
        appointmentType: waitlistEntries.appointmentType,
        providerFirstName: providers.firstName,
        providerLastName: providers.lastName,
      })
      .from(waitlistOffers)
      .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistOffers.entryId))
      .innerJoin(providers, eq(providers.id, waitlistOffers.providerId))
      .where(eq(waitlistOffers.tokenHash, hashLinkToken(token)));
    if (!row) throw this.#offerNotFound();
    const open = row.offer.status === 'open' && row.offer.expiresAt > new Date() && row.entryStatus === 'waiting';
    const at = zonedDateTime(row.offer.startsAt, this.#config.settings.current().timeZone);
    return {
      status: row.offer.status === 'claimed' ? 'claimed' : open ? 'open' : 'gone',
      providerName: `${row.providerFirstName} ${row.providerLastName}`,
      date: at.date,
      time: at.time,
      duration: (row.offer.endsAt.getTime() - row.offer.startsAt.getTime()) / 60_000,
      appointmentType: row.appointmentType,
      expiresAt: row.offer.expiresAt,
      timeZone: this.#config.settings.current().timeZone,
    };
  }

  /**
   * Public: claims an offer by its link. The appointment, the claimed offer, the entry booked and the other
   * offers of the time gone: one transaction. Claims of one provider's offers wait for each other, so the
   * second finds its offer gone; a booking by staff in between is caught by the exclusion constraints, and that
   * claim's transaction rolls back whole and is told the time is gone.
   */
  async claim(caller: PublicCaller, token: string): Promise<{ date: string; time: string }> {
    const hash = hashLinkToken(token);
    try {
      return await this.#db.transaction(async (tx) => {
        // Claims of one provider's times one at a time: the winner marks the others' offers gone while they
        // wait here, rather than each holding its own offer and waiting for the other's insert (a deadlock).
        const [target] = await tx
          .select({ providerId: waitlistOffers.providerId })
          .from(waitlistOffers)
          .where(eq(waitlistOffers.tokenHash, hash));
        if (!target) throw this.#offerNotFound();
        await tx.execute(
          sql`SELECT pg_advisory_xact_lock(${ADVISORY_LOCK_CLASSES.waitlistClaim}, hashtext(${target.providerId}))`,
        );
        const [found] = await tx
          .select({ offer: waitlistOffers, entry: waitlistEntries })
          .from(waitlistOffers)
          .innerJoin(waitlistEntries, eq(waitlistEntries.id, waitlistOffers.entryId))
          .where(eq(waitlistOffers.tokenHash, hash))
          .for('update');
        if (!found) throw this.#offerNotFound();
        const { offer, entry } = found;
        if (offer.status !== 'open' || offer.expiresAt <= new Date() || entry.status !== 'waiting') {
          throw this.#offerGone();
        }
        const reason = waitlistEntriesEncrypted.decryptValue(this.#keyring, entry.id, 'reason', entry.reason);
        const appointmentId = await this.#appointments.bookClaimedOffer(
          tx,
          caller.actor,
          {
            patientId: entry.patientId,
            providerId: offer.providerId,
            startsAt: offer.startsAt,
            endsAt: offer.endsAt,
            duration: entry.duration,
            appointmentType: entry.appointmentType,
            reason,
          },
          { via: 'waitlist', waitlistEntryIds: [entry.id] },
        );
        const now = new Date();
        await tx
          .update(waitlistOffers)
          .set({ status: 'claimed', appointmentId, decidedAt: now })
          .where(eq(waitlistOffers.id, offer.id));
        await tx
          .update(waitlistEntries)
          .set({ status: 'booked', appointmentId, updatedAt: now })
          .where(eq(waitlistEntries.id, entry.id));
        // The others who were offered this time are told it is gone; this patient's other offers end too.
        const others = await tx
          .update(waitlistOffers)
          .set({ status: 'gone', decidedAt: now })
          .where(
            and(
              eq(waitlistOffers.status, 'open'),
              ne(waitlistOffers.id, offer.id),
              sql`(${waitlistOffers.entryId} = ${entry.id} OR (${waitlistOffers.providerId} = ${offer.providerId} AND ${waitlistOffers.startsAt} < ${offer.endsAt.toISOString()}::timestamptz AND ${waitlistOffers.endsAt} > ${offer.startsAt.toISOString()}::timestamptz))`,
            ),
          )
          .returning({ entryId: waitlistOffers.entryId, startsAt: waitlistOffers.startsAt });
        await this.#tellGone(
          tx,
          others.filter((o) => o.entryId !== entry.id),
        );
        return zonedDateTime(offer.startsAt, this.#config.settings.current().timeZone);
      });
    } catch (error) {
      if (!AppointmentsService.conflictOf(error)) throw error;
    }
    // The time was booked otherwise meanwhile: this offer is over.
    await this.#db
      .update(waitlistOffers)
      .set({ status: 'gone', decidedAt: new Date() })
      .where(and(eq(waitlistOffers.tokenHash, hash), eq(waitlistOffers.status, 'open')));
    throw this.#offerGone();
  }

  async #tellGone(tx: Executor, offers: { entryId: string; startsAt: Date }[]): Promise<void> {
    if (offers.length === 0) return;
    const rows = await tx
      .select({ id: waitlistEntries.id, email: patient.email, language: userLanguageOrNullOf(patient.accountId) })
      .from(waitlistEntries)
      .innerJoin(patient, eq(patient.id, waitlistEntries.patientId))
      .where(
        inArray(
          waitlistEntries.id,
          offers.map((o) => o.entryId),
        ),
      );
    const mails: OutgoingMail[] = offers.flatMap((offer) => {
      const row = rows.find((r) => r.id === offer.entryId);
      if (!row) return [];
      const locale: Locale = row.language === 'es' ? 'es' : 'en';
      return [
        {
          to: row.email,
          kind: 'waitlist-gone',
          language: locale,
          content: waitlistGoneMail(this.#mail.context, locale, {
            when: formatWhen(offer.startsAt, this.#config.settings.current().timeZone, locale),
          }),
        },
      ];
    });
    await this.#mail.enqueue(tx, mails);
  }

  /** Whether neither the provider nor the patient holds a slot that overlaps [startsAt, endsAt). */
  async #isFree(tx: Executor, providerId: string, patientId: string, startsAt: Date, endsAt: Date): Promise<boolean> {
    const [busy] = await tx
      .select({ id: appointments.id })
      .from(appointments)
      .where(
        and(
          inArray(appointments.status, [...SLOT_HOLDING_STATUSES]),
          sql`(${appointments.providerId} = ${providerId} OR ${appointments.patientId} = ${patientId})`,
          lt(appointments.startsAt, endsAt),
          gt(appointments.endsAt, startsAt),
        ),
      )
      .limit(1);
    return busy === undefined;
  }
}
