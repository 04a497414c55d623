import {
  addDays,
  AppointmentFilterSchema,
  CancelAppointmentInputSchema,
  createAppointmentInputSchema,
  ERROR_CODES,
  MAX_PAGE_SIZE,
  PAGE_SIZE,
  SEE_NOW_REASON,
  SeeNowInputSchema,
  SetAppointmentStatusInputSchema,
  updateAppointmentInputSchema,
  zonedDateTime,
  type AppointmentStatus,
  type BookingPolicy,
} from '@telehealth/shared';
import { randomUUID } from 'node:crypto';
import { authorize } from '../access/authorize.ts';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { AuditActor } from '../audit/audit.repository.ts';
import type { Executor } from '../db/client.ts';
import { CursorCodec } from '../db/cursor.ts';
import { isUuid } from '../db/ids.ts';
import { AppError, fieldError, parseInput } from '../errors.ts';
import { findVisiblePatient, patientExists } from '../patients/patients.repository.ts';
import { isActiveProvider } from '../providers/providers.repository.ts';
import { AppointmentChanges } from './appointment-changes.ts';
import type { AppointmentListener } from './appointment-listener.ts';
import {
  findPatientVisitFacts,
  findPatientsWithVisitsOf,
  type PatientVisitFacts,
  appointmentExists,
  findOverlaps,
  findVisibleAppointment,
  insertAppointmentHistory,
  listAppointmentHistory,
  listAppointmentsPage,
  releaseCompletedTime,
  type AppointmentCursor,
  type AppointmentView,
  type NewAppointmentRow,
} from './appointments.repository.ts';
import { BookingCore, conflictOf, type BookingCoreOptions } from './booking-core.ts';
import { PatientSelfService } from './patient-self-service.ts';
import { ProviderAvailability } from './provider-availability.ts';
import { occurrence } from './schedule.ts';

export type { AppointmentChange, AppointmentListener, FreedSlot } from './appointment-listener.ts';
export type { PracticeHours } from './provider-availability.ts';

export interface AppointmentsServiceOptions extends BookingCoreOptions {
  secret: string;
}

/** Fields of an appointment a patient never reads (the GraphQL `Appointment.notes` is null for them). */
const STAFF_ONLY_FIELDS: ReadonlySet<string> = new Set(['notes']);

/**
 * Appointments: booking, the list and the calendar, rescheduling, statuses and cancelling, a provider's working
 * hours and time off, and the free slots of a day. Every operation asks the access checkpoint for the caller's
 * reach; the database's exclusion constraints are the last word on overlaps, whatever the concurrency.
 *
 * The one service of these (ctx.appointments); its parts live beside it: the booking core every path shares
 * (booking-core.ts), the changes of an existing appointment (appointment-changes.ts), a patient's own visits
 * (patient-self-service.ts) and a provider's availability (provider-availability.ts).
 */
export class AppointmentsService {
  readonly #core: BookingCore;
  readonly #cursors: CursorCodec<AppointmentCursor>;
  readonly #changes: AppointmentChanges;
  readonly #availability: ProviderAvailability;
  readonly #patients: PatientSelfService;

  constructor(options: AppointmentsServiceOptions) {
    this.#core = new BookingCore(options, (providerId) => isActiveProvider(options.db, providerId));
    this.#cursors = new CursorCodec<AppointmentCursor>(`${options.secret}:appointments`, 2);
    this.#changes = new AppointmentChanges(this.#core);
    this.#availability = new ProviderAvailability(this.#core);
    this.#patients = new PatientSelfService(this.#core, this.#changes, this.#availability);
  }

  /** The number a refusal elsewhere (a waitlist offer) may name: the practice's phone as it is now, if any. */
  clinicPhone(): string | null {
    return this.#core.clinicPhone;
  }

  /** The practice's booking policy for patients, as it is now. */
  bookingPolicy(): Promise<BookingPolicy> {
    return this.#core.policy.current();
  }

  get timeZone(): string {
    return this.#core.zone;
  }

  /**
   * Where patients stand with their visits (how many booked, started, the next one ahead): for the flow before the
   * first visit (decision 068). No audit entry: callers audit what they show.
   */
  visitFacts(
    executor: Executor,
    of: { appointmentIds: readonly string[] } | { patientIds: readonly string[] },
  ): Promise<PatientVisitFacts[]> {
    return findPatientVisitFacts(executor, of);
  }

