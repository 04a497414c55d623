import { randomUUID } from 'node:crypto';
import {
  canTransition,
  ERROR_CODES,
  isOnSlotStep,
  todayIn,
  type AppointmentStatus,
  type CreateAppointmentData,
  type MessageId,
  type MessageParams,
} from '@telehealth/shared';
import type { PracticeSettingsSource } from '../config.ts';
import { actorScope, scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { AuditActor } from '../audit/audit.repository.ts';
import type { Database, Executor } from '../db/client.ts';
import { postgresErrorOf, transactionWithRetry } from '../db/retry.ts';
import { AppError, fieldError } from '../errors.ts';
import { recordIdempotencyKey } from '../idempotency/idempotency-keys.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { AppointmentChange, AppointmentListener, FreedSlot } from './appointment-listener.ts';
import {
  appointmentExists,
  findOverlaps,
  findVisibleAppointment,
  insertAppointmentHistory,
  insertAppointments,
  type AppointmentReach,
  type AppointmentView,
  type NewAppointmentRow,
} from './appointments.repository.ts';
import { findTimeOff, findWorkingHours } from './availability.repository.ts';
import { bookingPolicyOf, type BookingPolicySource } from './booking-policy.ts';
import { occurrence, onTimeOff, seriesDates, withinWorkingHours, type Occurrence } from './schedule.ts';

export interface BookingCoreOptions {
  db: Database;
  keyring: Keyring;
  /** The practice's settings: its time zone, default working hours, booking policy and phone, read per call. */
  settings: PracticeSettingsSource;
  listeners?: AppointmentListener[];
  /** The clock (tests move it). */
  now?: () => Date;
}

/**
 * Whether an id names an active provider. The providers' repository is another domain's: only
 * appointments.service.ts may import it (a known foreign import, decision 053), so it passes this in.
 */
export type ActiveProviderCheck = (providerId: string) => Promise<boolean>;

/**
 * The booking core that every way of booking or changing an appointment shares (staff's, a patient's own, a
 * claimed waitlist offer, See now): the rules a time must meet, the rows, history, audit entry and listeners in
 * one transaction, and the database's exclusion constraints as the last word on overlaps. Built by
 * AppointmentsService, never reached from outside this folder; it asks no access question itself (its callers do).
 */
export class BookingCore {
  readonly db: Database;
  readonly keyring: Keyring;
  readonly settings: PracticeSettingsSource;
  readonly policy: BookingPolicySource;
  readonly listeners: AppointmentListener[];
  readonly now: () => Date;
  readonly isActiveProvider: ActiveProviderCheck;

  constructor(options: BookingCoreOptions, isActiveProvider: ActiveProviderCheck) {
    this.db = options.db;
    this.keyring = options.keyring;
    this.settings = options.settings;
    this.listeners = options.listeners ?? [];
    this.now = options.now ?? (() => new Date());
    this.policy = bookingPolicyOf(options.settings);
    this.isActiveProvider = isActiveProvider;
  }

  /** The practice's time zone in use now (a setting: never kept across calls). */
  get zone(): string {
    return this.settings.current().timeZone;
  }

  /** What a patient is told to call when a visit can no longer be changed online. */
  get clinicPhone(): string | null {
    return this.settings.current().clinicPhone;
  }

  today(): string {
    return todayIn(this.zone, this.now());
  }

  /**
   * The one booking path of staff and patients: working hours and time off (staff alone may confirm a time
   * outside them), the past, a series' every occurrence, then the rows, history, audit entry and listeners
   * (invitations, reminders) in one transaction, where the exclusion constraints have the last word.
   */
  async book(
    caller: Caller,
    data: Omit<CreateAppointmentData, 'providerId'> & { providerId: string; status: AppointmentStatus },
    details: Record<string, unknown>,
  ): Promise<AppointmentView[]> {
    const { providerId, status } = data;
    const dates = data.recurrence
      ? seriesDates({ date: data.date, time: data.time, zone: this.zone, ...data.recurrence })
      : [data.date];
    const occurrences = dates.map((date) => occurrence(date, data.time, data.duration, this.zone));
    this.refuseOffStep(data.time);
    this.refusePast(occurrences[0]!);
    await this.checkWorkingHours(providerId, occurrences, data.duration, {
      confirmed: data.allowOutsideHours === true,
      byPatient: caller.user.role === 'patient',
    });
    if (occurrences.length > 1) {
      await this.refuseSeriesConflicts(this.db, { providerId, patientId: data.patientId }, occurrences);
    }

    const seriesId = occurrences.length > 1 ? randomUUID() : null;
    const now = this.now();
    const rows: NewAppointmentRow[] = occurrences.map((o) => ({
      id: randomUUID(),
      patientId: data.patientId,
      providerId,
      startsAt: o.startsAt,
      endsAt: o.endsAt,
      timeZone: this.zone,
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
    const ids = await this.insertBooked(caller, rows, {
      ...details,
      ...(seriesId ? { seriesId } : {}),
    });
    return this.views(ids);
  }

  /**
   * The rows of a booking, their history, the audit entry and the listeners (invitations, reminders), then the
   * idempotency key, in one transaction where the exclusion constraints have the last word. Answers the ids.
   */
  async insertBooked(
    caller: Caller,
    rows: NewAppointmentRow[],
    details: Record<string, unknown>,
    /** Runs first in the same transaction (See now releasing the rest of a completed visit's time). */
    before?: (tx: Executor) => Promise<void>,
  ): Promise<string[]> {
    const ids = rows.map((r) => r.id!);
    const patientIds = [...new Set(rows.map((r) => r.patientId))];
    await this.write(async (tx) => {
      if (before) await before(tx);
      await insertAppointments(tx, rows, this.keyring);
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
      await scopeOf(this.db, caller).audit(tx, 'APPOINTMENT_CREATE', {
        appointmentIds: ids,
        patientIds,
        ...details,
      });
      await this.tell(tx, 'created', ids);
      // A series answers its first visit, so a retry answers it too.
      await recordIdempotencyKey(tx, caller, ids[0]!);
    });
    return ids;
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
    const now = this.now();
    await insertAppointments(
      tx,
      [{ ...values, id, timeZone: this.zone, status: 'confirmed', priority: 'normal', statusChangedAt: now }],
      this.keyring,
    );
    await insertAppointmentHistory(tx, [
      { appointmentId: id, action: 'created', toStatus: 'confirmed', toStartsAt: values.startsAt, at: now },
    ]);
    await actorScope(actor, 'claimWaitlistOffer').audit(tx, 'APPOINTMENT_CREATE', {
      appointmentIds: [id],
      patientIds: [values.patientId],
      ...details,
    });
    await this.tell(tx, 'created', [id]);
    return id;
  }

  /** A start time off the practice's step (15 or 30 minutes from midnight) is never offered, so never booked. */
  refuseOffStep(time: string): void {
    const step = this.settings.current().slotStepMinutes;
    if (!isOnSlotStep(time, step)) throw ruleError('time', 'appointmentMessages.offStep', { step });
  }

  refusePast(first: Occurrence): void {
    if (first.startsAt <= this.now()) throw fieldError('time', 'appointmentMessages.timeInPast');
  }

  requireTransition(from: AppointmentStatus, to: AppointmentStatus): void {
    if (!canTransition(from, to)) {
      throw new AppError(ERROR_CODES.wrongTransition, 'appointmentMessages.wrongTransition', { from, to });
    }
  }

  /**
   * Outside the provider's working hours or on their time off: refused with OUTSIDE_WORKING_HOURS unless the
   * caller (staff) confirmed it. The dates concerned are in `extensions.dates`.
   */
  async checkWorkingHours(
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
      findWorkingHours(this.db, providerId, this.settings.current().defaultWorkingHours),
      findTimeOff(this.db, providerId, { from: first, to: last }),
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
  async refuseSeriesConflicts(
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

  /** The appointment to change, if the caller's reach includes it; otherwise answered like a missing one. */
  async visibleForChange(caller: Caller, id: string, reach: AppointmentReach): Promise<AppointmentView> {
    return scopeOf(this.db, caller).find('appointment:update', id, {
      read: (db) => findVisibleAppointment(db, id, reach, this.keyring),
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
  async write(work: (tx: Executor) => Promise<void>): Promise<void> {
    try {
      await transactionWithRetry(this.db, work);
    } catch (error) {
      throw conflictOf(error) ?? error;
    }
  }

  async views(ids: string[]): Promise<AppointmentView[]> {
    const rows = await Promise.all(ids.map((id) => findVisibleAppointment(this.db, id, { kind: 'any' }, this.keyring)));
    return rows.filter((r): r is AppointmentView => r !== undefined);
  }

  async tell(tx: Executor, change: AppointmentChange, ids: string[], freed: FreedSlot[] = []): Promise<void> {
    const ahead = freed.filter((slot) => slot.startsAt > this.now());
    for (const listener of this.listeners) await listener.appointmentsChanged(tx, change, ids, ahead);
  }
}

/** Maps an overlap the exclusion constraints caught to PROVIDER_BUSY or PATIENT_BUSY; other errors as they are. */
export function conflictOf(error: unknown): AppError | null {
  const violation = exclusionViolation(error);
  if (violation === 'appointments_provider_no_overlap') {
    return new AppError(ERROR_CODES.providerBusy, 'appointmentMessages.providerBusy');
  }
  if (violation === 'appointments_patient_no_overlap') {
    return new AppError(ERROR_CODES.patientBusy, 'appointmentMessages.patientBusy');
  }
  return null;
}

/** A field's error with parameters (the booking rules' numbers). */
export function ruleError(field: string, messageId: MessageId, params: MessageParams): AppError {
  return fieldError(field, messageId, params);
}

/** The constraint an exclusion violation (SQLSTATE 23P01) names, through any wrapping error; else null. */
function exclusionViolation(error: unknown): string | null {
  const pgError = postgresErrorOf(error);
  return pgError?.code === '23P01' ? (pgError.constraint ?? null) : null;
}
