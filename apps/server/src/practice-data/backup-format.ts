import fs from 'node:fs';
import zlib from 'node:zlib';
import { decryptStream, type BackupHeader } from './backup-crypto.ts';

// The backup file's records (decision 037): typed, length-framed, the manifest first; and reading them back.

/** The schemas a backup holds: the application's and the job queue's. */
export const SCHEMAS = ['public', 'graphile_worker'];

/**
 * M manifest; T table, D row, E table's end; F file of DATA_DIR, K blob of the blob store (decision 071), each
 * followed by its B parts and its G end (SHA-256); Z the backup's end.
 */
export type RecordType = 'M' | 'T' | 'D' | 'E' | 'F' | 'K' | 'B' | 'G' | 'Z';

export interface TableInfo {
  schema: string;
  name: string;
  columns: string[];
}

export interface Manifest {
  format: 1;
  createdAt: string;
  postgres: string;
  /** created_at of every applied migration (drizzle's record: the journal's `when`). */
  migrations: string[];
  tables: TableInfo[];
  sequences: { schema: string; name: string; lastValue: string | null }[];
}

/** One record: its type, its length, its body. */
export function record(type: RecordType, payload: Buffer | string): Buffer {
  const body = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : payload;
  const head = Buffer.alloc(5);
  head.write(type, 0, 'ascii');
  head.writeUInt32BE(body.length, 1);
  return Buffer.concat([head, body]);
}

export const quoteIdent = (name: string) => `"${name.replaceAll('"', '""')}"`;
export const qualified = (t: { schema: string; name: string }) => `${quoteIdent(t.schema)}.${quoteIdent(t.name)}`;

/** The records of a decrypted, decompressed backup stream, one at a time. */
async function* readRecords(source: AsyncIterable<Buffer>): AsyncGenerator<{ type: RecordType; body: Buffer }> {
  let buffered: Buffer = Buffer.alloc(0);
  for await (const chunk of source) {
    buffered = Buffer.concat([buffered, chunk]);
    let offset = 0;
    while (buffered.length - offset >= 5) {
      const length = buffered.readUInt32BE(offset + 1);
      if (buffered.length - offset < 5 + length) break;
      const type = buffered.toString('ascii', offset, offset + 1) as RecordType;
      yield { type, body: buffered.subarray(offset + 5, offset + 5 + length) };
      offset += 5 + length;
    }
    buffered = buffered.subarray(offset);
  }
  if (buffered.length > 0) throw new Error('The backup ends in the middle of a record: it is incomplete.');
}

export class RestoreRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefused';
  }
}

export interface BackupReader {
  records: AsyncGenerator<{ type: RecordType; body: Buffer }>;
  close(): void;
}

/** The records of the backup `file`, decrypted (authenticated chunk by chunk) and decompressed as they are read. */
export function openBackup(file: string, keyFor: (header: BackupHeader) => Buffer): BackupReader {
  const read = fs.createReadStream(file);
  const decrypt = decryptStream(keyFor);
  const gunzip = zlib.createGunzip();
  // pipe() does not pass errors on: a wrong key must end the reading, not leave it waiting.
  read.on('error', (error) => decrypt.destroy(error));
  decrypt.on('error', (error) => gunzip.destroy(error));
  return { records: readRecords(read.pipe(decrypt).pipe(gunzip)), close: () => read.destroy() };
}

/** The manifest, the backup's first record (its text too: the second reading must meet the same one). */
export async function readManifest(reader: BackupReader): Promise<{ manifest: Manifest; text: string }> {
  const first = await reader.records.next();
  if (first.done || first.value.type !== 'M') throw new RestoreRefused('The backup has no manifest: it is damaged.');
  const text = first.value.body.toString('utf8');
  return { manifest: JSON.parse(text) as Manifest, text };
}
