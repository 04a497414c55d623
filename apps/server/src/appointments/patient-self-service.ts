import {
  AppointmentDateSchema,
  BookAppointmentInputSchema,
  canReschedule,
  CancelMyAppointmentInputSchema,
  canTransition,
  changeDeadline,
  clinicContactMessage,
  earliestBooking,
  ERROR_CODES,
  lastBookableDate,
  RecordIdSchema,
  RescheduleMyAppointmentInputSchema,
  type AppointmentStatus,
  type BookingPolicy,
  type ClinicContactMessageId,
} from '@telehealth/shared';
import { authorize, refuse } from '../access/authorize.ts';
import { scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import { AppError, fieldExtensions, fieldProblem, parseInput, type ErrorCode } from '../errors.ts';
import { findLinkedPatient } from '../patients/patient-accounts.repository.ts';
import type { AppointmentChanges } from './appointment-changes.ts';
import { appointmentExists, findVisibleAppointment, type AppointmentView } from './appointments.repository.ts';
import { ruleError, type BookingCore } from './booking-core.ts';
import type { ProviderAvailability } from './provider-availability.ts';
import { occurrence, type Occurrence } from './schedule.ts';

/**
 * A patient's own visits (issue 15, decision 030): booking with their own provider under the practice's booking
 * policy, the times they may book, confirming, cancelling and moving a visit until the policy's window before it.
 * Built by AppointmentsService on the same booking core and changes as staff's; refusals send the patient to the
 * clinic.
 */
export class PatientSelfService {
  readonly #core: BookingCore;
  readonly #changes: AppointmentChanges;
  readonly #availability: ProviderAvailability;

  constructor(core: BookingCore, changes: AppointmentChanges, availability: ProviderAvailability) {
    this.#core = core;
    this.#changes = changes;
    this.#availability = availability;
  }

  /**
   * A patient books a visit for their own record with their own provider (the record's primary provider),
   * through the same path as staff (`BookingCore.book`) plus the practice's rules: the kinds of visit patients
   * may book, the minimum notice and the horizon; never outside working hours. Instant mode confirms it; request
   * mode leaves it pending (holding the slot) until the provider confirms it.
   */
  async bookOwn(caller: Caller, input: unknown): Promise<AppointmentView> {
    const reach = await authorize(this.#core.db, caller, 'appointment:book');
    const data = parseInput(BookAppointmentInputSchema, input);
    const policy = await this.#core.policy.current();
    const patient = await this.#linkedPatient(caller);
    const providerId = patient.ownerId;
    if (!providerId || !(await this.#core.isActiveProvider(providerId))) {
      throw this.#clinicContactError(ERROR_CODES.badUserInput, 'bookingMessages.noProvider');
    }
    // Only their own provider: naming another is refused like any record out of reach.
    if (reach.kind === 'own' && data.providerId && data.providerId !== providerId) {
      return refuse(this.#core.db, caller, 'appointmentMessages.cannotCreate', {
        permission: 'appointment:book:any',
        reason: "not the patient's own provider",
      });
    }
    if (!policy.appointmentTypes.includes(data.appointmentType)) {
      throw this.#clinicContactError(ERROR_CODES.badUserInput, 'bookingMessages.typeNotBookable', 'appointmentType');
    }
    const at = occurrence(data.date, data.time, policy.duration, this.#core.zone);
    this.#requireBookable(at, policy);
    const status: AppointmentStatus = policy.mode === 'instant' ? 'confirmed' : 'pending';
    const [view] = await this.#core.book(
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

  /**
   * The times a patient may book on a date with their own provider, for the policy's visit length: a time
   * inside the minimum notice counts as past; a date past the horizon is refused.
   */
  async ownSlots(caller: Caller, input: { date: unknown }) {
    await authorize(this.#core.db, caller, 'appointment:book');
    const date = parseInput(AppointmentDateSchema, input.date);
    const policy = await this.#core.policy.current();
    const patient = await this.#linkedPatient(caller);
    if (!patient.ownerId || !(await this.#core.isActiveProvider(patient.ownerId))) {
      throw this.#clinicContactError(ERROR_CODES.badUserInput, 'bookingMessages.noProvider');
    }
    if (date > lastBookableDate(this.#core.today(), policy)) {
      throw ruleError('date', 'bookingMessages.tooFar', { count: policy.horizonDays });
    }
    return this.#availability.daySlots(
      patient.ownerId,
      date,
      policy.duration,
      earliestBooking(this.#core.now(), policy),
    );
  }

  /** "I'll be there": a patient confirms an upcoming visit the practice booked (scheduled → confirmed). */
  async confirmOwn(caller: Caller, id: string): Promise<AppointmentView> {
    const current = await this.#ownForChange(caller, id);
    if (current.status !== 'scheduled' || current.startsAt <= this.#core.now()) {
      throw new AppError(ERROR_CODES.wrongTransition, 'bookingMessages.cannotConfirm');
    }
    return this.#changes.applyStatus(caller, current, 'confirmed');
  }

  /** A patient cancels their own visit, until the policy's window before it. */
  async cancelOwn(caller: Caller, input: unknown): Promise<AppointmentView> {
    const data = parseInput(CancelMyAppointmentInputSchema, input);
    const current = await this.#ownForChange(caller, data.id);
    const policy = await this.#core.policy.current();
    if (!canTransition(current.status as AppointmentStatus, 'cancelled')) {
      throw this.#clinicContactError(ERROR_CODES.wrongTransition, 'bookingMessages.cannotChange');
    }
    this.#requireChangeWindow(current, policy);
    const [view] = await this.#changes.applyCancel(caller, current, {
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
    const policy = await this.#core.policy.current();
    if (!canReschedule(current.status as AppointmentStatus)) {
      throw this.#clinicContactError(ERROR_CODES.wrongTransition, 'bookingMessages.cannotChange');
    }
    this.#requireChangeWindow(current, policy);
    this.#requireBookable(occurrence(data.date, data.time, current.duration, this.#core.zone), policy);
    const [view] = await this.#changes.applyUpdate(caller, current, {
      scope: 'this',
      changes: { date: data.date, time: data.time },
      ...(policy.mode === 'request' ? { status: 'pending' as const } : {}),
    });
    return view!;
  }

  /** The patient record linked to the caller's account; without one, nothing can be booked. */
  async #linkedPatient(caller: Caller): Promise<{ id: string; ownerId: string | null }> {
    const patient = await findLinkedPatient(this.#core.db, caller.user.id);
    if (!patient) throw this.#clinicContactError(ERROR_CODES.badUserInput, 'bookingMessages.noPatientRecord');
    return patient;
  }

  /** A patient's own appointment to change (appointment:manage), or answered like a missing one. */
  async #ownForChange(caller: Caller, id: string): Promise<AppointmentView> {
    const reach = await authorize(this.#core.db, caller, 'appointment:manage');
    const checked = parseInput(RecordIdSchema, id);
    return scopeOf(this.#core.db, caller).find('appointment:manage', checked, {
      read: (db) => findVisibleAppointment(db, checked, reach, this.#core.keyring),
      exists: (db) => appointmentExists(db, checked),
      missing: 'appointmentMessages.notFound',
      denial: { appointmentIds: [checked] },
    });
  }

  /** The minimum notice and the horizon of a patient's booking. */
  #requireBookable(at: Occurrence, policy: BookingPolicy): void {
    this.#core.refusePast(at);
    if (at.startsAt < earliestBooking(this.#core.now(), policy)) {
      throw ruleError('time', 'bookingMessages.tooSoon', { count: policy.minNoticeHours });
    }
    if (at.date > lastBookableDate(this.#core.today(), policy)) {
      throw ruleError('date', 'bookingMessages.tooFar', { count: policy.horizonDays });
    }
  }

  /** Inside the window before a visit, a patient is asked to call the clinic instead. */
  #requireChangeWindow(current: AppointmentView, policy: BookingPolicy): void {
    if (this.#core.now() < changeDeadline(current.startsAt, policy)) return;
    const { id, params } = clinicContactMessage('bookingMessages.changeWindowClosed', this.#core.clinicPhone, {
      count: policy.changeWindowHours,
    });
    throw new AppError(ERROR_CODES.badUserInput, id, params, { reason: 'changeWindow' });
  }

  /**
   * A refusal that sends the patient to the clinic: with its number when the practice has one, else without
   * asking for a call (decision 048); on `field` when it is about one.
   */
  #clinicContactError(code: ErrorCode, messageId: ClinicContactMessageId, field?: string): AppError {
    const { id, params } = clinicContactMessage(messageId, this.#core.clinicPhone);
    return new AppError(code, id, params, field ? fieldExtensions([fieldProblem(field, id, params)]) : {});
  }
}
