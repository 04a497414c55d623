import { sql } from 'drizzle-orm';
import {
  bigserial,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { encryptedCheck, timestamps } from '../db/columns.ts';
import { users } from '../auth/auth.table.ts';
import { patients } from '../patients/patients.table.ts';
import { providers } from '../providers/providers.table.ts';

/**
 * Appointments (decision 023). A visit of a patient with a provider from `startsAt` to `endsAt`, booked as a
 * date and time in `timeZone` (the practice's zone when it was booked). The exclusion constraints of migration
 * 0009, which Drizzle cannot express, keep two slot-holding appointments of one provider, or of one patient,
 * from overlapping. The reason, notes and cancellation reason are encrypted like the patient's clinical text.
 * `sequence` is the iCalendar SEQUENCE: raised on every change the patient's invitation must follow;
 * `invitationSequence` is the last one whose invitation was queued, null before the first.
 */
export const appointments = pgTable(
  'appointments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    timeZone: text('time_zone').notNull(),
    duration: integer('duration').notNull(),
    appointmentType: text('appointment_type').notNull(),
    status: text('status').notNull(),
    priority: text('priority').notNull().default('normal'),
    reason: text('reason').notNull(),
    notes: text('notes'),
    seriesId: uuid('series_id'),
    sequence: integer('sequence').notNull().default(0),
    invitationSequence: integer('invitation_sequence'),
    cancellationKind: text('cancellation_kind'),
    cancelReason: text('cancel_reason'),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelledBy: uuid('cancelled_by').references(() => users.id),
    createdBy: uuid('created_by').references(() => users.id),
    updatedBy: uuid('updated_by').references(() => users.id),
    statusChangedAt: timestamp('status_changed_at', { withTimezone: true }).notNull().defaultNow(),
    statusChangedBy: uuid('status_changed_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    index('appointments_provider_start_idx').on(t.providerId, t.startsAt, t.id),
    index('appointments_patient_start_idx').on(t.patientId, t.startsAt, t.id),
    index('appointments_start_idx').on(t.startsAt, t.id),
    index('appointments_series_idx')
      .on(t.seriesId, t.startsAt)
      .where(sql`${t.seriesId} IS NOT NULL`),
    check('appointments_time_order', sql`${t.endsAt} > ${t.startsAt}`),
    check('appointments_duration_check', sql`${t.duration} in (15, 30, 45, 60, 90)`),
    check('appointments_type_check', sql`${t.appointmentType} in ('in-person', 'video')`),
    check(
      'appointments_status_check',
      sql`${t.status} in ('scheduled', 'pending', 'confirmed', 'checked-in', 'in-progress', 'completed', 'cancelled', 'no-show')`,
    ),
    check('appointments_priority_check', sql`${t.priority} in ('normal', 'high', 'urgent')`),
    check(
      'appointments_cancellation_check',
      sql`(${t.status} = 'cancelled') = (${t.cancellationKind} IS NOT NULL) AND (${t.cancellationKind} IS NULL OR ${t.cancellationKind} in ('patient', 'provider', 'late'))`,
    ),
    ...[t.reason, t.notes, t.cancelReason].map((column) => encryptedCheck('appointments', column)),
  ],
);

/**
 * What happened to an appointment, oldest first: created, rescheduled (from and to), a change of status,
 * cancelled. Who and when; never the reason or notes (those stay in the encrypted columns).
 */
export const appointmentHistory = pgTable(
  'appointment_history',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id),
    action: text('action').notNull(),
    fromStatus: text('from_status'),
    toStatus: text('to_status'),
    fromStartsAt: timestamp('from_starts_at', { withTimezone: true }),
    toStartsAt: timestamp('to_starts_at', { withTimezone: true }),
    fields: jsonb('fields').$type<string[]>(),
    actorId: uuid('actor_id').references(() => users.id),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('appointment_history_appointment_idx').on(t.appointmentId, t.id),
    check(
      'appointment_history_action_check',
      sql`${t.action} in ('created', 'updated', 'rescheduled', 'status', 'cancelled')`,
    ),
  ],
);

/**
 * A provider's weekly working hours in the practice's zone; a provider without rows has the default hours
 * (DEFAULT_WORKING_HOURS) until they set their own, after which `provider_schedules.custom` is true.
 */
