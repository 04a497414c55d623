import { foreignKey, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.table.ts';

/**
 * The practice's settings an administrator changed (decision 032), one row per setting: its value as JSON (checked
 * by the shared schema of its key when read), who changed it and when. No row: the default applies.
 */
export const practiceSettings = pgTable(
  'practice_settings',
  {
    key: text('key').primaryKey(),
    value: jsonb('value').notNull(),
    updatedBy: uuid('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Named as PostgreSQL named it when migration 0020 declared the reference inline.
    foreignKey({
      name: 'practice_settings_updated_by_fkey',
      columns: [t.updatedBy],
      foreignColumns: [users.id],
    }).onDelete('set null'),
  ],
);
