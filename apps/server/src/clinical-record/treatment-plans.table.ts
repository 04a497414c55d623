import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { encryptedCheck } from '../db/columns.ts';
import { users } from '../auth/auth.table.ts';
import { patients } from '../patients/patients.table.ts';

/** A patient's treatment plan (issue 27, point 3): one per patient; its content lives in its versions. */
export const treatmentPlans = pgTable(
  'treatment_plans',
  {
    id: uuid('id').primaryKey(),
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('treatment_plans_patient_idx').on(t.patientId)],
);

/**
 * Every version of a plan. A version is a draft until the provider signs it; a signed version is never changed
 * (but for the patient's acknowledgement): editing the plan after a signature starts the next version's draft. At
 * most one draft per plan. The content (the problems as ids with their code and title at the time, the goals, the
 * interventions) is JSON encrypted with the data keys; the status and the dates stay plain so the review job and
 * the dashboard's list find plans due in SQL.
 */
export const treatmentPlanVersions = pgTable(
  'treatment_plan_versions',
  {
    id: uuid('id').primaryKey(),
    planId: uuid('plan_id')
      .notNull()
      .references(() => treatmentPlans.id),
    version: integer('version').notNull(),
    status: text('status').notNull(),
    content: text('content').notNull(),
    targetDate: date('target_date', { mode: 'string' }),
    reviewDate: date('review_date', { mode: 'string' }).notNull(),
    signedBy: uuid('signed_by').references(() => users.id),
    signedAt: timestamp('signed_at', { withTimezone: true }),
    acknowledgedBy: uuid('acknowledged_by').references(() => users.id),
    acknowledgedAt: timestamp('acknowledged_at', { withTimezone: true }),
    createdBy: uuid('created_by')
      .notNull()
      .references(() => users.id),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedBy: uuid('updated_by')
      .notNull()
      .references(() => users.id),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('treatment_plan_versions_version_idx').on(t.planId, t.version),
    uniqueIndex('treatment_plan_versions_one_draft_idx')
      .on(t.planId)
      .where(sql`${t.signedAt} IS NULL`),
    index('treatment_plan_versions_review_idx').on(t.reviewDate),
    check('treatment_plan_versions_status_check', sql`${t.status} in ('active', 'completed', 'discontinued')`),
    check(
      'treatment_plan_versions_signed_check',
      sql`(${t.signedAt} IS NULL) = (${t.signedBy} IS NULL) AND (${t.acknowledgedAt} IS NULL OR ${t.signedAt} IS NOT NULL)`,
    ),
    encryptedCheck('treatment_plan_versions', t.content),
  ],
);
