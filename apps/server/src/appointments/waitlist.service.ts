import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull } from 'drizzle-orm';
import { addToWaitlistInputSchema, RecordIdSchema, todayIn } from '@telehealth/shared';
import { scopeOf } from '../access/scope.ts';
import type { Caller, PublicCaller } from '../access/caller.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import { fieldError, notFound, parseInput } from '../errors.ts';
import { addJob } from '../jobs/add-job.ts';
import { waitlistEntriesEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { MailService } from '../mail/mail.service.ts';
import { findVisiblePatient, patientExists, patientRecords } from '../patients/patients.repository.ts';
import { providers } from '../providers/providers.table.ts';
import { isActiveProvider } from '../providers/providers.repository.ts';
import type { AppointmentChange, AppointmentListener, FreedSlot } from './appointment-listener.ts';
import type { AppointmentsService } from './appointments.service.ts';
import { waitlistEntries, waitlistOffers } from './appointments.table.ts';
import { WaitlistOffers, type Log } from './waitlist-offers.ts';

const patient = patientRecords('patient');

export type WaitlistEntryRow = typeof waitlistEntries.$inferSelect & {
  patientFirstName: string;
  patientLastName: string;
  providerFirstName: string;
  providerLastName: string;
};

/**
 * The waitlist (decision 025). Staff put a patient on a provider's waitlist with the days, part of the day and
 * dates that suit them. When a cancellation or a reschedule frees a provider's time, a `waitlist:offer` job
 * offers it to the first matching patients (WAITLIST_OFFERS_PER_SLOT, oldest entry first) by an e-mailed link;
 * the first to claim it gets the appointment, atomically (the exclusion constraints decide a race), and the
 * others are told it is gone. The staff's entries are here; the offers and their links in `waitlist-offers.ts`,
 * whose calls this service passes through.
 */
export class WaitlistService implements AppointmentListener {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #config: Config;
  readonly #offers: WaitlistOffers;

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
    this.#config = options.config;
    this.#offers = new WaitlistOffers(options);
  }

  async appointmentsChanged(
    tx: Executor,
    _change: AppointmentChange,
    _ids: string[],
    freed: FreedSlot[],
  ): Promise<void> {
    for (const slot of freed) {
      await addJob(
        tx,
        'waitlist:offer',
        { providerId: slot.providerId, startsAt: slot.startsAt.toISOString(), endsAt: slot.endsAt.toISOString() },
        {
          jobKey: `waitlist:offer:${slot.providerId}:${slot.startsAt.toISOString()}`,
          delayMs: this.#config.bookingMailGraceSeconds * 1000,
        },
      );
    }
  }

  // -- staff -------------------------------------------------------------------------------------------------

  async add(caller: Caller, input: unknown): Promise<WaitlistEntryRow> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('appointment:create');
    const data = parseInput(addToWaitlistInputSchema(todayIn(this.#config.settings.current().timeZone)), input);
    const providerId = data.providerId ?? (reach.kind === 'own' ? caller.user.id : null);
    if (!providerId) throw fieldError('providerId', 'appointmentMessages.selectProvider');
    await scope.reach('appointment:create', { record: { providerId } });
    if (!isUuid(providerId) || !(await isActiveProvider(this.#db, providerId))) {
      throw fieldError('providerId', 'appointmentMessages.selectProvider');
    }
    const patientReach = await scope.reach('patient:read', { message: 'appointmentMessages.cannotCreate' });
    await scope.find('patient:read', data.patientId, {
      read: (db) => findVisiblePatient(db, data.patientId, patientReach, this.#keyring),
      exists: (db) => patientExists(db, data.patientId),
      missing: () => fieldError('patientId', 'appointmentMessages.selectPatient'),
      denial: { patientIds: [data.patientId] },
    });
    const id = randomUUID();
    await this.#db.transaction(async (tx) => {
      await tx.insert(waitlistEntries).values(
        waitlistEntriesEncrypted.seal(this.#keyring, id, {
          id,
          patientId: data.patientId,
          providerId,
          fromDate: data.fromDate,
          toDate: data.toDate,
          weekdays: data.weekdays,
          timeOfDay: data.timeOfDay,
          duration: data.duration,
          appointmentType: data.appointmentType,
          reason: data.reason,
          createdBy: caller.user.id,
        }),
      );
      await scope.audit(tx, 'APPOINTMENT_CREATE', { waitlistEntryIds: [id], patientIds: [data.patientId] });
    });
    const [row] = await this.#entries(this.#db, eq(waitlistEntries.id, id));
    return row!;
  }

  /** The waiting entries of a provider (the caller's own by default), oldest first. */
  async list(caller: Caller, providerId: string | null | undefined): Promise<WaitlistEntryRow[]> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('appointment:create');
    const id = providerId ? parseInput(RecordIdSchema, providerId) : reach.kind === 'own' ? caller.user.id : null;
    if (id) await scope.reach('appointment:create', { record: { providerId: id } });
    if (id && !isUuid(id)) return [];
    return this.#db.transaction(async (tx) => {
      const rows = await this.#entries(
        tx,
        and(eq(waitlistEntries.status, 'waiting'), id ? eq(waitlistEntries.providerId, id) : undefined),
      );
      await scope.audit(tx, 'APPOINTMENT_VIEW', {
        waitlistEntryIds: rows.map((r) => r.id),
        patientIds: [...new Set(rows.map((r) => r.patientId))],
      });
      return rows;
    });
  }

  async remove(caller: Caller, entryId: string): Promise<WaitlistEntryRow> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('appointment:update');
    const id = parseInput(RecordIdSchema, entryId);
    const [row] = isUuid(id)
      ? await this.#entries(
          this.#db,
          and(
            eq(waitlistEntries.id, id),
            reach.kind === 'own' ? eq(waitlistEntries.providerId, caller.user.id) : undefined,
          ),
        )
      : [];
    if (!row || row.status !== 'waiting') throw notFound('appointmentMessages.waitlistEntryNotFound');
    await this.#db.transaction(async (tx) => {
      await tx
        .update(waitlistEntries)
        .set({ status: 'removed', updatedAt: new Date() })
        .where(eq(waitlistEntries.id, id));
      await tx
        .update(waitlistOffers)
        .set({ status: 'gone', decidedAt: new Date() })
        .where(and(eq(waitlistOffers.entryId, id), eq(waitlistOffers.status, 'open')));
      await scope.audit(tx, 'APPOINTMENT_UPDATE', {
        waitlistEntryIds: [id],
        patientIds: [row.patientId],
        removed: true,
      });
    });
    return { ...row, status: 'removed' };
  }

  // -- offers (waitlist-offers.ts) ----------------------------------------------------------------------------

  /** The `waitlist:offer` job: offers a freed time to the first matching waiting patients. */
  offerFreedSlot(slot: { providerId: string; startsAt: Date; endsAt: Date }): Promise<number> {
    return this.#offers.offerFreedSlot(slot);
  }

  /** Public: what an offer's link offers, and whether it can still be claimed. */
  offer(token: string) {
    return this.#offers.offer(token);
  }

  /** Public: claims an offer by its link (the appointment booked, the others told the time is gone). */
  claim(caller: PublicCaller, token: string): Promise<{ date: string; time: string }> {
    return this.#offers.claim(caller, token);
  }

  async #entries(executor: Executor, where: ReturnType<typeof and>): Promise<WaitlistEntryRow[]> {
    const rows = await executor
      .select({
        entry: waitlistEntries,
        patientFirstName: patient.firstName,
        patientLastName: patient.lastName,
        providerFirstName: providers.firstName,
        providerLastName: providers.lastName,
      })
      .from(waitlistEntries)
      .innerJoin(patient, eq(patient.id, waitlistEntries.patientId))
      .innerJoin(providers, eq(providers.id, waitlistEntries.providerId))
      .where(and(where, isNull(patient.deletedAt)))
      .orderBy(asc(waitlistEntries.createdAt), asc(waitlistEntries.id));
    return rows.map(({ entry, ...names }) => ({ ...waitlistEntriesEncrypted.open(this.#keyring, entry), ...names }));
  }
}
