// npm run backup: writes an encrypted, compressed backup of the database and the files under DATA_DIR into
// BACKUP_DIR (default DATA_DIR/backups), recorded as a run on /admin/data. Works while the server runs (one
// consistent snapshot; nobody waits for it). Exit 0 with the file's path, 1 with why not (decision 037).
import { withCliRuntime } from './cli-runtime.ts';

await withCliRuntime(async ({ backups }) => {
  const run = await backups.runFromCli();
  if (run.status !== 'succeeded') {
    console.error(`Backup failed: ${run.error ?? 'unknown error'}`);
    return 1;
  }
  const megabytes = ((run.bytes ?? 0) / 1024 / 1024).toFixed(1);
  console.log(`Backup written: ${run.location} (${megabytes} MB).`);
  console.log('Restoring it needs its key: BACKUP_ENCRYPTION_KEY, or else the data keys (keep them apart from it).');
  return 0;
});
