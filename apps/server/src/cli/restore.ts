// npm run restore -- FILE: restores a backup written by npm run backup into an EMPTY database (DATABASE_URL, or
// the embedded one of a new DATA_DIR), with the files it holds under DATA_DIR (never over an existing file) and its
// blobs into the configured blob store (DATA_DIR/blobs or BLOB_STORE_URL; never over an existing blob). Needs
// the backup's key: BACKUP_ENCRYPTION_KEY, or the data keys it was made under. The server must not be running
// against that database. Then start the server and run npm run audit:verify (decision 037).
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.ts';
import { backupKeyFor } from '../practice-data/backup.service.ts';
import { restoreBackup } from '../practice-data/restore-backup.ts';
import { openBlobStore } from '../blobs/blobs.module.ts';
import { startEmbeddedDatabase, type EmbeddedDatabase } from '../db/embedded.ts';
import { Keyring, parseDataKeys } from '../keys/keyring.ts';

const { positionals } = parseArgs({ allowPositionals: true });
const file = positionals[0];
let code = 1;
let embedded: EmbeddedDatabase | undefined;
try {
  if (!file) throw new Error('Name the backup file: npm run restore -- /path/to/practice-....backup');
  if (!fs.existsSync(file)) throw new Error(`No such file: ${file}`);
  const config = loadConfig();
  // The data keys as the server reads them, but never generated: a new key could not open the backup.
  let keys = config.dataEncryptionKeys;
  if (!keys) {
    const keysFile = path.join(config.dataDir, 'data-keys');
    if (!fs.existsSync(keysFile)) {
      throw new Error(
        `No data keys: set DATA_ENCRYPTION_KEY, or put the data-keys file the backup was made under in ${config.dataDir}.`,
      );
    }
    const parsed = parseDataKeys(fs.readFileSync(keysFile, 'utf8'));
    if ('problems' in parsed) throw new Error(`${keysFile}: ${parsed.problems.join('; ')}`);
    keys = parsed.keys;
  }
  const keyring = new Keyring(keys);
  let url = config.databaseUrl;
  if (!url) {
    embedded = await startEmbeddedDatabase({
      dataDir: config.dataDir,
      port: config.embeddedPgPort,
      log: { info: () => undefined, warn: console.warn, error: console.error } as never,
    });
    url = embedded.url;
  }
  const result = await restoreBackup({
    url,
    file,
    dataDir: config.dataDir,
    keyFor: backupKeyFor(config, keyring),
    blobs: openBlobStore(config.blobStore),
  });
  console.log(
    `Restored the backup of ${result.createdAt}: ${result.tables} tables, ${result.rows.toLocaleString('en-US')} rows, ${result.files} files.`,
  );
  for (const skipped of result.skippedFiles) console.log(`  kept the existing ${skipped} (not overwritten)`);
  if (result.blobs + result.skippedBlobs > 0) {
    console.log(
      `Blob store: ${result.blobs} files put back${result.skippedBlobs > 0 ? `, ${result.skippedBlobs} already there (kept)` : ''}.`,
    );
  }
  console.log('Start the server, then run npm run audit:verify.');
  code = 0;
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
} finally {
  await embedded?.stop();
}
process.exit(code);
