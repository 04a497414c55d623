import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  foreignKey,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { encryptedCheck, timestamps } from '../db/columns.ts';
import { users } from '../auth/auth.table.ts';
import { appointments } from '../appointments/appointments.table.ts';
import { patients } from '../patients/patients.table.ts';
import { providers } from '../providers/providers.table.ts';

// Getting paid (issue 30, decision 073). Codes and amounts stay plain, so the reports sum and group them in SQL;
// free text (a reason, a reference) is encrypted like the rest of a patient's record. Money is whole cents.

/**
 * The practice's services (its fee schedule): a CPT or HCPCS code, the practice's own short name for it, its fee,
 * and whether it is an add-on code. A service is never deleted once a visit was coded with it: it is made
 * inactive. `example` marks the starting rows the practice has not reviewed yet.
 */
export const feeSchedule = pgTable(
  'fee_schedule',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    code: text('code').notNull(),
    shortName: text('short_name').notNull(),
    feeCents: integer('fee_cents').notNull(),
    addOn: boolean('add_on').notNull().default(false),
    active: boolean('active').notNull().default(true),
    example: boolean('example').notNull().default(false),
    updatedBy: uuid('updated_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('fee_schedule_code_idx').on(t.code),
    check('fee_schedule_fee_check', sql`${t.feeCents} >= 0`),
    check('fee_schedule_code_check', sql`${t.code} ~ '^([0-9]{4}[0-9FT]|[A-V][0-9]{4})$'`),
  ],
);

/**
 * A visit's coding, one row per version: the place of service and the visit's diagnoses (ICD-10-CM codes in claim
 * order, A to D). Coding again writes version n + 1 and marks n superseded; the ledger gets the reversal of n's
 * charges and n + 1's charges, so the past is never edited.
 */
export const visitCodings = pgTable(
  'visit_codings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    providerId: uuid('provider_id')
      .notNull()
      .references(() => providers.id),
    version: integer('version').notNull(),
    placeOfService: text('place_of_service').notNull(),
    diagnosisCodes: text('diagnosis_codes').array().notNull(),
    /** The visit's date of service in the practice's zone, as the superbill prints it. */
    serviceDate: date('service_date', { mode: 'string' }).notNull(),
    codedBy: uuid('coded_by')
      .notNull()
      .references(() => users.id),
    codedAt: timestamp('coded_at', { withTimezone: true }).notNull().defaultNow(),
    /** When a later version replaced this one (null: the current coding). */
    supersededAt: timestamp('superseded_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('visit_codings_version_idx').on(t.appointmentId, t.version),
    uniqueIndex('visit_codings_current_idx')
      .on(t.appointmentId)
      .where(sql`${t.supersededAt} IS NULL`),
    index('visit_codings_patient_idx').on(t.patientId, t.serviceDate),
    index('visit_codings_provider_idx').on(t.providerId, t.serviceDate),
    check('visit_codings_place_check', sql`${t.placeOfService} in ('02', '10', '11')`),
    check('visit_codings_diagnoses_check', sql`cardinality(${t.diagnosisCodes}) between 1 and 4`),
  ],
);

/**
 * A service of a coding version: the fee schedule's code and short name and the unit fee as they were when coded
 * (a later change of the fee schedule does not change a past visit), units, modifiers and the diagnosis pointers
 * (1-based positions in the coding's diagnosis codes).
 */
