import { sql } from 'drizzle-orm';
import {
  addDays,
  canReschedule,
  canTransition,
  ERROR_CODES,
  holdsSlot,
  zonedDateTime,
  type AppointmentStatus,
  type CancellationKind,
  type SeriesScope,
  type updateAppointmentInputSchema,
} from '@telehealth/shared';
import type { z } from 'zod';
import { actorScope, scopeOf } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { AuditActor } from '../audit/audit.repository.ts';
import { AppError, fieldError } from '../errors.ts';
import {
  findSeriesFrom,
  insertAppointmentHistory,
  updateAppointmentRow,
  type AppointmentView,
  type NewAppointmentRow,
} from './appointments.repository.ts';
import type { BookingCore } from './booking-core.ts';
import { occurrence } from './schedule.ts';

type UpdateAppointmentData = z.output<ReturnType<typeof updateAppointmentInputSchema>>;

/**
 * The changes of an appointment already found within the caller's reach (staff's or a patient's own): moving and
 * editing it (a series' following occurrences too), cancelling it, and its statuses, including those a video
 * visit's steps bring. Built by AppointmentsService on the booking core; the callers ask the access questions.
 */
export class AppointmentChanges {
  readonly #core: BookingCore;

  constructor(core: BookingCore) {
    this.#core = core;
  }

