import { integer, pgTable, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { patients } from '../patients/patients.table.ts';

/**
 * The e-mails "before your first visit" that went out (decision 068): one row per patient and number (1 to 3). A
 * job that runs twice finds its row and sends nothing; the count stops the reminders after three.
 */
export const firstVisitReminders = pgTable(
  'first_visit_reminders',
  {
    patientId: uuid('patient_id')
      .notNull()
      .references(() => patients.id),
    number: integer('number').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('first_visit_reminders_once_idx').on(t.patientId, t.number)],
);
