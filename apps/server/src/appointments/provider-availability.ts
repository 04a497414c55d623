import {
  addDays,
  AddTimeOffInputSchema,
  AvailableSlotsInputSchema,
  preferredTimesCovered,
  RecordIdSchema,
  SetWorkingHoursInputSchema,
  type PreferredAppointmentTime,
  type WorkingHoursInterval,
} from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf } from '../access/scope.ts';
import { isUuid } from '../db/ids.ts';
import { fieldError, notFound, parseInput } from '../errors.ts';
import {
  deleteTimeOff,
  findActiveProviderWeeks,
  findDaySchedule,
  findTimeOff,
  findWorkingHours,
  insertTimeOff,
  replaceWorkingHours,
  type DaySchedule,
  type TimeOffRow,
} from './availability.repository.ts';
import type { BookingCore } from './booking-core.ts';
import { daySlots, occurrence } from './schedule.ts';

/** What the practice's working hours cover as a whole (public; no provider named). */
export interface PracticeHours {
  slotStepMinutes: number;
  /** HH:MM; null when no provider works at all. */
  earliestStart: string | null;
  latestEnd: string | null;
  preferredTimes: PreferredAppointmentTime[];
}

/**
 * A provider's working hours and time off, the free start times of a day they give, and what the practice's
 * hours cover as a whole. Built by AppointmentsService on the booking core (its settings, clock and database).
 */
export class ProviderAvailability {
  readonly #core: BookingCore;

  constructor(core: BookingCore) {
    this.#core = core;
  }

  /** The start times a provider's working hours offer on a date (in the practice's step), each free or why not. */
  async availableSlots(caller: Caller, input: unknown) {
    const data = parseInput(AvailableSlotsInputSchema, input);
    await authorize(this.#core.db, caller, 'appointment:create', { record: { providerId: data.providerId } });
    const schedule = isUuid(data.providerId) ? await this.#daySchedule(data.providerId, data.date) : null;
    if (!schedule?.active) throw fieldError('providerId', 'appointmentMessages.selectProvider');
    return this.#slotsOf(schedule, data.date, data.duration, this.#core.now());
  }

  async daySlots(providerId: string, date: string, duration: number, now: Date) {
    return this.#slotsOf(await this.#daySchedule(providerId, date), date, duration, now);
  }

  /** The provider's week, time off and busy times of the date (and whether they are active), in one read. */
  #daySchedule(providerId: string, date: string): Promise<DaySchedule> {
    const from = occurrence(date, '00:00', 15, this.#core.zone).startsAt;
    const to = occurrence(addDays(date, 1), '00:00', 15, this.#core.zone).startsAt;
    return findDaySchedule(
      this.#core.db,
      providerId,
      { date, from, to },
      this.#core.settings.current().defaultWorkingHours,
    );
  }

  #slotsOf(schedule: DaySchedule, date: string, duration: number, now: Date) {
    const { week, timeOff, busy } = schedule;
    const step = this.#core.settings.current().slotStepMinutes;
    return daySlots({ date, duration, step, zone: this.#core.zone, week: week.intervals, timeOff, busy, now });
  }

  /**
   * Public (the patient's access-request form, the calendar): what the practice's hours cover as a whole, never
   * whose hours they are. The step of its start times, the earliest start and latest end of any provider's week,
   * and the preferred appointment times (the specification's options) someone's hours cover.
   */
  async practiceHours(): Promise<PracticeHours> {
    const settings = this.#core.settings.current();
    const weeks = await findActiveProviderWeeks(this.#core.db, settings.defaultWorkingHours);
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
    await authorize(this.#core.db, caller, 'availability:manage', { record: { providerId: id } });
    if (!isUuid(id) || !(await this.#core.isActiveProvider(id))) throw notFound('appointmentMessages.providerNotFound');
    const [week, timeOff] = await Promise.all([
      findWorkingHours(this.#core.db, id, this.#core.settings.current().defaultWorkingHours),
      findTimeOff(this.#core.db, id, { from: addDays(this.#core.today(), -30) }),
    ]);
    return { providerId: id, custom: week.custom, workingHours: week.intervals, timeOff };
  }

  async setWorkingHours(caller: Caller, input: unknown) {
    const data = parseInput(SetWorkingHoursInputSchema, input);
    await authorize(this.#core.db, caller, 'availability:manage', { record: { providerId: data.providerId } });
    if (!isUuid(data.providerId) || !(await this.#core.isActiveProvider(data.providerId))) {
      throw notFound('appointmentMessages.providerNotFound');
    }
    const intervals: WorkingHoursInterval[] = data.intervals;
    await this.#core.db.transaction(async (tx) => {
      await replaceWorkingHours(tx, data.providerId, intervals, caller.user.id);
      await scopeOf(this.#core.db, caller).audit(tx, 'AVAILABILITY_UPDATE', {
        providerId: data.providerId,
        intervals: intervals.length,
      });
    });
    return this.availability(caller, data.providerId);
  }

  async addTimeOff(caller: Caller, input: unknown): Promise<TimeOffRow> {
    const data = parseInput(AddTimeOffInputSchema, input);
    await authorize(this.#core.db, caller, 'availability:manage', { record: { providerId: data.providerId } });
    if (!isUuid(data.providerId) || !(await this.#core.isActiveProvider(data.providerId))) {
      throw notFound('appointmentMessages.providerNotFound');
    }
    return this.#core.db.transaction(async (tx) => {
      const row = await insertTimeOff(tx, {
        providerId: data.providerId,
        startDate: data.startDate,
        endDate: data.endDate,
        label: data.label ?? null,
        createdBy: caller.user.id,
      });
      await scopeOf(this.#core.db, caller).audit(tx, 'AVAILABILITY_UPDATE', {
        providerId: data.providerId,
        timeOffId: row.id,
        added: true,
      });
      return row;
    });
  }

  async removeTimeOff(caller: Caller, input: { providerId: string; id: string }): Promise<{ id: string }> {
    const providerId = parseInput(RecordIdSchema, input.providerId);
    const id = parseInput(RecordIdSchema, input.id);
    await authorize(this.#core.db, caller, 'availability:manage', { record: { providerId } });
    const removed =
      isUuid(providerId) &&
      isUuid(id) &&
      (await this.#core.db.transaction(async (tx) => {
        const done = await deleteTimeOff(tx, providerId, id);
        if (done) {
          await scopeOf(this.#core.db, caller).audit(tx, 'AVAILABILITY_UPDATE', {
            providerId,
            timeOffId: id,
            removed: true,
          });
        }
        return done;
      }));
    if (!removed) throw notFound('appointmentMessages.timeOffNotFound');
    return { id };
  }
}
