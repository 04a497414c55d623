import { sql } from 'drizzle-orm';
import { boolean, date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { encryptedCheck, timestamps } from '../db/columns.ts';
import { users } from '../auth/auth.table.ts';
import { providers } from '../providers/providers.table.ts';

/**
 * Patients. `ownerId` is the primary provider (a provider's id, which is their account's); `accountId` links
 * the patient's own account.
 * Deleting sets `deletedAt`: the record disappears from every screen but is kept for the retention period.
 * The clinical free text (reason for care, allergies, medications, history, policy number) is stored encrypted
 * (`keys/encrypted-columns.ts`, decision 016); a CHECK constraint refuses plain text there.
 */
export const patients = pgTable(
  'patients',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    dateOfBirth: date('date_of_birth', { mode: 'string' }).notNull(),
    phone: text('phone'),
    isActive: boolean('is_active').notNull().default(true),
    street: text('street'),
    city: text('city'),
    state: text('state'),
    zipCode: text('zip_code'),
    emergencyContactName: text('emergency_contact_name'),
    emergencyContactPhone: text('emergency_contact_phone'),
    insuranceProvider: text('insurance_provider'),
    insurancePolicyNumber: text('insurance_policy_number'),
    reasonForCare: text('reason_for_care'),
    allergies: text('allergies'),
    currentMedications: text('current_medications'),
    medicalHistory: text('medical_history'),
    ownerId: uuid('owner_id').references(() => providers.id),
    accountId: uuid('account_id').references(() => users.id),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    deletedBy: uuid('deleted_by').references(() => users.id),
    ...timestamps,
  },
  (t) => [
    // The list order (last name, first name, id) and its keyset paging, for everyone and per owner.
    index('patients_order_idx')
      .using('btree', sql`lower(${t.lastName})`, sql`lower(${t.firstName})`, t.id)
      .where(sql`${t.deletedAt} IS NULL`),
    index('patients_owner_order_idx')
      .using('btree', t.ownerId, sql`lower(${t.lastName})`, sql`lower(${t.firstName})`, t.id)
      .where(sql`${t.deletedAt} IS NULL`),
    // Case-insensitive substring search over first name, last name, full name and email.
    index('patients_search_trgm_idx').using(
      'gin',
      sql`(lower(${t.firstName} || ' ' || ${t.lastName} || ' ' || ${t.email})) gin_trgm_ops`,
    ),
    uniqueIndex('patients_account_id_idx')
      .on(t.accountId)
      .where(sql`${t.accountId} IS NOT NULL AND ${t.deletedAt} IS NULL`),
    ...[t.reasonForCare, t.allergies, t.currentMedications, t.medicalHistory, t.insurancePolicyNumber].map((column) =>
      encryptedCheck('patients', column),
    ),
  ],
);
