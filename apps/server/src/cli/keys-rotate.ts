import { actorScope } from '../access/scope.ts';
import { rotateDataKeys } from '../keys/reencrypt.ts';
import { withCliRuntime } from './cli-runtime.ts';

// npm run keys:rotate: re-encrypts every value that is not under the current data key (the first in
// DATA_ENCRYPTION_KEY, or in DATA_DIR/data-keys), and re-wraps the file key of every sealed file (attachments,
// card photos, recordings: decision 071), in batches, while the server keeps running. Run it after every
// server has restarted with the new key first; running it again does nothing.
await withCliRuntime(async ({ database, keyring, blobs, bytesMover }) => {
  const current = keyring.currentKeyId;
  const older = keyring.keyIds.slice(1);
  console.log(
    `Current data key: "${current}"${older.length > 0 ? `; older keys held: ${older.map((id) => `"${id}"`).join(', ')}` : ''}.`,
  );
  // Files still held as bytes in the database are under the key of their day and no rotation rewrites them: they go
  // into the blob store first (what the server's mover does at start; both at once is safe), as sealed blobs under
  // the current key.
  if (await bytesMover.anyLeft()) {
    console.log('Moving the files still in the database into the blob store first.');
    const moved = await bytesMover.moveAll({
      onProgress: ({ table, moved: n, remaining }) => console.log(`  ${table}: ${n} moved, ${remaining} left`),
    });
    const failed = Object.entries(moved.failed).filter(([, n]) => n > 0);
    if (failed.length > 0) {
      console.error(
        `Not done: files that could not be opened stay in the database (${failed.map(([table, n]) => `${table}: ${n}`).join(', ')}); keep every key until they are dealt with.`,
      );
      return 1;
    }
  }
  console.log(
    'Re-encrypting every value under another key and re-wrapping every file key, in batches (the server may keep running).',
  );
  const result = await rotateDataKeys(database.db, keyring, {
    blobs,
    onProgress: ({ table, done, total }) => console.log(`  ${table}: ${done} of ${total} rows`),
  });

  const rewritten = Object.values(result.rewritten).reduce((sum, n) => sum + n, 0);
  if (rewritten > 0) {
    const actor = { sessionId: null, userId: 'cli', userRole: 'system', clientIp: null, userAgent: 'keys:rotate' };
    await actorScope(actor, null).audit(database.db, 'DATA_REENCRYPTED', {
      reason: 'key rotation',
      keyId: current,
      rows: result.rewritten,
    });
  }
  const remaining = Object.entries(result.remaining).filter(([, n]) => n > 0);
  if (remaining.length > 0) {
    console.error(
      `Not done: rows still hold values under another key (${remaining.map(([table, n]) => `${table}: ${n}`).join(', ')}).`,
    );
    console.error(
      `A server still encrypting with an older key writes them: restart every server with "${current}" first in its keys, then run this again.`,
    );
    return 1;
  }
  console.log(
    rewritten > 0
      ? `Done: ${rewritten} rows re-encrypted; every encrypted value is under "${current}".`
      : `Nothing to do: every encrypted value is already under "${current}".`,
  );
  if (older.length > 0) {
    console.log(
      `No value needs ${older.map((id) => `"${id}"`).join(', ')} any more: remove it from the keys and restart the servers. Keep a copy for as long as you keep backups made before now; restoring one needs it.`,
    );
  }
  return 0;
});