  /** Of `patientIds`, those with a visit (not cancelled) with the provider `providerId`; no audit entry. */
  patientsWithVisitsOf(providerId: string, patientIds: readonly string[]): Promise<Set<string>> {
    return findPatientsWithVisitsOf(this.#core.db, providerId, patientIds);
  }

  /** Adds a listener (the runtime adds the invitations once the mail service exists). */
  addListener(listener: AppointmentListener): void {
    this.#core.listeners.push(listener);
  }

  async create(caller: Caller, input: unknown): Promise<AppointmentView[]> {
    const reach = await authorize(this.#core.db, caller, 'appointment:create');
    const data = parseInput(createAppointmentInputSchema(this.#core.today()), input);
    const providerId = data.providerId ?? (reach.kind === 'own' ? caller.user.id : null);
    if (!providerId) throw fieldError('providerId', 'appointmentMessages.selectProvider');
    await authorize(this.#core.db, caller, 'appointment:create', { record: { providerId } });
    if (!(await isActiveProvider(this.#core.db, providerId))) {
      throw fieldError('providerId', 'appointmentMessages.selectProvider');
    }
    await this.#requireVisiblePatient(caller, data.patientId);
    return this.#core.book(caller, { ...data, providerId, status: 'scheduled' }, {});
  }

  /**
   * See now (issue 25, decision 046): a provider starts an unscheduled video visit with one of their own patients,
   * from this minute for the practice's visit length. Not the booking grid, working hours or notice: starting now
   * is the point. Another visit of the provider or the patient in that time refuses it, naming that visit's
   * times; the exclusion constraints still decide a race. The patient gets what any new video visit brings them.
   */
  async seeNow(caller: Caller, input: unknown): Promise<AppointmentView> {
    await authorize(this.#core.db, caller, 'visit:start', { record: { providerId: caller.user.id } });
    const data = parseInput(SeeNowInputSchema, input);
    await this.#requireOwnPatientForVisit(caller, data.patientId);
    const policy = await this.#core.policy.current();
    const now = this.#core.now();
    const startsAt = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    const endsAt = new Date(startsAt.getTime() + policy.duration * 60_000);
    const who = { providerId: caller.user.id, patientId: data.patientId };
    const overlaps = await findOverlaps(this.#core.db, { ...who, intervals: [{ startsAt, endsAt }] });
    // A visit already completed that began earlier no longer uses the rest of its booked time: See now frees it
    // (its end becomes this minute). Any other visit in the way refuses it.
    const releasable = overlaps.filter((o) => o.status === 'completed' && o.startsAt < startsAt).map((o) => o.id);
    const clash = overlaps.find((o) => !releasable.includes(o.id));
    if (clash) {
      const provider = clash.providerId === who.providerId;
      throw new AppError(
        provider ? ERROR_CODES.providerBusy : ERROR_CODES.patientBusy,
        provider ? 'appointmentMessages.seeNowProviderBusy' : 'appointmentMessages.seeNowPatientBusy',
        {
          from: zonedDateTime(clash.startsAt, this.#core.zone).time,
          to: zonedDateTime(clash.endsAt, this.#core.zone).time,
        },
      );
    }
    const row: NewAppointmentRow = {
      id: randomUUID(),
      patientId: data.patientId,
      providerId: caller.user.id,
      startsAt,
      endsAt,
      timeZone: this.#core.zone,
      duration: policy.duration,
      appointmentType: 'video',
      // The provider chose the time with the patient: nothing for anyone to confirm.
      status: 'confirmed',
      priority: 'normal',
      reason: data.reason ?? SEE_NOW_REASON,
      notes: null,
      seriesId: null,
      createdBy: caller.user.id,
      updatedBy: caller.user.id,
      statusChangedBy: caller.user.id,
      statusChangedAt: now,
    };
    const [id] = await this.#core.insertBooked(
      caller,
      [row],
      { seeNow: true, ...(releasable.length > 0 ? { releasedAppointmentIds: releasable } : {}) },
      async (tx) => {
        const released = await releaseCompletedTime(tx, releasable, startsAt, caller.user.id);
        await insertAppointmentHistory(
          tx,
          released.map((appointmentId) => ({
            appointmentId,
            action: 'updated',
            fields: ['endsAt'],
            actorId: caller.user.id,
          })),
        );
      },
    );
    const [view] = await this.#core.views([id!]);
    return view!;
  }

  /**
   * A patient the provider may start a visit with: one of their own (patient:read's reach, without emergency
   * grants). Any other id is answered like a missing patient, and an existing one is recorded as out of reach.
   */
  async #requireOwnPatientForVisit(caller: Caller, patientId: string): Promise<void> {
    const scope = await authorize(this.#core.db, caller, 'patient:read', {
      message: 'appointmentMessages.cannotSeeNow',
    });
    await scopeOf(this.#core.db, caller).find('visit:start', patientId, {
      read: (db) => findVisiblePatient(db, patientId, scope, this.#core.keyring),
      exists: (db) => patientExists(db, patientId),
      missing: 'patientMessages.notFound',
      denial: { patientIds: [patientId] },
    });
  }

  /**
   * Books a visit inside the caller's transaction without asking the access checkpoint: for a waitlist offer
   * claimed by its link, whose token is the authority (see BookingCore.bookClaimedOffer).
   */
  bookClaimedOffer(...args: Parameters<BookingCore['bookClaimedOffer']>): Promise<string> {
    return this.#core.bookClaimedOffer(...args);
  }

  /** Maps an overlap the exclusion constraints caught to PROVIDER_BUSY or PATIENT_BUSY; other errors as they are. */
  static conflictOf(error: unknown): AppError | null {
    return conflictOf(error);
  }

  async get(caller: Caller, id: string): Promise<AppointmentView> {
    const reach = await authorize(this.#core.db, caller, 'appointment:read');
    const scope = scopeOf(this.#core.db, caller);
    return scope.find('appointment:read', id, {
      read: () =>
        this.#core.db.transaction(async (tx) => {
          const found = await findVisibleAppointment(tx, id, reach, this.#core.keyring);
          if (found) await scope.audit(tx, 'APPOINTMENT_VIEW', { appointmentIds: [id], patientIds: [found.patientId] });
          return found;
        }),
      exists: (db) => appointmentExists(db, id),
      missing: 'appointmentMessages.notFound',
      denial: { appointmentIds: [id] },
    });
  }

  /**
   * A page of the appointments the caller reaches, with its APPOINTMENT_VIEW entry. With `columns`, the rows hold
   * only those (and the id, patient and start): for a reader that shows only those fields (the GraphQL list).
   */
  async list(
    caller: Caller,
    args: { filter?: unknown; limit?: number | null; nextToken?: string | null },
    options: { columns?: ReadonlySet<keyof AppointmentView> | null } = {},
  ) {
    const reach = await authorize(this.#core.db, caller, 'appointment:read');
    const filter = parseInput(AppointmentFilterSchema, args.filter ?? {});
    const limit = Math.min(Math.max(args.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#cursors.decode(args.nextToken) : null;
    if (after && (!isUuid(after[1]) || Number.isNaN(Date.parse(after[0])))) {
      throw new AppError(ERROR_CODES.badUserInput, 'appointmentMessages.invalidToken');
    }
    const query = {
      from: filter.from ? occurrence(filter.from, '00:00', 15, this.#core.zone).startsAt : null,
      before: filter.to ? occurrence(addDays(filter.to, 1), '00:00', 15, this.#core.zone).startsAt : null,
      providerId: filter.providerId ?? null,
      patientId: filter.patientId ?? null,
      statuses: filter.status ?? null,
    };
    if ((query.providerId && !isUuid(query.providerId)) || (query.patientId && !isUuid(query.patientId))) {
      return { items: [], nextToken: null };
    }
    // The page and its audit entry (the ids shown, their patients, the count) in one statement.
    const page = await listAppointmentsPage(
      this.#core.db,
      {
        reach,
        query,
        after,
        limit,
        columns: options.columns ?? null,
        audit: scopeOf(this.#core.db, caller).auditRecord('APPOINTMENT_VIEW', { page: after ? 'next' : 'first' }),
      },
      this.#core.keyring,
    );
    return { items: page.rows, nextToken: page.next ? this.#cursors.encode(page.next) : null };
  }

  /**
   * The history of an appointment already read through get or list (which checked the reach and audited). A
   * patient reads only the fields they can see: a step that changed staff-only fields alone is not shown.
   */
  async history(appointment: AppointmentView, reader: { role: string | undefined }) {
    const steps = await listAppointmentHistory(this.#core.db, appointment.id);
    if (reader.role !== 'patient') return steps;
    return steps.flatMap((step) => {
      if (!step.fields) return [step];
      const fields = step.fields.filter((field) => !STAFF_ONLY_FIELDS.has(field));
      return step.action === 'updated' && fields.length === 0 ? [] : [{ ...step, fields }];
    });
  }

  async update(caller: Caller, input: unknown): Promise<AppointmentView[]> {
    const reach = await authorize(this.#core.db, caller, 'appointment:update');
    const { id, scope, allowOutsideHours, ...changes } = parseInput(
      updateAppointmentInputSchema(this.#core.today()),
      input,
    );
    const current = await this.#core.visibleForChange(caller, id, reach);
    return this.#changes.applyUpdate(caller, current, { scope, allowOutsideHours, changes });
  }

  async cancel(caller: Caller, input: unknown): Promise<AppointmentView[]> {
    const reach = await authorize(this.#core.db, caller, 'appointment:update');
    const data = parseInput(CancelAppointmentInputSchema, input);
    const current = await this.#core.visibleForChange(caller, data.id, reach);
    return this.#changes.applyCancel(caller, current, data);
  }

  async setStatus(caller: Caller, input: unknown): Promise<AppointmentView> {
    const reach = await authorize(this.#core.db, caller, 'appointment:update');
    const { id, status } = parseInput(SetAppointmentStatusInputSchema, input);
    const current = await this.#core.visibleForChange(caller, id, reach);
    return this.#changes.applyStatus(caller, current, status);
  }

  /** A step of a video visit moves its appointment along (decision 026; see AppointmentChanges.advanceForVisit). */
  advanceForVisit(id: string, status: AppointmentStatus, by: { userId: string | null; actor: AuditActor }) {
    return this.#changes.advanceForVisit(id, status, by);
  }

  // -- a provider's availability (provider-availability.ts) -------------------------------------------------

  availableSlots(caller: Caller, input: unknown) {
    return this.#availability.availableSlots(caller, input);
  }

  practiceHours() {
    return this.#availability.practiceHours();
  }

  availability(caller: Caller, providerId: string) {
    return this.#availability.availability(caller, providerId);
  }

  setWorkingHours(caller: Caller, input: unknown) {
    return this.#availability.setWorkingHours(caller, input);
  }

  addTimeOff(caller: Caller, input: unknown) {
    return this.#availability.addTimeOff(caller, input);
  }

  removeTimeOff(caller: Caller, input: { providerId: string; id: string }) {
    return this.#availability.removeTimeOff(caller, input);
  }

  // -- a patient's own visits (patient-self-service.ts; issue 15, decision 030) -----------------------------

  bookOwn(caller: Caller, input: unknown): Promise<AppointmentView> {
    return this.#patients.bookOwn(caller, input);
  }

  ownSlots(caller: Caller, input: { date: unknown }) {
    return this.#patients.ownSlots(caller, input);
  }

  confirmOwn(caller: Caller, id: string): Promise<AppointmentView> {
    return this.#patients.confirmOwn(caller, id);
  }

  cancelOwn(caller: Caller, input: unknown): Promise<AppointmentView> {
    return this.#patients.cancelOwn(caller, input);
  }

  rescheduleOwn(caller: Caller, input: unknown): Promise<AppointmentView> {
    return this.#patients.rescheduleOwn(caller, input);
  }

  async #requireVisiblePatient(caller: Caller, patientId: string): Promise<void> {
    const scope = await authorize(this.#core.db, caller, 'patient:read', {
      message: 'appointmentMessages.cannotCreate',
    });
    await scopeOf(this.#core.db, caller).find('patient:read', patientId, {
      read: (db) => findVisiblePatient(db, patientId, scope, this.#core.keyring),
      exists: (db) => patientExists(db, patientId),
      missing: () => fieldError('patientId', 'appointmentMessages.selectPatient'),
      denial: { patientIds: [patientId] },
    });
  }
}
