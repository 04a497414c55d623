import { asc, getTableName, gt } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import {
  PATIENT_ACCESS_REQUEST_FREE_TEXT_FIELDS,
  PATIENT_FREE_TEXT_FIELDS,
  PROVIDER_ACCESS_REQUEST_FREE_TEXT_FIELDS,
  PROVIDER_FREE_TEXT_FIELDS,
  type TextKind,
} from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { accessRequests } from '../access-requests/access-requests.table.ts';
import { users } from '../auth/auth.table.ts';
import { conversations, messageAttachments } from '../messages/messages.table.ts';
import { patients } from '../patients/patients.table.ts';
import { providers } from '../providers/providers.table.ts';
import { videoGuests } from '../video/video.table.ts';
import {
  accessRequestsEncrypted,
  conversationsEncrypted,
  messageAttachmentsEncrypted,
  patientsEncrypted,
  videoGuestsEncrypted,
  type EncryptedColumns,
} from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';

/** A stored text people typed, where it is, and which rule it is under (text.ts). */
export interface StoredText {
  /** The table's name, as in the database. */
  table: string;
  id: string;
  /** The column's field name; for a form kept as JSON, `form.<field>` (`form.interests.0` in a list). */
  field: string;
  kind: Extract<TextKind, 'short' | 'free'>;
  value: string;
}

interface StoredTextTable {
  table: PgTable;
  id: PgColumn;
  /** The text columns by field name, each a short or a free one. */
  columns: Record<string, { column: PgColumn; kind: 'short' | 'free' }>;
  encrypted?: EncryptedColumns<string>;
  /** A column holding a form as JSON, and the free-text fields of each kind of form it may hold. */
  form?: { field: string; freeFields: (row: Record<string, unknown>) => readonly string[] };
}

const short = (column: PgColumn) => ({ column, kind: 'short' as const });
const free = (column: PgColumn) => ({ column, kind: 'free' as const });

/**
 * Every place a person's typed text is stored, with the kind of its field: the stored-text review and the fuzz
 * test read them here. A new table of typed text adds itself (and its free-text fields follow the shared
 * schemas' lists, which text.test.ts checks against the schemas).
 */
export const STORED_TEXT_TABLES: readonly StoredTextTable[] = [
  {
    table: users,
    id: users.id,
    columns: {
      name: short(users.name),
      firstName: short(users.firstName),
      lastName: short(users.lastName),
      email: short(users.email),
    },
  },
  {
    table: providers,
    id: providers.id,
    columns: {
      firstName: short(providers.firstName),
      lastName: short(providers.lastName),
      email: short(providers.email),
      phone: short(providers.phone),
      ...Object.fromEntries(PROVIDER_FREE_TEXT_FIELDS.map((field) => [field, free(providers[field])])),
    },
  },
  {
    table: patients,
    id: patients.id,
    encrypted: patientsEncrypted,
    columns: {
      firstName: short(patients.firstName),
      lastName: short(patients.lastName),
      email: short(patients.email),
      phone: short(patients.phone),
      street: short(patients.street),
      city: short(patients.city),
      state: short(patients.state),
      zipCode: short(patients.zipCode),
      emergencyContactName: short(patients.emergencyContactName),
      emergencyContactPhone: short(patients.emergencyContactPhone),
      insuranceProvider: short(patients.insuranceProvider),
      insurancePolicyNumber: short(patients.insurancePolicyNumber),
      ...Object.fromEntries(PATIENT_FREE_TEXT_FIELDS.map((field) => [field, free(patients[field])])),
    },
  },
  {
    table: accessRequests,
    id: accessRequests.id,
    encrypted: accessRequestsEncrypted,
    columns: {
      firstName: short(accessRequests.firstName),
      lastName: short(accessRequests.lastName),
      email: short(accessRequests.email),
      form: free(accessRequests.form),
      declineReason: free(accessRequests.declineReason),
    },
    form: {
      field: 'form',
      freeFields: (row) =>
        row['kind'] === 'provider' ? PROVIDER_ACCESS_REQUEST_FREE_TEXT_FIELDS : PATIENT_ACCESS_REQUEST_FREE_TEXT_FIELDS,
    },
  },
  // A conversation's subject (its messages are free text, kept as typed).
  {
    table: conversations,
    id: conversations.id,
    encrypted: conversationsEncrypted,
    columns: { subject: short(conversations.subject) },
  },
  // A file's name as the uploader's computer gave it (the X-File-Name header), shown in every participant's list.
  {
    table: messageAttachments,
    id: messageAttachments.id,
    encrypted: messageAttachmentsEncrypted,
    columns: { fileName: short(messageAttachments.fileName) },
  },
  // A video visit guest's name, as the provider typed it: in the invitation mail and the waiting room.
  {
    table: videoGuests,
    id: videoGuests.id,
    encrypted: videoGuestsEncrypted,
    columns: { name: short(videoGuests.name), email: short(videoGuests.email) },
  },
];

