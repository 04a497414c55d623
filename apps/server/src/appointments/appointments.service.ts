import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  addDays,
  AddTimeOffInputSchema,
  AppointmentFilterSchema,
  AvailableSlotsInputSchema,
  canReschedule,
  CancelAppointmentInputSchema,
  canTransition,
  createAppointmentInputSchema,
  ERROR_CODES,
  holdsSlot,
  MAX_PAGE_SIZE,
  PAGE_SIZE,
  RecordIdSchema,
  SetAppointmentStatusInputSchema,
  SetWorkingHoursInputSchema,
  todayIn,
  updateAppointmentInputSchema,
  zonedDateTime,
  type AppointmentStatus,
  type CancellationKind,
  type WorkingHoursInterval,
  AppointmentDateSchema,
  BookAppointmentInputSchema,
  CancelMyAppointmentInputSchema,
  changeDeadline,
  earliestBooking,
  lastBookableDate,
  RescheduleMyAppointmentInputSchema,
  SEE_NOW_REASON,
  SeeNowInputSchema,
  type BookingPolicy,
  type CreateAppointmentData,
  type SeriesScope,
  isOnSlotStep,
  preferredTimesCovered,
  type PreferredAppointmentTime,
  clinicContactMessage,
  type ClinicContactMessageId,
  type MessageId,
  type MessageParams,
} from '@telehealth/shared';
import { bookingPolicyOf, type BookingPolicySource } from './booking-policy.ts';
import type { PracticeSettingsSource } from '../config.ts';
import { authorize, refuse } from '../access/authorize.ts';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import { appendAuditEntry, type AuditActor } from '../audit/audit.repository.ts';
import { CursorCodec } from '../db/cursor.ts';
import type { Database, Executor } from '../db/client.ts';
import {
  AppError,
  fieldError,
  fieldExtensions,
  fieldProblem,
  notFound,
  parseInput,
  type ErrorCode,
} from '../errors.ts';
import { recordIdempotencyKey } from '../idempotency/idempotency-keys.ts';
import type { Keyring } from '../keys/keyring.ts';
import { findLinkedPatient, findVisiblePatient, patientExists } from '../patients/patients.repository.ts';
import { isActiveProvider } from '../providers/providers.repository.ts';
import {
  appointmentExists,
  findOverlaps,
  findSeriesFrom,
  findVisibleAppointment,
  insertAppointmentHistory,
  insertAppointments,
  listAppointmentHistory,
  listAppointmentsPage,
  releaseCompletedTime,
  updateAppointmentRow,
  type AppointmentCursor,
  type AppointmentReach,
  type AppointmentView,
  type NewAppointmentRow,
} from './appointments.repository.ts';
import {
  deleteTimeOff,
  findActiveProviderWeeks,
  findTimeOff,
  findWorkingHours,
  findDaySchedule,
  type DaySchedule,
  insertTimeOff,
  replaceWorkingHours,
  type TimeOffRow,
} from './availability.repository.ts';
import { daySlots, occurrence, onTimeOff, seriesDates, withinWorkingHours, type Occurrence } from './schedule.ts';
import { isUuid } from '../db/ids.ts';
import { postgresErrorOf, transactionWithRetry } from '../db/retry.ts';
import type { z } from 'zod';

type UpdateAppointmentData = z.output<ReturnType<typeof updateAppointmentInputSchema>>;

/** What changed, for whatever follows a change (the invitations and reminders of the appointments). */
export type AppointmentChange = 'created' | 'rescheduled' | 'updated' | 'cancelled' | 'status';

/**
 * Told of every change inside its transaction, so that the work it queues (invitations, reminders, waitlist
 * offers) exists exactly when the change commits.
 */
export interface AppointmentListener {
  /** `freed`: the times the change gave up (a cancelled visit's, a moved visit's old one), still ahead. */
  appointmentsChanged(
    tx: Executor,
    change: AppointmentChange,
    appointmentIds: string[],
    freed: FreedSlot[],
  ): Promise<void>;
}

/** What the practice's working hours cover as a whole (public; no provider named). */
export interface PracticeHours {
  slotStepMinutes: number;
  /** HH:MM; null when no provider works at all. */
  earliestStart: string | null;
  latestEnd: string | null;
  preferredTimes: PreferredAppointmentTime[];
}

/** A provider's time that a cancellation or a reschedule has just given up. */
export interface FreedSlot {
  providerId: string;
  startsAt: Date;
  endsAt: Date;
}

export interface AppointmentsServiceOptions {
  db: Database;
  secret: string;
  keyring: Keyring;
  /** The practice's settings: its time zone, default working hours, booking policy and phone, read per call. */
  settings: PracticeSettingsSource;
  listeners?: AppointmentListener[];
  /** The clock (tests move it). */
  now?: () => Date;
}

/** Fields of an appointment a patient never reads (the GraphQL `Appointment.notes` is null for them). */
const STAFF_ONLY_FIELDS: ReadonlySet<string> = new Set(['notes']);

/**
 * Appointments: booking, the list and the calendar, rescheduling, statuses and cancelling, a provider's working
 * hours and time off, and the free slots of a day. Every operation asks the access checkpoint for the caller's
 * reach; the database's exclusion constraints are the last word on overlaps, whatever the concurrency.
 */
