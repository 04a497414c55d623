/**
 * The blob store's files in backups and key rotation (decision 071): a backup carries every blob its rows name
 * (not DATA_DIR/blobs as loose files), the check verifies them, a restore into an empty DATA_DIR puts them back
 * into the configured store and they read back identical; after keys:rotate and the old key's removal every
 * blob still reads.
 */
import { buffer } from 'node:stream/consumers';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD } from '@telehealth/shared';
import { uploadAttachment } from './factories/conversations.ts';
import { BlobNotFoundError, type BlobStore } from '../src/blobs/blob-store.ts';
import { FileBlobStore } from '../src/blobs/file-blob-store.ts';
import { SealedBlobs } from '../src/blobs/sealed-blobs.ts';
import { connectDatabase, type Database } from '../src/db/client.ts';
import { generateDataKeyEntry, Keyring, parseDataKeys } from '../src/keys/keyring.ts';
import { rotateDataKeys } from '../src/keys/reencrypt.ts';
import { sealedFileTablesIn } from '../src/keys/rewrap-files.ts';
import { sealedFileContext } from '../src/keys/sealed-files.ts';
import { backupKeyFor, backupKeyOf } from '../src/practice-data/backup.service.ts';
import { checkBackupFile } from '../src/practice-data/check-backup.ts';
import { restoreBackup } from '../src/practice-data/restore-backup.ts';
import { writeBackup } from '../src/practice-data/write-backup.ts';
import { createPortalPatient } from './factories/patients.ts';
import { legacyRecording, RECORDING_WEBM } from './factories/recordings.ts';
import {
  createTestApp,
  FOUR_BUDGETS,
  createTestDatabase,
  openTestRuntime,
  TEST_DATA_KEY,
  TestClient,
  type TestApp,
} from './helpers.ts';

let t: TestApp;
let people: { providerId: string; patientId: string };
const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(70_000, 'lab results ')]);

function keyringOf(keys: string): Keyring {
  const parsed = parseDataKeys(keys);
  if ('problems' in parsed) throw new Error(parsed.problems.join('; '));
  return new Keyring(parsed.keys);
}

function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

beforeAll(async () => {
  t = await createTestApp();
  const provider = new TestClient(t.app);
  const providerId = (await provider.signIn('provider@demo.test', DEMO_PASSWORD)).user!.userId;
  const created = await provider.gql<{ createPatient: { id: string } }>(
    'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
    { input: { firstName: 'Ana', lastName: 'Backup', email: 'ana.backup@example.net', dateOfBirth: '1988-02-03' } },
  );
  people = { providerId, patientId: created.data!.createPatient.id };
  // An assembled recording and one still in parts, moved into the blob store, and a message attachment.
  await legacyRecording(t, people, 'segments', 40_000);
  await legacyRecording(t, people, 'chunks', 50_000);
  await t.runtime.bytesMover.moveAll();
  const patient = await createPortalPatient(t, provider, {
    record: { firstName: 'Ines', lastName: 'Backup', email: 'ines.backup@example.net', dateOfBirth: '1991-06-07' },
  });
  const uploaded = await uploadAttachment(t.app, patient.client, PDF, {
    fileName: 'labs.pdf',
    contentType: 'application/pdf',
  });
  expect(uploaded.statusCode).toBe(201);
});

/** The plaintext of every file the rows of `db` name, by blob key, read through `blobs`. */
async function filesOf(db: Database, blobs: SealedBlobs): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  for (const set of await sealedFileTablesIn(db)) {
    const rows = await db.execute<{ blob_key: string; cid: string; key_id: string; wrapped_key: Buffer; n: string }>(
      sql`SELECT blob_key, ${sql.raw(set.contextIdSql)} AS cid, key_id, wrapped_key,
                 ${sql.identifier(set.plainBytesColumn)}::text AS n
          FROM ${sql.identifier(set.table)} WHERE blob_key IS NOT NULL`,
    );
    for (const row of rows.rows) {
      const stream = await blobs.read({
        blobKey: row.blob_key,
        keyId: row.key_id,
        wrappedKey: row.wrapped_key,
        plainBytes: Number(row.n),
        context: sealedFileContext(set, row.cid),
      });
      files.set(row.blob_key, await buffer(stream));
    }
  }
  return files;
}

