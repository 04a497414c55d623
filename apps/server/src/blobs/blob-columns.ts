import { sql, type SQL } from 'drizzle-orm';
import { text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { bytea } from '../db/columns.ts';

/**
 * The columns of a row whose file is in the blob store (decision 070): the blob's key, the id of the data key that
 * wrapped the file key, and the wrapped file key. All three or none: a row from before the store keeps its sealed
 * bytes in `data` until the mover takes them out (then `data` is null and these are set, in one update).
 */
export function sealedBlobColumns() {
  return {
    blobKey: text('blob_key'),
    keyId: text('key_id'),
    wrappedKey: bytea('wrapped_key'),
  };
}

/** A check that the row has its file: its bytes, or all three blob columns. */
export function fileIsKept(t: {
  data: AnyPgColumn;
  blobKey: AnyPgColumn;
  keyId: AnyPgColumn;
  wrappedKey: AnyPgColumn;
}): SQL {
  return sql`${t.data} IS NOT NULL OR (${t.blobKey} IS NOT NULL AND ${t.keyId} IS NOT NULL AND ${t.wrappedKey} IS NOT NULL)`;
}
