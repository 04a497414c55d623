import type { FieldContext } from './keyring.ts';

/*
 * Every table whose rows name a sealed blob (decisions 070, 071): the columns `blob_key`, `key_id` and
 * `wrapped_key`, and the place (table, column, row id) each file's key is wrapped for. Key rotation walks them to
 * re-wrap file keys (keys/reencrypt.ts), backups copy the blobs they name (practice-data/), and the mover
 * (blob-mover/) fills them from the bytes rows held before (`legacyBytes`). Like encrypted-columns.ts, a list that
 * names columns and queries none; a table whose rows get files adds itself here.
 */

export interface SealedFileTable {
  table: string;
  /** SQL (over the table's own columns) that gives a row's context id as text. */
  contextIdSql: string;
  /** The column named in the row's context (its file's place). */
  contextColumn: string;
  /** The column holding the file's plaintext length. */
  plainBytesColumn: string;
  /** The bytea column files were kept in before (encrypted with Keyring.encryptBytes for the same context). */
  legacyBytes?: string;
}

export const SEALED_FILE_TABLES: readonly SealedFileTable[] = [
  // Message attachments (decision 029) and the insurance card's photos (decision 067): moved by blobs-core (070).
  {
    table: 'message_attachments',
    contextIdSql: 'id::text',
    contextColumn: 'data',
    plainBytesColumn: 'size_bytes',
    legacyBytes: 'data',
  },
  {
    table: 'intake_card_photos',
    contextIdSql: 'id::text',
    contextColumn: 'data',
    plainBytesColumn: 'size_bytes',
    legacyBytes: 'data',
  },
  // A recording's uploaded parts while it is recorded, then its assembled file (decisions 026, 071).
  {
    table: 'video_recording_chunks',
    contextIdSql: `recording_id::text || ':' || seq::text`,
    contextColumn: 'data',
    plainBytesColumn: 'plain_bytes',
    legacyBytes: 'data',
  },
  { table: 'video_recordings', contextIdSql: 'id::text', contextColumn: 'file', plainBytesColumn: 'size_bytes' },
];

/** The place a row's file is sealed for. */
export function sealedFileContext(set: SealedFileTable, contextId: string): FieldContext {
  return { table: set.table, column: set.contextColumn, id: contextId };
}