describe('backups with the blob store', () => {
  it(
    'back up, restore into an empty DATA_DIR, the files read back identical',
    async () => {
      const before = await filesOf(t.runtime.database.db, t.runtime.blobs);
      expect(before.size).toBe(1 + 4 + 1);
      expect([...before.values()].some((file) => file.equals(RECORDING_WEBM))).toBe(true);
      expect([...before.values()].some((file) => file.equals(PDF))).toBe(true);

      const dir = tempDir('blob-backup-out-');
      const key = backupKeyOf(t.runtime.config, t.runtime.keyring);
      const result = await writeBackup({
        url: t.databaseUrl,
        dataDir: t.runtime.config.dataDir,
        dir,
        key,
        blobs: t.runtime.blobStore,
      });
      expect(result).toMatchObject({ blobs: before.size, missingBlobs: 0 });
      const keyFor = backupKeyFor(t.runtime.config, t.runtime.keyring);
      const dataDir = tempDir('blob-restore-data-');
      await checkBackupFile({ file: result.file, dataDir, keyFor });

      const target = await createTestDatabase();
      const store = new FileBlobStore(path.join(dataDir, 'blobs'));
      const restored = await restoreBackup({ url: target, file: result.file, dataDir, keyFor, blobs: store });
      expect(restored).toMatchObject({ blobs: before.size, skippedBlobs: 0 });
      // The blobs came back through the store, not also as loose files of DATA_DIR.
      expect(restored.files).toBe(result.files);
      let listed = 0;
      for await (const _entry of store.list('')) listed += 1;
      expect(listed).toBe(before.size);

      const db = connectDatabase(target, { max: 2 });
      try {
        const after = await filesOf(db.db, new SealedBlobs({ store, keyring: t.runtime.keyring }));
        expect(after).toEqual(before);
      } finally {
        await db.close();
      }
    },
    FOUR_BUDGETS.timeout,
  );

  it('a blob gone from the store since the snapshot (its row deleted meanwhile) is counted, and the backup still checks', async () => {
    const [gone] = (
      await t.runtime.database.db.execute<{ blob_key: string }>(
        sql`SELECT blob_key FROM video_recordings WHERE blob_key IS NOT NULL LIMIT 1`,
      )
    ).rows;
    const store = t.runtime.blobStore;
    const losing: BlobStore = {
      description: 'a store that lost one blob',
      put: (key, body) => store.put(key, body),
      get: async (key, range) => {
        if (key === gone!.blob_key) throw new BlobNotFoundError(key);
        return store.get(key, range);
      },
      size: (key) => store.size(key),
      delete: (key) => store.delete(key),
      list: (prefix) => store.list(prefix),
    };
    const result = await writeBackup({
      url: t.databaseUrl,
      dataDir: t.runtime.config.dataDir,
      dir: tempDir('blob-backup-lost-'),
      key: backupKeyOf(t.runtime.config, t.runtime.keyring),
      blobs: losing,
    });
    expect(result).toMatchObject({ blobs: 5, missingBlobs: 1 });
    const keyFor = backupKeyFor(t.runtime.config, t.runtime.keyring);
    await checkBackupFile({ file: result.file, dataDir: tempDir('blob-check-'), keyFor });
  });
});

describe('key rotation', () => {
  it('re-wraps every file key; with the old key removed, every file still reads', async () => {
    const before = await filesOf(t.runtime.database.db, t.runtime.blobs);
    const nextEntry = generateDataKeyEntry('next');
    const rotating = keyringOf(`${nextEntry},${TEST_DATA_KEY}`);
    const during = await openTestRuntime(
      t.databaseUrl,
      { DATA_DIR: t.runtime.config.dataDir, DATA_ENCRYPTION_KEY: `${nextEntry},${TEST_DATA_KEY}` },
      { runJobs: false },
    );
    const result = await rotateDataKeys(during.database.db, rotating, { blobs: during.blobs });
    expect(result.rewritten['video_recordings files']).toBe(1);
    expect(result.rewritten['video_recording_chunks files']).toBe(4);
    expect(result.rewritten['message_attachments files']).toBe(1);
    expect(Object.values(result.remaining).every((n) => n === 0)).toBe(true);
    const again = await rotateDataKeys(during.database.db, rotating, { blobs: during.blobs });
    expect(again.rewritten['video_recordings files']).toBe(0);

    const onlyNew = keyringOf(nextEntry);
    const after = await filesOf(during.database.db, new SealedBlobs({ store: during.blobStore, keyring: onlyNew }));
    expect(after).toEqual(before);
    // The old key alone opens none of them any more.
    const onlyOld = keyringOf(TEST_DATA_KEY);
    await expect(
      filesOf(during.database.db, new SealedBlobs({ store: during.blobStore, keyring: onlyOld })),
    ).rejects.toThrow();
  });
});
