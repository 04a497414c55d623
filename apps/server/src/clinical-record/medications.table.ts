import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  date,
  index,
  integer,
  numeric,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { encryptedCheck } from '../db/columns.ts';
import { users } from '../auth/auth.table.ts';
import { notes } from '../notes/notes.table.ts';
import { patients } from '../patients/patients.table.ts';
import { diagnoses } from './diagnoses.table.ts';

/** The dose as it is now (on the medication) or became (on an event): the structured sig. */
const doseColumns = () => ({
  strength: text('strength'),
  doseAmount: numeric('dose_amount', { precision: 12, scale: 4, mode: 'number' }),
  doseUnit: text('dose_unit'),
  route: text('route'),
  frequency: text('frequency'),
  asNeeded: boolean('as_needed'),
  asNeededReason: text('as_needed_reason'),
});

/**
 * A patient's medication (issue 27, decision 062): the drug, its current dose and status, quantity, refills,
 * prescriber and indication. Its history is in medication_events. The drug's class and status stay plain so the
 * outcome reports group by them in SQL; the drug's and brand's names, the prescriber and the as-needed reason are
 * encrypted, the structured dose (numbers and option keys) is not.
 */
export const medications = pgTable(
  'medications',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    drugName: text('drug_name').notNull(),
    brandName: text('brand_name'),
    /** The catalogue's class, or the one the provider chose for a drug typed in; null when none was. */
    drugClass: text('drug_class'),
    /** Whether the drug is in the product's catalogue. */
    listed: boolean('listed').notNull(),
    controlledSchedule: text('controlled_schedule'),
    form: text('form'),
    ...doseColumns(),
    quantity: integer('quantity'),
    refills: integer('refills'),
    prescriber: text('prescriber'),
    indicationId: uuid('indication_id').references(() => diagnoses.id),
    /**
     * Who put it on the list: `clinician` (started by a provider), or `patient` (reported in an accepted intake,
     * decision 067). A reported one carries the dose as the patient wrote it instead of a structured dose, and no
     * `started` event: the practice did not start it.
     */
    source: text('source').notNull().default('clinician'),
    /** The dose and how often, as the patient wrote them (a reported medication only). */
    reportedDose: text('reported_dose'),
    status: text('status').notNull(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    /** The date of the last change (start, dose, hold, resume, stop): no later event may be dated before it. */
    lastChangeDate: date('last_change_date', { mode: 'string' }).notNull(),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('medications_patient_idx').on(t.patientId),
    check('medications_status_check', sql`${t.status} in ('active', 'held', 'stopped')`),
    check('medications_source_check', sql`${t.source} in ('clinician', 'patient')`),
    // A structured dose, but on a reported medication until a provider sets one.
    check(
      'medications_dose_check',
      sql`(${t.source} = 'patient' AND ${t.doseAmount} IS NULL) OR (${t.doseAmount} > 0 AND ${t.doseUnit} IS NOT NULL AND ${t.route} IS NOT NULL AND ${t.frequency} IS NOT NULL AND ${t.asNeeded} IS NOT NULL)`,
    ),
    encryptedCheck('medications', t.drugName),
    encryptedCheck('medications', t.brandName),
    encryptedCheck('medications', t.prescriber),
    encryptedCheck('medications', t.asNeededReason),
    encryptedCheck('medications', t.reportedDose),
  ],
);

/**
 * A medication's history, one dated event per change: started, dose changed (with the new dose), held, resumed,
 * stopped; with its reason (encrypted), who recorded it and, when it was made from a note, the note.
 */
export const medicationEvents = pgTable(
  'medication_events',
  {
    id: uuid('id').primaryKey(),
    medicationId: uuid('medication_id')
      .notNull()
      .references(() => medications.id),
    /** The event's order within its medication, from 1. */
    sequence: integer('sequence').notNull(),
    kind: text('kind').notNull(),
    effectiveDate: date('effective_date', { mode: 'string' }).notNull(),
    ...doseColumns(),
    reason: text('reason'),
    noteId: uuid('note_id').references(() => notes.id),
    recordedBy: uuid('recorded_by')
      .notNull()
      .references(() => users.id),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('medication_events_sequence_idx').on(t.medicationId, t.sequence),
    index('medication_events_note_idx').on(t.noteId),
    // A start and a dose change carry the dose they set; the other events none.
    check(
      'medication_events_dose_check',
      sql`(${t.kind} in ('started', 'dose-changed')) = (${t.doseAmount} IS NOT NULL)`,
    ),
    check('medication_events_kind_check', sql`${t.kind} in ('started', 'dose-changed', 'held', 'resumed', 'stopped')`),
    encryptedCheck('medication_events', t.reason),
    encryptedCheck('medication_events', t.asNeededReason),
  ],
);