export const providerWorkingHours = pgTable(
  'provider_working_hours',
  {
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    weekday: integer('weekday').notNull(),
    startTime: text('start_time').notNull(),
    endTime: text('end_time').notNull(),
  },
  (t) => [
    uniqueIndex('provider_working_hours_pk').on(t.providerId, t.weekday, t.startTime),
    check('provider_working_hours_weekday_check', sql`${t.weekday} between 1 and 7`),
    check('provider_working_hours_order_check', sql`${t.startTime} < ${t.endTime}`),
  ],
);

/** Whether a provider has set their own hours (an empty week is then a week without hours). */
export const providerSchedules = pgTable('provider_schedules', {
  providerId: uuid('provider_id')
    .primaryKey()
    .references(() => providers.id),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  updatedBy: uuid('updated_by').references(() => users.id),
});

/** A provider's time off: whole practice dates from `startDate` to `endDate`, both included. */
export const providerTimeOff = pgTable(
  'provider_time_off',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    label: text('label'),
    createdBy: uuid('created_by').references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('provider_time_off_provider_idx').on(t.providerId, t.startDate),
    check('provider_time_off_order_check', sql`${t.startDate} <= ${t.endDate}`),
  ],
);

/**
 * The reminders that went out: one per appointment, hours before, and start. A reminder job that runs twice (or
 * again after a restart) finds its row and sends nothing; a rescheduled appointment has a new start, so its
 * reminders go out again for the new time.
 */
export const appointmentReminders = pgTable(
  'appointment_reminders',
  {
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id),
    hoursBefore: integer('hours_before').notNull(),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('appointment_reminders_once_idx').on(t.appointmentId, t.hoursBefore, t.startsAt)],
);

/**
 * Patients waiting for an earlier visit with a provider: which days (ISO weekdays) and part of the day suit them,
 * between which practice dates, for how long. The reason is encrypted like an appointment's; it becomes the
 * appointment's reason when an offer is claimed.
 */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    fromDate: date('from_date', { mode: 'string' }).notNull(),
    toDate: date('to_date', { mode: 'string' }).notNull(),
    weekdays: integer('weekdays').array().notNull(),
    timeOfDay: text('time_of_day').notNull(),
    duration: integer('duration').notNull(),
    appointmentType: text('appointment_type').notNull(),
    reason: text('reason').notNull(),
    status: text('status').notNull().default('waiting'),
    appointmentId: uuid('appointment_id').references(() => appointments.id),
    createdBy: uuid('created_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    index('waitlist_entries_provider_idx').on(t.providerId, t.status, t.createdAt),
    check('waitlist_entries_status_check', sql`${t.status} in ('waiting', 'booked', 'removed')`),
    check('waitlist_entries_time_of_day_check', sql`${t.timeOfDay} in ('any', 'morning', 'afternoon')`),
    check('waitlist_entries_range_check', sql`${t.fromDate} <= ${t.toDate}`),
    encryptedCheck('waitlist_entries', t.reason),
  ],
);

/**
 * A freed slot offered to a waiting patient by an e-mailed link (only the token's SHA-256 is kept). Several
 * patients may hold an offer for one slot; the first to claim it gets the appointment and the others' offers
 * become `gone`.
 */
export const waitlistOffers = pgTable(
  'waitlist_offers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    entryId: uuid('entry_id')
      .notNull()
      .references(() => waitlistEntries.id),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    endsAt: timestamp('ends_at', { withTimezone: true }).notNull(),
    tokenHash: text('token_hash').notNull(),
    status: text('status').notNull().default('open'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    appointmentId: uuid('appointment_id').references(() => appointments.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('waitlist_offers_token_idx').on(t.tokenHash),
    index('waitlist_offers_slot_idx').on(t.providerId, t.startsAt),
    uniqueIndex('waitlist_offers_once_idx').on(t.entryId, t.startsAt),
    check('waitlist_offers_status_check', sql`${t.status} in ('open', 'claimed', 'gone')`),
  ],
);

/**
 * A provider's private calendar feed (subscribed to from another calendar application): the SHA-256 of the
 * token in its URL. One per provider; making a new one or revoking it ends the old URL.
 */
export const calendarFeeds = pgTable('calendar_feeds', {
  providerId: uuid('provider_id')
    .primaryKey()
    .references(() => providers.id),
  tokenHash: text('token_hash').notNull().unique(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  lastReadAt: timestamp('last_read_at', { withTimezone: true }),
});