export const visitCodingLines = pgTable(
  'visit_coding_lines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    codingId: uuid('coding_id')
      .notNull()
      .references(() => visitCodings.id),
    position: integer('position').notNull(),
    feeItemId: uuid('fee_item_id')
      .notNull()
      .references(() => feeSchedule.id),
    code: text('code').notNull(),
    shortName: text('short_name').notNull(),
    addOn: boolean('add_on').notNull(),
    units: integer('units').notNull(),
    modifiers: text('modifiers').array().notNull(),
    diagnosisPointers: integer('diagnosis_pointers').array().notNull(),
    unitFeeCents: integer('unit_fee_cents').notNull(),
  },
  (t) => [
    uniqueIndex('visit_coding_lines_position_idx').on(t.codingId, t.position),
    check('visit_coding_lines_units_check', sql`${t.units} between 1 and 24`),
    check('visit_coding_lines_fee_check', sql`${t.unitFeeCents} >= 0`),
    check('visit_coding_lines_modifiers_check', sql`cardinality(${t.modifiers}) <= 4`),
    check('visit_coding_lines_pointers_check', sql`cardinality(${t.diagnosisPointers}) between 1 and 4`),
  ],
);

/**
 * A patient's ledger: append-only (migration 0041's trigger refuses UPDATE and DELETE). `amountCents` is signed
 * by its effect on what the patient owes: a charge adds, a payment subtracts, an adjustment adds or subtracts, a
 * reversal is the exact opposite of the entry it reverses (`reversesId`; at most one reversal per entry). The
 * balance is the sum. `entryDate` is the day it counts for in the practice's calendar: a charge's date of service,
 * the day a payment was received, the day an adjustment or reversal was entered.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    /** The provider the money is for: a charge's rendering provider; a payment's or adjustment's visit's. */
    providerId: uuid('provider_id').references(() => providers.id),
    appointmentId: uuid('appointment_id').references(() => appointments.id),
    /** A charge's service line. */
    codingLineId: uuid('coding_line_id').references(() => visitCodingLines.id),
    kind: text('kind').notNull(),
    amountCents: bigint('amount_cents', { mode: 'number' }).notNull(),
    entryDate: date('entry_date', { mode: 'string' }).notNull(),
    /** A payment's method. */
    method: text('method'),
    /** A payment's check number or receipt reference (encrypted). */
    reference: text('reference'),
    /** Why an adjustment or a reversal was made (encrypted). */
    reason: text('reason'),
    reversesId: uuid('reverses_id'),
    enteredBy: uuid('entered_by')
      .notNull()
      .references(() => users.id),
    enteredAt: timestamp('entered_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ledger_entries_patient_idx').on(t.patientId, t.entryDate, t.enteredAt),
    index('ledger_entries_provider_idx').on(t.providerId, t.entryDate),
    index('ledger_entries_appointment_idx')
      .on(t.appointmentId)
      .where(sql`${t.appointmentId} IS NOT NULL`),
    foreignKey({ name: 'ledger_entries_reverses_id_fkey', columns: [t.reversesId], foreignColumns: [t.id] }),
    uniqueIndex('ledger_entries_one_reversal_idx')
      .on(t.reversesId)
      .where(sql`${t.reversesId} IS NOT NULL`),
    check('ledger_entries_kind_check', sql`${t.kind} in ('charge', 'payment', 'adjustment', 'reversal')`),
    check('ledger_entries_amount_check', sql`${t.amountCents} <> 0`),
    check(
      'ledger_entries_sign_check',
      sql`(${t.kind} = 'charge' AND ${t.amountCents} > 0) OR (${t.kind} = 'payment' AND ${t.amountCents} < 0) OR ${t.kind} in ('adjustment', 'reversal')`,
    ),
    check(
      'ledger_entries_method_check',
      sql`(${t.kind} = 'payment') = (${t.method} IS NOT NULL) AND (${t.method} IS NULL OR ${t.method} in ('cash', 'check', 'card', 'insurance'))`,
    ),
    check('ledger_entries_charge_line_check', sql`${t.kind} <> 'charge' OR ${t.codingLineId} IS NOT NULL`),
    check('ledger_entries_reversal_check', sql`(${t.kind} = 'reversal') = (${t.reversesId} IS NOT NULL)`),
    check('ledger_entries_reason_check', sql`${t.kind} not in ('adjustment', 'reversal') OR ${t.reason} IS NOT NULL`),
    ...[t.reference, t.reason].map((column) => encryptedCheck('ledger_entries', column)),
  ],
);
