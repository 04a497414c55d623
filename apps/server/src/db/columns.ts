import { sql } from 'drizzle-orm';
import { check, customType, type AnyPgColumn, timestamp } from 'drizzle-orm/pg-core';

// Column helpers shared by the tables (`*.table.ts`) of every domain.

/** Binary data (recordings, encrypted before they are written). */
export const bytea = customType<{ data: Buffer; driverData: Buffer }>({ dataType: () => 'bytea' });

/** An encrypted column holds nothing but encrypted values (`enc:…`, decision 016). */
export function encryptedCheck(table: string, column: AnyPgColumn) {
  return check(`${table}_${column.name}_encrypted`, sql`${column} IS NULL OR ${column} LIKE 'enc:%'`);
}

export const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};