  /**
   * A change of an appointment the caller may change (staff's, or a patient's own reschedule): a move is checked
   * like a booking. `status` (a patient's reschedule in request mode) puts the moved visit back to waiting for
   * the provider's confirmation.
   */
  async applyUpdate(
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
        ? await findSeriesFrom(this.#core.db, current.seriesId, current.startsAt, this.#core.keyring)
        : [current]
    ).filter((t) => t.id === current.id || canReschedule(t.status as AppointmentStatus));
    const moving =
      (changes.date !== undefined || changes.time !== undefined || changes.duration !== undefined) &&
      this.#isMove(current, changes);
    const now = this.#core.now();
    // Each target's new place: the same shift of days as the chosen one, at the new time and duration.
    const plans = targets.map((target) => {
      const at = zonedDateTime(target.startsAt, this.#core.zone);
      const dayShift = changes.date
        ? daysBetween(zonedDateTime(current.startsAt, this.#core.zone).date, changes.date)
        : 0;
      const date = addDays(at.date, dayShift);
      const time = changes.time ?? at.time;
      const duration = changes.duration ?? target.duration;
      return { target, next: occurrence(date, time, duration, this.#core.zone), duration };
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
      if (changes.time !== undefined && changes.time !== zonedDateTime(current.startsAt, this.#core.zone).time) {
        this.#core.refuseOffStep(changes.time);
      }
      for (const plan of plans) this.#core.refusePast(plan.next);
      await this.#core.checkWorkingHours(
        current.providerId,
        plans.map((p) => p.next),
        plans[0]!.duration,
        { confirmed: allowOutsideHours === true, byPatient: caller.user.role === 'patient' },
        plans.map((p) => p.duration),
      );
      if (plans.length > 1) {
        await this.#core.refuseSeriesConflicts(
          this.#core.db,
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
    await this.#core.write(async (tx) => {
      for (const { target, next, duration } of plans) {
        const values: Partial<NewAppointmentRow> = { updatedBy: caller.user.id };
        if (changes.appointmentType !== undefined) values.appointmentType = changes.appointmentType;
        if (changes.reason !== undefined) values.reason = changes.reason;
        if (changes.notes !== undefined) values.notes = changes.notes;
        if (changes.priority !== undefined) values.priority = changes.priority;
        const moved = moving && next.startsAt.getTime() !== target.startsAt.getTime();
        if (moving)
          Object.assign(values, { startsAt: next.startsAt, endsAt: next.endsAt, duration, timeZone: this.#core.zone });
        // The invitation shows the time and the kind of visit: a change to either raises its SEQUENCE.
        const invitationChanged =
          moving || (changes.appointmentType !== undefined && changes.appointmentType !== target.appointmentType);
        if (invitationChanged) values.sequence = target.sequence + 1;
        if (options.status && options.status !== target.status) {
          Object.assign(values, { status: options.status, statusChangedAt: now, statusChangedBy: caller.user.id });
        }
        await updateAppointmentRow(tx, target.id, values, this.#core.keyring);
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
      await scopeOf(this.#core.db, caller).audit(tx, 'APPOINTMENT_UPDATE', {
        appointmentIds: ids,
        patientIds: [current.patientId],
        fields,
        ...(moving ? { rescheduled: true } : {}),
        ...(options.status ? { status: options.status } : {}),
      });
      const freed = plans
        .filter((p) => moving && p.next.startsAt.getTime() !== p.target.startsAt.getTime())
        .map(({ target }) => ({ providerId: target.providerId, startsAt: target.startsAt, endsAt: target.endsAt }));
      await this.#core.tell(tx, moving ? 'rescheduled' : 'updated', ids, freed);
    });
    return this.#core.views(ids);
  }

  /** Cancels an appointment the caller may change (and, in a series, the following ones when asked). */
  async applyCancel(
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
        ? await findSeriesFrom(this.#core.db, current.seriesId, current.startsAt, this.#core.keyring)
        : [current]
    ).filter((t) => t.id === current.id || canTransition(t.status as AppointmentStatus, 'cancelled'));
    this.#core.requireTransition(current.status as AppointmentStatus, 'cancelled');
    const kind: CancellationKind = data.cancellationKind ?? (caller.user.role === 'patient' ? 'patient' : 'provider');
    const now = this.#core.now();
    const ids = targets.map((t) => t.id);
    await this.#core.write(async (tx) => {
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
          this.#core.keyring,
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
      await scopeOf(this.#core.db, caller).audit(tx, 'APPOINTMENT_UPDATE', {
        appointmentIds: ids,
        patientIds: [current.patientId],
        status: 'cancelled',
        cancellationKind: kind,
      });
      const freed = targets
        .filter((target) => holdsSlot(target.status as AppointmentStatus))
        .map(({ providerId, startsAt, endsAt }) => ({ providerId, startsAt, endsAt }));
      await this.#core.tell(tx, 'cancelled', ids, freed);
    });
    return this.#core.views(ids);
  }

  async applyStatus(caller: Caller, current: AppointmentView, status: AppointmentStatus): Promise<AppointmentView> {
    const id = current.id;
    const from = current.status as AppointmentStatus;
    this.#core.requireTransition(from, status);
    if (status === 'cancelled') throw fieldError('reason', 'appointmentMessages.cancelReasonRequired');
    if (
      (status === 'completed' || status === 'no-show' || status === 'in-progress') &&
      current.startsAt > this.#laterThanWindow()
    ) {
      throw new AppError(ERROR_CODES.wrongTransition, 'appointmentMessages.notStartedYet');
    }
    const now = this.#core.now();
    await this.#core.write(async (tx) => {
      await updateAppointmentRow(
        tx,
        id,
        { status, statusChangedAt: now, statusChangedBy: caller.user.id, updatedBy: caller.user.id },
        this.#core.keyring,
      );
      await insertAppointmentHistory(tx, [
        { appointmentId: id, action: 'status', fromStatus: from, toStatus: status, actorId: caller.user.id, at: now },
      ]);
      await scopeOf(this.#core.db, caller).audit(tx, 'APPOINTMENT_UPDATE', {
        appointmentIds: [id],
        patientIds: [current.patientId],
        status,
        from,
      });
      await this.#core.tell(tx, 'status', [id]);
    });
    const [view] = await this.#core.views([id]);
    return view!;
  }

  /**
   * A step of a video visit moves its appointment along (decision 026): checked-in when the patient arrives,
   * in-progress when the provider lets them in, completed when the provider ends the visit. Applied when the
   * transitions table allows it (a visit already in progress stays so after a reload), else left as it is;
   * answers whether it moved. The visit taking place is the proof that it began, so no time rule applies.
   */
  async advanceForVisit(id: string, status: AppointmentStatus, by: { userId: string | null; actor: AuditActor }) {
    const now = this.#core.now();
    let moved = false;
    await this.#core.write(async (tx) => {
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
        this.#core.keyring,
      );
      await insertAppointmentHistory(tx, [
        { appointmentId: id, action: 'status', fromStatus: from, toStatus: status, actorId: by.userId, at: now },
      ]);
      await actorScope(by.actor, 'videoVisit').audit(tx, 'APPOINTMENT_UPDATE', {
        appointmentIds: [id],
        patientIds: [row.patient_id],
        status,
        from,
      });
      await this.#core.tell(tx, 'status', [id]);
      moved = true;
    });
    return moved;
  }

  /** In-progress, completed and no-show need the visit to have begun (15 minutes' grace for an early start). */
  #laterThanWindow(): Date {
    return new Date(this.#core.now().getTime() + 15 * 60_000);
  }

  #isMove(current: AppointmentView, changes: { date?: string; time?: string; duration?: number }): boolean {
    const at = zonedDateTime(current.startsAt, this.#core.zone);
    return (
      (changes.date !== undefined && changes.date !== at.date) ||
      (changes.time !== undefined && changes.time !== at.time) ||
      (changes.duration !== undefined && changes.duration !== current.duration)
    );
  }
}

function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