const BATCH = 500;

/** One stored row of a table of typed text, its encrypted columns decrypted. */
export interface StoredTextRow {
  source: StoredTextTable;
  id: string;
  /** Field name to its readable value (null when empty). */
  values: Record<string, string | null>;
  /** PgColumns read besides the text (the kind of an access request). */
  extra: Record<string, unknown>;
}

/** Every row of every table of typed text, in batches, decrypted. */
export async function* storedTextRows(db: Executor, keyring: Keyring): AsyncGenerator<StoredTextRow> {
  for (const source of STORED_TEXT_TABLES) {
    const selection: Record<string, PgColumn> = { id: source.id };
    for (const [field, { column }] of Object.entries(source.columns)) selection[field] = column;
    if (source.table === accessRequests) selection['kind'] = accessRequests.kind;
    let after: string | null = null;
    for (;;) {
      const rows: Record<string, unknown>[] = await db
        .select(selection)
        .from(source.table)
        .where(after === null ? undefined : gt(source.id, after))
        .orderBy(asc(source.id))
        .limit(BATCH);
      for (const row of rows) {
        const id = String(row['id']);
        const values: Record<string, string | null> = {};
        for (const field of Object.keys(source.columns)) {
          const stored = row[field];
          const encrypted = source.encrypted?.columns.some((column) => column.field === field) ?? false;
          values[field] =
            typeof stored !== 'string'
              ? null
              : encrypted
                ? source.encrypted!.decryptValue(keyring, id, field, stored)
                : stored;
        }
        yield { source, id, values, extra: { kind: row['kind'] } };
      }
      if (rows.length < BATCH) break;
      after = String(rows[rows.length - 1]?.['id']);
    }
  }
}

/** The texts of one row, one by one: a form kept as JSON gives each of its fields (and each item of a list). */
export function textsOf(row: StoredTextRow): StoredText[] {
  const table = getTableName(row.source.table);
  const texts: StoredText[] = [];
  for (const [field, { kind }] of Object.entries(row.source.columns)) {
    const value = row.values[field];
    if (value === null || value === undefined) continue;
    if (row.source.form?.field === field) {
      const freeFields = row.source.form.freeFields(row.extra);
      const form = JSON.parse(value) as Record<string, unknown>;
      for (const [name, entry] of Object.entries(form)) {
        const entryKind = freeFields.includes(name) ? 'free' : 'short';
        if (typeof entry === 'string')
          texts.push({ table, id: row.id, field: `${field}.${name}`, kind: entryKind, value: entry });
        if (Array.isArray(entry)) {
          entry.forEach((item, index) => {
            if (typeof item === 'string') {
              texts.push({ table, id: row.id, field: `${field}.${name}.${index}`, kind: entryKind, value: item });
            }
          });
        }
      }
      continue;
    }
    texts.push({ table, id: row.id, field, kind, value });
  }
  return texts;
}

/** Every stored text people typed, decrypted: for the stored-text review and the fuzz test's check. */
export async function* scanStoredText(db: Executor, keyring: Keyring): AsyncGenerator<StoredText> {
  for await (const row of storedTextRows(db, keyring)) yield* textsOf(row);
}
