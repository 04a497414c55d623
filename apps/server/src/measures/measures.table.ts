import { INSTRUMENTS } from '@telehealth/shared';
import { sql } from 'drizzle-orm';
import { check, index, integer, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { encryptedCheck } from '../db/columns.ts';
import { appointments } from '../appointments/appointments.table.ts';
import { users } from '../auth/auth.table.ts';
import { patients } from '../patients/patients.table.ts';

/** The instruments a row may name, from the shared list: a new instrument widens the check with a migration. */
const instrumentIn = sql.raw(INSTRUMENTS.map((i) => `'${i}'`).join(', '));

/**
 * A questionnaire (PHQ-9, GAD-7, PCL-5 or AUDIT-C) sent to a patient (decisions 028, 063), then its answers. The answers are encrypted
 * (with their LOINC codes); the total and band stay plain so charts and reports can read them in SQL.
 */
export const measures = pgTable(
  'measures',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    instrument: text('instrument').notNull(),
    status: text('status').notNull().default('pending'),
    /** Who sent it; null when the before-each-visit job did. */
    requestedBy: uuid('requested_by').references(() => users.id),
    /** The visit it was sent before (the standing order), if any. */
    appointmentId: uuid('appointment_id').references(() => appointments.id),
    answers: text('answers'),
    total: integer('total'),
    band: text('band'),
    completedAt: timestamp('completed_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('measures_patient_idx').on(t.patientId, t.createdAt),
    uniqueIndex('measures_appointment_instrument_idx')
      .on(t.appointmentId, t.instrument)
      .where(sql`${t.appointmentId} IS NOT NULL`),
    check('measures_instrument_check', sql`${t.instrument} in (${instrumentIn})`),
    check('measures_status_check', sql`${t.status} in ('pending', 'completed', 'cancelled')`),
    check(
      'measures_completed_check',
      sql`(${t.status} = 'completed') = (${t.completedAt} IS NOT NULL AND ${t.answers} IS NOT NULL AND ${t.total} IS NOT NULL)`,
    ),
    encryptedCheck('measures', t.answers),
  ],
);

/** A standing order: send the patient this questionnaire before each visit. */
export const measureSchedules = pgTable(
  'measure_schedules',
  {
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    instrument: text('instrument').notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.patientId, t.instrument] }),
    check('measure_schedules_instrument_check', sql`${t.instrument} in (${instrumentIn})`),
  ],
);

/**
 * A safety alert (a PHQ-9 with item 9 above 0): open until one of the patient's providers acknowledges it with a
 * note; the providers are e-mailed (no patient, no answer) and, if nobody acknowledges it in time, the
 * administrators.
 */
export const safetyAlerts = pgTable(
  'safety_alerts',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    measureId: uuid('measure_id')
      .notNull()
      .unique()
      .references(() => measures.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    notifiedAt: timestamp('notified_at', { withTimezone: true }),
    escalatedAt: timestamp('escalated_at', { withTimezone: true }),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id),
    acknowledgement: text('acknowledgement'),
  },
  (t) => [
    index('safety_alerts_open_idx')
      .on(t.patientId, t.createdAt)
      .where(sql`${t.acknowledgedAt} IS NULL`),
    check(
      'safety_alerts_ack_check',
      sql`(${t.acknowledgedAt} IS NULL) = (${t.acknowledgedBy} IS NULL) AND (${t.acknowledgedAt} IS NULL) = (${t.acknowledgement} IS NULL)`,
    ),
    encryptedCheck('safety_alerts', t.acknowledgement),
  ],
);