export class AppointmentsService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #settings: PracticeSettingsSource;
  readonly #cursors: CursorCodec<AppointmentCursor>;
  readonly #listeners: AppointmentListener[];
  readonly #now: () => Date;
  readonly #policy: BookingPolicySource;

  constructor(options: AppointmentsServiceOptions) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#settings = options.settings;
    this.#cursors = new CursorCodec<AppointmentCursor>(`${options.secret}:appointments`, 2);
    this.#listeners = options.listeners ?? [];
    this.#now = options.now ?? (() => new Date());
    this.#policy = bookingPolicyOf(options.settings);
  }

  /** The practice's time zone in use now (a setting: never kept across calls). */
  get #zone(): string {
    return this.#settings.current().timeZone;
  }

  /** What a patient is told to call when a visit can no longer be changed online. */
  get #clinicPhone(): string | null {
    return this.#settings.current().clinicPhone;
  }

  /** The number a refusal elsewhere (a waitlist offer) may name: the practice's phone as it is now, if any. */
  clinicPhone(): string | null {
    return this.#clinicPhone;
  }

  /** The practice's booking policy for patients, as it is now. */
  bookingPolicy(): Promise<BookingPolicy> {
    return this.#policy.current();
  }

  get timeZone(): string {
    return this.#zone;
  }

  /** Adds a listener (the runtime adds the invitations once the mail service exists). */
  addListener(listener: AppointmentListener): void {
    this.#listeners.push(listener);
  }

  #today(): string {
    return todayIn(this.#zone, this.#now());
  }

  async create(caller: Caller, input: unknown): Promise<AppointmentView[]> {
    const reach = await authorize(this.#db, caller, 'appointment:create');
    const data = parseInput(createAppointmentInputSchema(this.#today()), input);
    const providerId = data.providerId ?? (reach.kind === 'own' ? caller.user.id : null);
    if (!providerId) throw fieldError('providerId', 'appointmentMessages.selectProvider');
    await authorize(this.#db, caller, 'appointment:create', { record: { providerId } });
    if (!(await isActiveProvider(this.#db, providerId))) {
      throw fieldError('providerId', 'appointmentMessages.selectProvider');
    }
    await this.#requireVisiblePatient(caller, data.patientId);
    return this.#book(caller, { ...data, providerId, status: 'scheduled' }, {});
  }

  /**
   * The one booking path of staff and patients: working hours and time off (staff alone may confirm a time
   * outside them), the past, a series' every occurrence, then the rows, history, audit entry and listeners
   * (invitations, reminders) in one transaction, where the exclusion constraints have the last word.
   */
  async #book(
    caller: Caller,
    data: Omit<CreateAppointmentData, 'providerId'> & { providerId: string; status: AppointmentStatus },
    details: Record<string, unknown>,
  ): Promise<AppointmentView[]> {
    const { providerId, status } = data;
    const dates = data.recurrence
      ? seriesDates({ date: data.date, time: data.time, zone: this.#zone, ...data.recurrence })
      : [data.date];
    const occurrences = dates.map((date) => occurrence(date, data.time, data.duration, this.#zone));
    this.#refuseOffStep(data.time);
    this.#refusePast(occurrences[0]!);
    await this.#checkWorkingHours(providerId, occurrences, data.duration, {
      confirmed: data.allowOutsideHours === true,
      byPatient: caller.user.role === 'patient',
    });
    if (occurrences.length > 1) {
      await this.#refuseSeriesConflicts(this.#db, { providerId, patientId: data.patientId }, occurrences);
    }

    const seriesId = occurrences.length > 1 ? randomUUID() : null;
    const now = this.#now();
    const rows: NewAppointmentRow[] = occurrences.map((o) => ({
      id: randomUUID(),
      patientId: data.patientId,
      providerId,
      startsAt: o.startsAt,
      endsAt: o.endsAt,
      timeZone: this.#zone,
      duration: data.duration,
      appointmentType: data.appointmentType,
      status,
      priority: data.priority,
      reason: data.reason,
      notes: data.notes ?? null,
      seriesId,
      createdBy: caller.user.id,
      updatedBy: caller.user.id,
      statusChangedBy: caller.user.id,
      statusChangedAt: now,
    }));
    const ids = await this.#insertBooked(caller, rows, {
      ...details,
      ...(seriesId ? { seriesId } : {}),
    });
    return this.#views(ids);
  }

  /**
   * The rows of a booking, their history, the audit entry and the listeners (invitations, reminders), then the
   * idempotency key, in one transaction where the exclusion constraints have the last word. Answers the ids.
   */
  async #insertBooked(
    caller: Caller,
    rows: NewAppointmentRow[],
    details: Record<string, unknown>,
    /** Runs first in the same transaction (See now releasing the rest of a completed visit's time). */
    before?: (tx: Executor) => Promise<void>,
  ): Promise<string[]> {
    const ids = rows.map((r) => r.id!);
    const patientIds = [...new Set(rows.map((r) => r.patientId))];
    await this.#write(async (tx) => {
      if (before) await before(tx);
      await insertAppointments(tx, rows, this.#keyring);
      await insertAppointmentHistory(
        tx,
        rows.map((r) => ({
          appointmentId: r.id!,
          action: 'created',
          toStatus: r.status,
          toStartsAt: r.startsAt,
          actorId: caller.user.id,
        })),
      );
      await scopeOf(this.#db, caller).audit(tx, 'APPOINTMENT_CREATE', {
        appointmentIds: ids,
        patientIds,
        ...details,
      });
      await this.#tell(tx, 'created', ids);
      // A series answers its first visit, so a retry answers it too.
      await recordIdempotencyKey(tx, caller, ids[0]!);
    });
    return ids;
  }

  /**
   * See now (issue 25, decision 046): a provider starts an unscheduled video visit with one of their own patients,
   * from this minute for the practice's visit length. Not the booking grid, working hours or notice: starting now
   * is the point. Another visit of the provider or the patient in that time refuses it, naming that visit's
   * times; the exclusion constraints still decide a race. The patient gets what any new video visit brings them.
   */
  async seeNow(caller: Caller, input: unknown): Promise<AppointmentView> {
    await authorize(this.#db, caller, 'visit:start', { record: { providerId: caller.user.id } });
    const data = parseInput(SeeNowInputSchema, input);
    await this.#requireOwnPatientForVisit(caller, data.patientId);
    const policy = await this.#policy.current();
    const now = this.#now();
    const startsAt = new Date(Math.floor(now.getTime() / 60_000) * 60_000);
    const endsAt = new Date(startsAt.getTime() + policy.duration * 60_000);
    const who = { providerId: caller.user.id, patientId: data.patientId };
    const overlaps = await findOverlaps(this.#db, { ...who, intervals: [{ startsAt, endsAt }] });
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
          from: zonedDateTime(clash.startsAt, this.#zone).time,
          to: zonedDateTime(clash.endsAt, this.#zone).time,
        },
      );
    }
    const row: NewAppointmentRow = {
      id: randomUUID(),
      patientId: data.patientId,
      providerId: caller.user.id,
      startsAt,
      endsAt,
      timeZone: this.#zone,
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
    const [id] = await this.#insertBooked(
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
    const [view] = await this.#views([id!]);
    return view!;
  }

  /**
   * A patient the provider may start a visit with: one of their own (patient:read's reach, without emergency
   * grants). Any other id is answered like a missing patient, and an existing one is recorded as out of reach.
   */
  async #requireOwnPatientForVisit(caller: Caller, patientId: string): Promise<void> {
    const scope = await authorize(this.#db, caller, 'patient:read', { message: 'appointmentMessages.cannotSeeNow' });
    await scopeOf(this.#db, caller).find('visit:start', patientId, {
      read: (db) => findVisiblePatient(db, patientId, scope, this.#keyring),
      exists: (db) => patientExists(db, patientId),
      missing: 'patientMessages.notFound',
      denial: { patientIds: [patientId] },
    });
  }

  /**
   * Books a visit inside the caller's transaction without asking the access checkpoint: for a waitlist offer
   * claimed by its link, whose token is the authority (WaitlistService checks it). The same rows, history,
   * audit entry and listeners as a booking by staff; the exclusion constraints still decide (23P01 propagates,
   * and the caller's transaction rolls back whole).
   */
  async bookClaimedOffer(
    tx: Executor,
    actor: AuditActor,
    values: Pick<
      NewAppointmentRow,
      'patientId' | 'providerId' | 'startsAt' | 'endsAt' | 'duration' | 'appointmentType' | 'reason'
    >,
    details: Record<string, unknown>,
  ): Promise<string> {
    const id = randomUUID();
    const now = this.#now();
    await insertAppointments(
      tx,
      [{ ...values, id, timeZone: this.#zone, status: 'confirmed', priority: 'normal', statusChangedAt: now }],
      this.#keyring,
    );
    await insertAppointmentHistory(tx, [
      { appointmentId: id, action: 'created', toStatus: 'confirmed', toStartsAt: values.startsAt, at: now },
    ]);
    await appendAuditEntry(tx, {
      event: 'APPOINTMENT_CREATE',
      level: 'INFO',
      actor,
      url: 'claimWaitlistOffer',
      details: { appointmentIds: [id], patientIds: [values.patientId], ...details },
    });
    await this.#tell(tx, 'created', [id]);
    return id;
  }

  /** Maps an overlap the exclusion constraints caught to PROVIDER_BUSY or PATIENT_BUSY; other errors as they are. */
  static conflictOf(error: unknown): AppError | null {
    const violation = exclusionViolation(error);
    if (violation === 'appointments_provider_no_overlap') {
      return new AppError(ERROR_CODES.providerBusy, 'appointmentMessages.providerBusy');
    }
    if (violation === 'appointments_patient_no_overlap') {
      return new AppError(ERROR_CODES.patientBusy, 'appointmentMessages.patientBusy');
    }
    return null;
  }

  async get(caller: Caller, id: string): Promise<AppointmentView> {
    const reach = await authorize(this.#db, caller, 'appointment:read');
    const scope = scopeOf(this.#db, caller);
    return scope.find('appointment:read', id, {
      read: () =>
        this.#db.transaction(async (tx) => {
          const found = await findVisibleAppointment(tx, id, reach, this.#keyring);
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
    const reach = await authorize(this.#db, caller, 'appointment:read');
    const filter = parseInput(AppointmentFilterSchema, args.filter ?? {});
    const limit = Math.min(Math.max(args.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#cursors.decode(args.nextToken) : null;
    if (after && (!isUuid(after[1]) || Number.isNaN(Date.parse(after[0])))) {
      throw new AppError(ERROR_CODES.badUserInput, 'appointmentMessages.invalidToken');
    }
    const query = {
      from: filter.from ? occurrence(filter.from, '00:00', 15, this.#zone).startsAt : null,
      before: filter.to ? occurrence(addDays(filter.to, 1), '00:00', 15, this.#zone).startsAt : null,
      providerId: filter.providerId ?? null,
      patientId: filter.patientId ?? null,
      statuses: filter.status ?? null,
    };
    if ((query.providerId && !isUuid(query.providerId)) || (query.patientId && !isUuid(query.patientId))) {
      return { items: [], nextToken: null };
    }
    // The page and its audit entry (the ids shown, their patients, the count) in one statement.
    const page = await listAppointmentsPage(
      this.#db,
      {
        reach,
        query,
        after,
        limit,
        columns: options.columns ?? null,
        audit: {
          event: 'APPOINTMENT_VIEW',
          level: 'INFO',
          actor: caller.actor,
          url: caller.operation,
          details: { page: after ? 'next' : 'first' },
        },
      },
      this.#keyring,
    );
    return { items: page.rows, nextToken: page.next ? this.#cursors.encode(page.next) : null };
  }

  /**
   * The history of an appointment already read through get or list (which checked the reach and audited). A
   * patient reads only the fields they can see: a step that changed staff-only fields alone is not shown.
   */
  async history(appointment: AppointmentView, reader: { role: string | undefined }) {
    const steps = await listAppointmentHistory(this.#db, appointment.id);
    if (reader.role !== 'patient') return steps;
    return steps.flatMap((step) => {
      if (!step.fields) return [step];
      const fields = step.fields.filter((field) => !STAFF_ONLY_FIELDS.has(field));
      return step.action === 'updated' && fields.length === 0 ? [] : [{ ...step, fields }];
    });
  }

  async update(caller: Caller, input: unknown): Promise<AppointmentView[]> {
    const reach = await authorize(this.#db, caller, 'appointment:update');
    const { id, scope, allowOutsideHours, ...changes } = parseInput(updateAppointmentInputSchema(this.#today()), input);
    const current = await this.#visibleForChange(caller, id, reach);
    return this.#applyUpdate(caller, current, { scope, allowOutsideHours, changes });
  }

  /**
   * A change of an appointment the caller may change (staff's, or a patient's own reschedule): a move is checked
   * like a booking. `status` (a patient's reschedule in request mode) puts the moved visit back to waiting for
   * the provider's confirmation.
   */
  async #applyUpdate(
    caller: Caller,
    current: AppointmentView,
    options: {
      scope?: SeriesScope | null | undefined;
      allowOutsideHours?: boolean | undefined;
      changes: Omit<UpdateAppointmentData, 'id' | 'scope' | 'allowOutsideHours'>;
      status?: AppointmentStatus;
    },
  ): Promise<AppointmentView[]> {
    const { scope, allowOutsideHours, changes } = options;
    // "This and the following": the later occurrences still open (a cancelled or past one stays as it is).
    const targets = (
      scope === 'following' && current.seriesId
        ? await findSeriesFrom(this.#db, current.seriesId, current.startsAt, this.#keyring)
        : [current]
    ).filter((t) => t.id === current.id || canReschedule(t.status as AppointmentStatus));
    const moving =
      (changes.date !== undefined || changes.time !== undefined || changes.duration !== undefined) &&
      this.#isMove(current, changes);
    const now = this.#now();
    // Each target's new place: the same shift of days as the chosen one, at the new time and duration.
    const plans = targets.map((target) => {
      const at = zonedDateTime(target.startsAt, this.#zone);
      const dayShift = changes.date ? daysBetween(zonedDateTime(current.startsAt, this.#zone).date, changes.date) : 0;
      const date = addDays(at.date, dayShift);
      const time = changes.time ?? at.time;
      const duration = changes.duration ?? target.duration;
      return { target, next: occurrence(date, time, duration, this.#zone), duration };
    });
    if (moving) {
      for (const { target } of plans) {
        if (!canReschedule(target.status as AppointmentStatus)) {
          throw new AppError(ERROR_CODES.wrongTransition, 'appointmentMessages.cannotReschedule', {
            status: target.status,
          });
        }
      }
      // A time kept as it was stays, even if the practice's step has changed since it was booked.
      if (changes.time !== undefined && changes.time !== zonedDateTime(current.startsAt, this.#zone).time) {
        this.#refuseOffStep(changes.time);
      }
      for (const plan of plans) this.#refusePast(plan.next);
      await this.#checkWorkingHours(
        current.providerId,
        plans.map((p) => p.next),
        plans[0]!.duration,
        { confirmed: allowOutsideHours === true, byPatient: caller.user.role === 'patient' },
        plans.map((p) => p.duration),
      );
      if (plans.length > 1) {
        await this.#refuseSeriesConflicts(
          this.#db,
          { providerId: current.providerId, patientId: current.patientId },
          plans.map((p) => p.next),
          plans.map((p) => p.target.id),
        );
      }
    }
    const fields = Object.entries(changes)
      .filter(([, v]) => v !== undefined)
      .map(([k]) => k)
      .sort();
    const ids = targets.map((t) => t.id);
    await this.#write(async (tx) => {
      for (const { target, next, duration } of plans) {
        const values: Partial<NewAppointmentRow> = { updatedBy: caller.user.id };
        if (changes.appointmentType !== undefined) values.appointmentType = changes.appointmentType;
        if (changes.reason !== undefined) values.reason = changes.reason;
        if (changes.notes !== undefined) values.notes = changes.notes;
        if (changes.priority !== undefined) values.priority = changes.priority;
        const moved = moving && next.startsAt.getTime() !== target.startsAt.getTime();
        if (moving)
          Object.assign(values, { startsAt: next.startsAt, endsAt: next.endsAt, duration, timeZone: this.#zone });
        // The invitation shows the time and the kind of visit: a change to either raises its SEQUENCE.
        const invitationChanged =
          moving || (changes.appointmentType !== undefined && changes.appointmentType !== target.appointmentType);
        if (invitationChanged) values.sequence = target.sequence + 1;
        if (options.status && options.status !== target.status) {
          Object.assign(values, { status: options.status, statusChangedAt: now, statusChangedBy: caller.user.id });
        }
        await updateAppointmentRow(tx, target.id, values, this.#keyring);
        await insertAppointmentHistory(tx, [
          moved
            ? {
                appointmentId: target.id,
                action: 'rescheduled',
                fromStartsAt: target.startsAt,
                toStartsAt: next.startsAt,
                fields,
                actorId: caller.user.id,
                at: now,
              }
            : { appointmentId: target.id, action: 'updated', fields, actorId: caller.user.id, at: now },
        ]);
      }
      await scopeOf(this.#db, caller).audit(tx, 'APPOINTMENT_UPDATE', {
        appointmentIds: ids,
        patientIds: [current.patientId],
        fields,
        ...(moving ? { rescheduled: true } : {}),
        ...(options.status ? { status: options.status } : {}),
      });
      const freed = plans
        .filter((p) => moving && p.next.startsAt.getTime() !== p.target.startsAt.getTime())
        .map(({ target }) => ({ providerId: target.providerId, startsAt: target.startsAt, endsAt: target.endsAt }));
      await this.#tell(tx, moving ? 'rescheduled' : 'updated', ids, freed);
    });
    return this.#views(ids);
  }

  async cancel(caller: Caller, input: unknown): Promise<AppointmentView[]> {
    const reach = await authorize(this.#db, caller, 'appointment:update');
    const data = parseInput(CancelAppointmentInputSchema, input);
    const current = await this.#visibleForChange(caller, data.id, reach);
    return this.#applyCancel(caller, current, data);
  }

  /** Cancels an appointment the caller may change (and, in a series, the following ones when asked). */
  async #applyCancel(
    caller: Caller,
    current: AppointmentView,
    data: {
      reason: string | null;
      cancellationKind?: CancellationKind | null | undefined;
      scope?: SeriesScope | null | undefined;
    },
  ): Promise<AppointmentView[]> {
    const targets = (
      data.scope === 'following' && current.seriesId
        ? await findSeriesFrom(this.#db, current.seriesId, current.startsAt, this.#keyring)
        : [current]
    ).filter((t) => t.id === current.id || canTransition(t.status as AppointmentStatus, 'cancelled'));
    this.#requireTransition(current.status as AppointmentStatus, 'cancelled');
    const kind: CancellationKind = data.cancellationKind ?? (caller.user.role === 'patient' ? 'patient' : 'provider');
    const now = this.#now();
    const ids = targets.map((t) => t.id);
    await this.#write(async (tx) => {
      for (const target of targets) {
        await updateAppointmentRow(
          tx,
          target.id,
          {
            status: 'cancelled',
            cancellationKind: kind,
            cancelReason: data.reason,
            cancelledAt: now,
            cancelledBy: caller.user.id,
            statusChangedAt: now,
            statusChangedBy: caller.user.id,
            updatedBy: caller.user.id,
            sequence: target.sequence + 1,
          },
          this.#keyring,
        );
        await insertAppointmentHistory(tx, [
          {
            appointmentId: target.id,
            action: 'cancelled',
            fromStatus: target.status,
            toStatus: 'cancelled',
            actorId: caller.user.id,
            at: now,
          },
        ]);
      }
      await scopeOf(this.#db, caller).audit(tx, 'APPOINTMENT_UPDATE', {
        appointmentIds: ids,
        patientIds: [current.patientId],
        status: 'cancelled',
        cancellationKind: kind,
      });
      const freed = targets
        .filter((target) => holdsSlot(target.status as AppointmentStatus))
        .map(({ providerId, startsAt, endsAt }) => ({ providerId, startsAt, endsAt }));
      await this.#tell(tx, 'cancelled', ids, freed);
    });
    return this.#views(ids);
  }

  async setStatus(caller: Caller, input: unknown): Promise<AppointmentView> {
    const reach = await authorize(this.#db, caller, 'appointment:update');
    const { id, status } = parseInput(SetAppointmentStatusInputSchema, input);
    const current = await this.#visibleForChange(caller, id, reach);
    return this.#applyStatus(caller, current, status);
  }

  async #applyStatus(caller: Caller, current: AppointmentView, status: AppointmentStatus): Promise<AppointmentView> {
    const id = current.id;
    const from = current.status as AppointmentStatus;
    this.#requireTransition(from, status);
    if (status === 'cancelled') throw fieldError('reason', 'appointmentMessages.cancelReasonRequired');
    if (
      (status === 'completed' || status === 'no-show' || status === 'in-progress') &&
      current.startsAt > this.#laterThanWindow()
    ) {
      throw new AppError(ERROR_CODES.wrongTransition, 'appointmentMessages.notStartedYet');
    }
    const now = this.#now();
    await this.#write(async (tx) => {
      await updateAppointmentRow(
        tx,
        id,
        { status, statusChangedAt: now, statusChangedBy: caller.user.id, updatedBy: caller.user.id },
        this.#keyring,
      );
      await insertAppointmentHistory(tx, [
        { appointmentId: id, action: 'status', fromStatus: from, toStatus: status, actorId: caller.user.id, at: now },
      ]);
      await scopeOf(this.#db, caller).audit(tx, 'APPOINTMENT_UPDATE', {
        appointmentIds: [id],
        patientIds: [current.patientId],
        status,
        from,
      });
      await this.#tell(tx, 'status', [id]);
    });
    const [view] = await this.#views([id]);
    return view!;
  }

  /**
   * A step of a video visit moves its appointment along (decision 026): checked-in when the patient arrives,
   * in-progress when the provider lets them in, completed when the provider ends the visit. Applied when the
   * transitions table allows it (a visit already in progress stays so after a reload), else left as it is;
   * answers whether it moved. The visit taking place is the proof that it began, so no time rule applies.
   */
  async advanceForVisit(id: string, status: AppointmentStatus, by: { userId: string | null; actor: AuditActor }) {
    const now = this.#now();
    let moved = false;
    await this.#write(async (tx) => {
      const locked = await tx.execute<{ status: string; patient_id: string }>(
        sql`SELECT status, patient_id FROM appointments WHERE id = ${id} FOR UPDATE`,
      );
      const row = locked.rows[0];
      if (!row || !canTransition(row.status as AppointmentStatus, status)) return;
      const from = row.status as AppointmentStatus;
      await updateAppointmentRow(
        tx,
        id,
        { status, statusChangedAt: now, statusChangedBy: by.userId, ...(by.userId ? { updatedBy: by.userId } : {}) },
        this.#keyring,
      );
      await insertAppointmentHistory(tx, [
        { appointmentId: id, action: 'status', fromStatus: from, toStatus: status, actorId: by.userId, at: now },
      ]);
      await appendAuditEntry(tx, {
        event: 'APPOINTMENT_UPDATE',
        level: 'INFO',
        actor: by.actor,
        url: 'videoVisit',
        details: { appointmentIds: [id], patientIds: [row.patient_id], status, from },
      });
      await this.#tell(tx, 'status', [id]);
      moved = true;
    });
    return moved;
  }

  /** The start times a provider's working hours offer on a date (in the practice's step), each free or why not. */
  async availableSlots(caller: Caller, input: unknown) {
    const data = parseInput(AvailableSlotsInputSchema, input);
    await authorize(this.#db, caller, 'appointment:create', { record: { providerId: data.providerId } });
    const schedule = isUuid(data.providerId) ? await this.#daySchedule(data.providerId, data.date) : null;
    if (!schedule?.active) throw fieldError('providerId', 'appointmentMessages.selectProvider');
    return this.#slotsOf(schedule, data.date, data.duration, this.#now());
  }

  /**
   * The times a patient may book on a date with their own provider, for the policy's visit length: a time
   * inside the minimum notice counts as past; a date past the horizon is refused.
   */
  async ownSlots(caller: Caller, input: { date: unknown }) {
    await authorize(this.#db, caller, 'appointment:book');
    const date = parseInput(AppointmentDateSchema, input.date);
    const policy = await this.#policy.current();
    const patient = await this.#linkedPatient(caller);
    if (!patient.ownerId || !(await isActiveProvider(this.#db, patient.ownerId))) {
      throw this.#clinicContactError(ERROR_CODES.badUserInput, 'bookingMessages.noProvider');
    }
    if (date > lastBookableDate(this.#today(), policy)) {
      throw ruleError('date', 'bookingMessages.tooFar', { count: policy.horizonDays });
    }
    return this.#daySlots(patient.ownerId, date, policy.duration, earliestBooking(this.#now(), policy));
  }

  async #daySlots(providerId: string, date: string, duration: number, now: Date) {
    return this.#slotsOf(await this.#daySchedule(providerId, date), date, duration, now);
  }

  /** The provider's week, time off and busy times of the date (and whether they are active), in one read. */
  #daySchedule(providerId: string, date: string): Promise<DaySchedule> {
    const from = occurrence(date, '00:00', 15, this.#zone).startsAt;
    const to = occurrence(addDays(date, 1), '00:00', 15, this.#zone).startsAt;
    return findDaySchedule(this.#db, providerId, { date, from, to }, this.#settings.current().defaultWorkingHours);
  }

  #slotsOf(schedule: DaySchedule, date: string, duration: number, now: Date) {
    const { week, timeOff, busy } = schedule;
    const step = this.#settings.current().slotStepMinutes;
    return daySlots({ date, duration, step, zone: this.#zone, week: week.intervals, timeOff, busy, now });
  }

  /**
   * Public (the patient's access-request form, the calendar): what the practice's hours cover as a whole, never
   * whose hours they are. The step of its start times, the earliest start and latest end of any provider's week,
   * and the preferred appointment times (the specification's options) someone's hours cover.
   */
  async practiceHours(): Promise<PracticeHours> {
    const settings = this.#settings.current();
    const weeks = await findActiveProviderWeeks(this.#db, settings.defaultWorkingHours);
    const intervals = weeks.flat();
    const starts = intervals.map((i) => i.startTime).sort();
    const ends = intervals.map((i) => i.endTime).sort();
    return {
      slotStepMinutes: settings.slotStepMinutes,
      earliestStart: starts[0] ?? null,
      latestEnd: ends.at(-1) ?? null,
      preferredTimes: preferredTimesCovered(weeks),
    };
  }

  async availability(caller: Caller, providerId: string) {
    const id = parseInput(RecordIdSchema, providerId);
    await authorize(this.#db, caller, 'availability:manage', { record: { providerId: id } });
    if (!isUuid(id) || !(await isActiveProvider(this.#db, id))) throw notFound('appointmentMessages.providerNotFound');
    const [week, timeOff] = await Promise.all([
      findWorkingHours(this.#db, id, this.#settings.current().defaultWorkingHours),
      findTimeOff(this.#db, id, { from: addDays(this.#today(), -30) }),
    ]);
    return { providerId: id, custom: week.custom, workingHours: week.intervals, timeOff };
  }

  async setWorkingHours(caller: Caller, input: unknown) {
    const data = parseInput(SetWorkingHoursInputSchema, input);
    await authorize(this.#db, caller, 'availability:manage', { record: { providerId: data.providerId } });
    if (!isUuid(data.providerId) || !(await isActiveProvider(this.#db, data.providerId))) {
      throw notFound('appointmentMessages.providerNotFound');
    }
    const intervals: WorkingHoursInterval[] = data.intervals;
    await this.#db.transaction(async (tx) => {
      await replaceWorkingHours(tx, data.providerId, intervals, caller.user.id);
      await appendAuditEntry(tx, {
        event: 'AVAILABILITY_UPDATE',
        level: 'INFO',
        actor: caller.actor,
        url: caller.operation,
        details: { providerId: data.providerId, intervals: intervals.length },
      });
    });
    return this.availability(caller, data.providerId);
  }

  async addTimeOff(caller: Caller, input: unknown): Promise<TimeOffRow> {
    const data = parseInput(AddTimeOffInputSchema, input);
    await authorize(this.#db, caller, 'availability:manage', { record: { providerId: data.providerId } });
    if (!isUuid(data.providerId) || !(await isActiveProvider(this.#db, data.providerId))) {
      throw notFound('appointmentMessages.providerNotFound');
    }
    return this.#db.transaction(async (tx) => {
      const row = await insertTimeOff(tx, {
        providerId: data.providerId,
        startDate: data.startDate,
        endDate: data.endDate,
        label: data.label ?? null,
        createdBy: caller.user.id,
      });
      await appendAuditEntry(tx, {
        event: 'AVAILABILITY_UPDATE',
        level: 'INFO',
        actor: caller.actor,
        url: caller.operation,
        details: { providerId: data.providerId, timeOffId: row.id, added: true },
      });
      return row;
    });
  }

  async removeTimeOff(caller: Caller, input: { providerId: string; id: string }): Promise<{ id: string }> {
    const providerId = parseInput(RecordIdSchema, input.providerId);
    const id = parseInput(RecordIdSchema, input.id);
    await authorize(this.#db, caller, 'availability:manage', { record: { providerId } });
    const removed =
      isUuid(providerId) &&
      isUuid(id) &&
      (await this.#db.transaction(async (tx) => {
        const done = await deleteTimeOff(tx, providerId, id);
        if (done) {
          await appendAuditEntry(tx, {
            event: 'AVAILABILITY_UPDATE',
            level: 'INFO',
            actor: caller.actor,
            url: caller.operation,
            details: { providerId, timeOffId: id, removed: true },
          });
        }
        return done;
      }));
    if (!removed) throw notFound('appointmentMessages.timeOffNotFound');
    return { id };
  }

  // -- a patient's own visits (issue 15, decision 030) ------------------------------------------------------

  /**
   * A patient books a visit for their own record with their own provider (the record's primary provider),
   * through the same path as staff (#book) plus the practice's rules: the kinds of visit patients may book, the
   * minimum notice and the horizon; never outside working hours. Instant mode confirms it; request mode leaves
   * it pending (holding the slot) until the provider confirms it.
   */
  async bookOwn(caller: Caller, input: unknown): Promise<AppointmentView> {
    const reach = await authorize(this.#db, caller, 'appointment:book');
    const data = parseInput(BookAppointmentInputSchema, input);
    const policy = await this.#policy.current();
    const patient = await this.#linkedPatient(caller);
    const providerId = patient.ownerId;
    if (!providerId || !(await isActiveProvider(this.#db, providerId))) {
      throw this.#clinicContactError(ERROR_CODES.badUserInput, 'bookingMessages.noProvider');
    }
    // Only their own provider: naming another is refused like any record out of reach.
    if (reach.kind === 'own' && data.providerId && data.providerId !== providerId) {
      return refuse(this.#db, caller, 'appointmentMessages.cannotCreate', {
        permission: 'appointment:book:any',
        reason: "not the patient's own provider",
      });
    }
    if (!policy.appointmentTypes.includes(data.appointmentType)) {
      throw this.#clinicContactError(ERROR_CODES.badUserInput, 'bookingMessages.typeNotBookable', 'appointmentType');
    }
    const at = occurrence(data.date, data.time, policy.duration, this.#zone);
    this.#requireBookable(at, policy);
    const status: AppointmentStatus = policy.mode === 'instant' ? 'confirmed' : 'pending';
    const [view] = await this.#book(
      caller,
      {
        patientId: patient.id,
        providerId,
        date: data.date,
        time: data.time,
        duration: policy.duration,
        appointmentType: data.appointmentType,
        reason: data.reason,
        notes: null,
        priority: 'normal',
        recurrence: null,
        allowOutsideHours: undefined,
        status,
      },
      { bookedBy: 'patient', mode: policy.mode },
    );
    return view!;
  }

  /** "I'll be there": a patient confirms an upcoming visit the practice booked (scheduled → confirmed). */
  async confirmOwn(caller: Caller, id: string): Promise<AppointmentView> {
    const current = await this.#ownForChange(caller, id);
    if (current.status !== 'scheduled' || current.startsAt <= this.#now()) {
      throw new AppError(ERROR_CODES.wrongTransition, 'bookingMessages.cannotConfirm');
    }
    return this.#applyStatus(caller, current, 'confirmed');
  }

  /** A patient cancels their own visit, until the policy's window before it. */
  async cancelOwn(caller: Caller, input: unknown): Promise<AppointmentView> {
    const data = parseInput(CancelMyAppointmentInputSchema, input);
    const current = await this.#ownForChange(caller, data.id);
    const policy = await this.#policy.current();
    if (!canTransition(current.status as AppointmentStatus, 'cancelled')) {
      throw this.#clinicContactError(ERROR_CODES.wrongTransition, 'bookingMessages.cannotChange');
    }
    this.#requireChangeWindow(current, policy);
    const [view] = await this.#applyCancel(caller, current, {
      reason: data.reason?.trim() ? data.reason.trim() : null,
      cancellationKind: 'patient',
      scope: 'this',
    });
    return view!;
  }

  /**
   * A patient moves their own visit to another free time, until the policy's window before it; the new time
   * meets the same rules as a booking. In request mode the moved visit waits for the provider again.
   */
  async rescheduleOwn(caller: Caller, input: unknown): Promise<AppointmentView> {
    const data = parseInput(RescheduleMyAppointmentInputSchema, input);
    const current = await this.#ownForChange(caller, data.id);
    const policy = await this.#policy.current();
    if (!canReschedule(current.status as AppointmentStatus)) {
      throw this.#clinicContactError(ERROR_CODES.wrongTransition, 'bookingMessages.cannotChange');
    }
    this.#requireChangeWindow(current, policy);
    this.#requireBookable(occurrence(data.date, data.time, current.duration, this.#zone), policy);
    const [view] = await this.#applyUpdate(caller, current, {
      scope: 'this',
      changes: { date: data.date, time: data.time },
      ...(policy.mode === 'request' ? { status: 'pending' as const } : {}),
    });
    return view!;
  }

  /** The patient record linked to the caller's account; without one, nothing can be booked. */
  async #linkedPatient(caller: Caller): Promise<{ id: string; ownerId: string | null }> {
    const patient = await findLinkedPatient(this.#db, caller.user.id);
    if (!patient) throw this.#clinicContactError(ERROR_CODES.badUserInput, 'bookingMessages.noPatientRecord');
    return patient;
  }

  /** A patient's own appointment to change (appointment:manage), or answered like a missing one. */
  async #ownForChange(caller: Caller, id: string): Promise<AppointmentView> {
    const reach = await authorize(this.#db, caller, 'appointment:manage');
    const checked = parseInput(RecordIdSchema, id);
    return scopeOf(this.#db, caller).find('appointment:manage', checked, {
      read: (db) => findVisibleAppointment(db, checked, reach, this.#keyring),
      exists: (db) => appointmentExists(db, checked),
      missing: 'appointmentMessages.notFound',
      denial: { appointmentIds: [checked] },
    });
  }

  /** The minimum notice and the horizon of a patient's booking. */
  #requireBookable(at: Occurrence, policy: BookingPolicy): void {
    this.#refusePast(at);
    if (at.startsAt < earliestBooking(this.#now(), policy)) {
      throw ruleError('time', 'bookingMessages.tooSoon', { count: policy.minNoticeHours });
    }
    if (at.date > lastBookableDate(this.#today(), policy)) {
      throw ruleError('date', 'bookingMessages.tooFar', { count: policy.horizonDays });
    }
  }

  /** Inside the window before a visit, a patient is asked to call the clinic instead. */
  #requireChangeWindow(current: AppointmentView, policy: BookingPolicy): void {
    if (this.#now() < changeDeadline(current.startsAt, policy)) return;
    const { id, params } = clinicContactMessage('bookingMessages.changeWindowClosed', this.#clinicPhone, {
      count: policy.changeWindowHours,
    });
    throw new AppError(ERROR_CODES.badUserInput, id, params, { reason: 'changeWindow' });
  }

  /**
   * A refusal that sends the patient to the clinic: with its number when the practice has one, else without
   * asking for a call (decision 048); on `field` when it is about one.
   */
  #clinicContactError(code: ErrorCode, messageId: ClinicContactMessageId, field?: string): AppError {
    const { id, params } = clinicContactMessage(messageId, this.#clinicPhone);
    return new AppError(code, id, params, field ? fieldExtensions([fieldProblem(field, id, params)]) : {});
  }

  // -- the rules --------------------------------------------------------------------------------------------

  /** In-progress, completed and no-show need the visit to have begun (15 minutes' grace for an early start). */
  #laterThanWindow(): Date {
    return new Date(this.#now().getTime() + 15 * 60_000);
  }

  #isMove(current: AppointmentView, changes: { date?: string; time?: string; duration?: number }): boolean {
    const at = zonedDateTime(current.startsAt, this.#zone);
    return (
      (changes.date !== undefined && changes.date !== at.date) ||
      (changes.time !== undefined && changes.time !== at.time) ||
      (changes.duration !== undefined && changes.duration !== current.duration)
    );
  }

  /** A start time off the practice's step (15 or 30 minutes from midnight) is never offered, so never booked. */
  #refuseOffStep(time: string): void {
    const step = this.#settings.current().slotStepMinutes;
    if (!isOnSlotStep(time, step)) throw ruleError('time', 'appointmentMessages.offStep', { step });
  }

  #refusePast(first: Occurrence): void {
    if (first.startsAt <= this.#now()) throw fieldError('time', 'appointmentMessages.timeInPast');
  }

  #requireTransition(from: AppointmentStatus, to: AppointmentStatus): void {
    if (!canTransition(from, to)) {
      throw new AppError(ERROR_CODES.wrongTransition, 'appointmentMessages.wrongTransition', { from, to });
    }
  }

  /**
   * Outside the provider's working hours or on their time off: refused with OUTSIDE_WORKING_HOURS unless the
   * caller (staff) confirmed it. The dates concerned are in `extensions.dates`.
   */
  async #checkWorkingHours(
    providerId: string,
    occurrences: Occurrence[],
    duration: number,
    how: { confirmed: boolean; byPatient: boolean },
    durations?: number[],
  ): Promise<void> {
    if (how.confirmed && !how.byPatient) return;
    const first = occurrences[0]!.date;
    const last = occurrences.at(-1)!.date;
    const [week, timeOff] = await Promise.all([
      findWorkingHours(this.#db, providerId, this.#settings.current().defaultWorkingHours),
      findTimeOff(this.#db, providerId, { from: first, to: last }),
    ]);
    const outside = occurrences
      .filter(
        (o, i) =>
          onTimeOff(o.date, timeOff) || !withinWorkingHours(o.date, o.time, durations?.[i] ?? duration, week.intervals),
      )
      .map((o) => o.date);
    if (outside.length > 0) {
      // A patient cannot confirm: they are told to choose an offered time instead.
      throw new AppError(
        ERROR_CODES.outsideWorkingHours,
        how.byPatient ? 'appointmentMessages.outsideWorkingHoursPatient' : 'appointmentMessages.outsideWorkingHours',
        {},
        { dates: outside },
      );
    }
  }

  /** Every occurrence checked before anything is written; the conflicts listed by date in `extensions.conflicts`. */
  async #refuseSeriesConflicts(
    executor: Executor,
    who: { providerId: string; patientId: string },
    occurrences: Occurrence[],
    except: string[] = [],
  ): Promise<void> {
    const overlaps = await findOverlaps(executor, { ...who, intervals: occurrences, except });
    const conflicts = occurrences.flatMap((o) => {
      const hit = overlaps.find((a) => a.startsAt < o.endsAt && o.startsAt < a.endsAt);
      if (!hit) return [];
      const code = hit.providerId === who.providerId ? ERROR_CODES.providerBusy : ERROR_CODES.patientBusy;
      return [{ date: o.date, time: o.time, code }];
    });
    if (conflicts.length > 0) {
      throw new AppError(
        ERROR_CODES.seriesConflicts,
        'appointmentMessages.seriesConflicts',
        { count: conflicts.length, dates: conflicts.map((c) => c.date).join(', ') },
        { conflicts },
      );
    }
  }

  async #requireVisiblePatient(caller: Caller, patientId: string): Promise<void> {
    const scope = await authorize(this.#db, caller, 'patient:read', { message: 'appointmentMessages.cannotCreate' });
    await scopeOf(this.#db, caller).find('patient:read', patientId, {
      read: (db) => findVisiblePatient(db, patientId, scope, this.#keyring),
      exists: (db) => patientExists(db, patientId),
      missing: () => fieldError('patientId', 'appointmentMessages.selectPatient'),
      denial: { patientIds: [patientId] },
    });
  }

  /** The appointment to change, if the caller's reach includes it; otherwise answered like a missing one. */
  async #visibleForChange(caller: Caller, id: string, reach: AppointmentReach): Promise<AppointmentView> {
    return scopeOf(this.#db, caller).find('appointment:update', id, {
      read: (db) => findVisibleAppointment(db, id, reach, this.#keyring),
      exists: (db) => appointmentExists(db, id),
      missing: 'appointmentMessages.notFound',
      denial: { appointmentIds: [id] },
    });
  }

  /**
   * Runs a change in a transaction; an overlap the constraints catch becomes PROVIDER_BUSY or PATIENT_BUSY. Two
   * simultaneous overlapping bookings can deadlock in the constraints' check: the change then runs again
   * (transactionWithRetry) and meets the other's committed row as an overlap.
   */
  async #write(work: (tx: Executor) => Promise<void>): Promise<void> {
    try {
      await transactionWithRetry(this.#db, work);
    } catch (error) {
      throw AppointmentsService.conflictOf(error) ?? error;
    }
  }

  async #views(ids: string[]): Promise<AppointmentView[]> {
    const rows = await Promise.all(
      ids.map((id) => findVisibleAppointment(this.#db, id, { kind: 'any' }, this.#keyring)),
    );
    return rows.filter((r): r is AppointmentView => r !== undefined);
  }

  async #tell(tx: Executor, change: AppointmentChange, ids: string[], freed: FreedSlot[] = []): Promise<void> {
    const ahead = freed.filter((slot) => slot.startsAt > this.#now());
    for (const listener of this.#listeners) await listener.appointmentsChanged(tx, change, ids, ahead);
  }
}

/** A field's error with parameters (the booking rules' numbers). */
function ruleError(field: string, messageId: MessageId, params: MessageParams): AppError {
  return fieldError(field, messageId, params);
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The constraint an exclusion violation (SQLSTATE 23P01) names, through any wrapping error; else null. */
function exclusionViolation(error: unknown): string | null {
  const pgError = postgresErrorOf(error);
  return pgError?.code === '23P01' ? (pgError.constraint ?? null) : null;
}
