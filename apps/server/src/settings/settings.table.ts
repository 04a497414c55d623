import { jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from '../auth/auth.table.ts';

/**
 * The practice's settings an administrator changed (decision 032), one row per setting: its value as JSON (checked
 * by the shared schema of its key when read), who changed it and when. No row: the default applies.
 */
export const practiceSettings = pgTable('practice_settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
  updatedBy: uuid('updated_by').references(() => users.id, { onDelete: 'set null' }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
