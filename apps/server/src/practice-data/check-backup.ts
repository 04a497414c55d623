import { createHash } from 'node:crypto';
import path from 'node:path';
import { checkBlobKey } from '../blobs/blob-store.ts';
import type { BackupHeader } from './backup-crypto.ts';
import { openBackup, readManifest, RestoreRefused, type TableInfo } from './backup-format.ts';
import { unknownMigrationsRefused } from './backup-migrations.ts';

// Reading a whole backup before a restore writes anything: every checksum, every table, every file's place.

/**
 * Reads the whole backup and writes nothing (issue 24, point 9): the key and every chunk's authentication, each
 * table's rows against its count and SHA-256, every table the manifest lists, each file against its SHA-256 and
 * its place under `dataDir`, each blob of the blob store against its SHA-256 and length (decision 071), the end
 * record with the number of blobs, and migrations this version knows. Answers the manifest's text, or throws why
 * the backup cannot be restored.
 */
export async function checkBackupFile(options: {
  file: string;
  dataDir: string;
  keyFor: (header: BackupHeader) => Buffer;
  migrationsFolder?: string;
}): Promise<string> {
  const reader = openBackup(options.file, options.keyFor);
  try {
    const { manifest, text } = await readManifest(reader);
    unknownMigrationsRefused(manifest, options.migrationsFolder);
    const seen = new Set<TableInfo>();
    let table: TableInfo | null = null;
    let hash = createHash('sha256');
    let rows = 0;
    let fileHash: ReturnType<typeof createHash> | null = null;
    let fileBytes = 0;
    let blobs = 0;
    let ended = false;
    for await (const { type, body } of reader.records) {
      if (ended) throw new RestoreRefused('The backup has records after its end: it is damaged.');
      const inTable = table !== null;
      const inFile = fileHash !== null;
      if (type === 'T' && !inTable && !inFile) {
        const named = JSON.parse(body.toString('utf8')) as { schema: string; name: string };
        table = manifest.tables.find((t) => t.schema === named.schema && t.name === named.name) ?? null;
        if (!table || seen.has(table))
          throw new RestoreRefused(`The backup names a table it did not list: ${named.name}.`);
        seen.add(table);
        hash = createHash('sha256');
        rows = 0;
      } else if (type === 'D' && inTable) {
        hash.update(body.toString('utf8')).update('\n');
        rows += 1;
      } else if (type === 'E' && inTable) {
        const end = JSON.parse(body.toString('utf8')) as { rows: number; sha256: string };
        if (end.rows !== rows || end.sha256 !== hash.digest('hex')) {
          throw new RestoreRefused(`The rows of ${table!.name} do not match the backup's checksum.`);
        }
        table = null;
      } else if (type === 'F' && !inTable && !inFile) {
        const meta = JSON.parse(body.toString('utf8')) as { path: string };
        dataFileTarget(options.dataDir, meta.path);
        fileHash = createHash('sha256');
        fileBytes = 0;
      } else if (type === 'K' && !inTable && !inFile) {
        blobKeyOf(body);
        fileHash = createHash('sha256');
        fileBytes = 0;
        blobs += 1;
      } else if (type === 'B' && inFile) {
        fileHash!.update(body);
        fileBytes += body.length;
      } else if (type === 'G' && inFile) {
        const end = JSON.parse(body.toString('utf8')) as { sha256: string; bytes?: number };
        if (end.sha256 !== fileHash!.digest('hex') || (end.bytes !== undefined && end.bytes !== fileBytes)) {
          throw new RestoreRefused('A file of the backup is damaged.');
        }
        fileHash = null;
      } else if (type === 'Z' && !inTable && !inFile) {
        const totals = JSON.parse(body.toString('utf8')) as { blobs?: number };
        if ((totals.blobs ?? 0) !== blobs) throw new RestoreRefused('The backup is incomplete: it lacks blobs.');
        ended = true;
      } else {
        throw new RestoreRefused('The backup holds a record out of place or unknown to this version: it is damaged.');
      }
    }
    if (!ended) throw new RestoreRefused('The backup is incomplete: its end is missing.');
    if (seen.size !== manifest.tables.length) {
      throw new RestoreRefused('The backup is incomplete: it lacks tables its manifest lists.');
    }
    return text;
  } finally {
    reader.close();
  }
}

/** The key of a blob record; refused when it is not a blob key (it could name a place outside the store). */
export function blobKeyOf(body: Buffer): string {
  const { key } = JSON.parse(body.toString('utf8')) as { key: string };
  try {
    return checkBlobKey(key);
  } catch {
    throw new RestoreRefused('The backup names a blob under a key no store accepts: it is damaged.');
  }
}

/** Where a file of the backup goes under `dataDir`; refused when it names a place outside. */
export function dataFileTarget(dataDir: string, relative: string): string {
  const target = path.resolve(dataDir, relative);
  if (!target.startsWith(path.resolve(dataDir) + path.sep)) {
    throw new RestoreRefused('The backup names a file outside DATA_DIR.');
  }
  return target;
}
