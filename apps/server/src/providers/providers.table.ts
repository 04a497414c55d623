import { sql } from 'drizzle-orm';
import { boolean, integer, pgTable, text, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { timestamps } from '../db/columns.ts';
import { users } from '../auth/auth.table.ts';

/**
 * Providers (the specification's Doctor): the directory record of a provider account. A provider has one id,
 * their account's: `id` is the account's id, and every table that names a provider (a patient's primary
 * provider, and later appointments and notes) references it. Decision 020.
 */
export const providers = pgTable(
  'providers',
  {
    id: uuid('id')
      .primaryKey()
      .references(() => users.id),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    email: text('email').notNull(),
    specialty: text('specialty').notNull(),
    experience: integer('experience').notNull().default(0),
    phone: text('phone'),
    bio: text('bio'),
    isActive: boolean('is_active').notNull().default(true),
    // Billing identity (issue 30, decision 073): public registry data, not health information, kept plain.
    npi: text('npi'),
    taxonomyCode: text('taxonomy_code'),
    licenseState: text('license_state'),
    licenseNumber: text('license_number'),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('providers_npi_idx')
      .on(t.npi)
      .where(sql`${t.npi} IS NOT NULL`),
  ],
);
