import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { FileBlobStore } from '../src/blobs/file-blob-store.ts';
import { loadConfig } from '../src/config.ts';
import { SealedBlobs, SEGMENT_BYTES, sealedLength, type SealedBlobWritten } from '../src/blobs/sealed-blobs.ts';
import { EncryptedValueError, Keyring } from '../src/keys/keyring.ts';
import { describeBlobStoreContract, failingBody } from './blob-store-contract.ts';
import { probeMemory } from './memory-probe.ts';
import { afterFile } from './file-cleanup.ts';

function tempFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'telehealth-blobs-'));
  afterFile(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const fileRoot = path.join(tempFolder(), 'blobs');
// Measured about 0.4 MiB (a few 64 KiB chunks in flight).
describeBlobStoreContract(
  'FileBlobStore',
  () => new FileBlobStore(fileRoot),
  4 * 1024 * 1024,
  () => ({
    kind: 'file',
    root: fileRoot,
  }),
);

describe('FileBlobStore', () => {
  it('keeps its folders to the server user and leaves no partial file behind', async () => {
    const root = path.join(tempFolder(), 'blobs');
    const store = new FileBlobStore(root);
    expect(fs.statSync(root).mode & 0o777).toBe(0o700);
    await store.put('a/b/c', Readable.from([Buffer.from('hello')]));
    expect(fs.statSync(path.join(root, 'a')).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(root, 'a/b/c')).mode & 0o777).toBe(0o600);
    await expect(store.put('a/b/d', failingBody())).rejects.toThrow();
    expect(fs.readdirSync(path.join(root, '.partial'))).toEqual([]);
  });

  it('removes writes a dead process left, a day old, when it opens', () => {
    const root = path.join(tempFolder(), 'blobs');
    new FileBlobStore(root);
    const stale = path.join(root, '.partial', 'old.part');
    const fresh = path.join(root, '.partial', 'new.part');
    fs.writeFileSync(stale, 'x');
    fs.writeFileSync(fresh, 'x');
    const twoDaysAgo = new Date(Date.now() - 2 * 86_400_000);
    fs.utimesSync(stale, twoDaysAgo, twoDaysAgo);
    new FileBlobStore(root);
    expect(fs.readdirSync(path.join(root, '.partial'))).toEqual(['new.part']);
  });
});

const keyHex = Buffer.alloc(32, 1).toString('hex');
const keyring = new Keyring([{ id: 'k1', key: Buffer.from(keyHex, 'hex') }]);
const context = { table: 'message_attachments', column: 'data', id: '00000000-0000-4000-8000-000000000001' };

async function readAll(stream: Readable): Promise<Buffer> {
  return buffer(stream);
}

describe('SealedBlobs', () => {
  const root = path.join(tempFolder(), 'blobs');
  const store = new FileBlobStore(root);
  const blobs = new SealedBlobs({ store, keyring });
  const plain = randomBytes(3 * SEGMENT_BYTES + 1234);
  let written: SealedBlobWritten;

  it('seals a file: nothing readable in the store, and reads back whole', async () => {
    written = await blobs.write(Readable.from([plain.subarray(0, 100_000), plain.subarray(100_000)]), context);
    expect(written).toMatchObject({ keyId: 'k1', plainBytes: plain.length });
    expect(written.sha256).toBe(createHash('sha256').update(plain).digest('hex'));
    expect(written.blobKey).toMatch(/^message_attachments\/[0-9a-f-]{36}$/);
    expect(await store.size(written.blobKey)).toBe(sealedLength(plain.length));
    const stored = await readAll(await store.get(written.blobKey));
    expect(stored.includes(plain.subarray(0, 32))).toBe(false);
    expect((await readAll(await blobs.read({ ...written, context }))).equals(plain)).toBe(true);
  });

  it('reads byte ranges: first byte, last byte, across a segment boundary, whole, past the end', async () => {
    const at = { ...written, context };
    const last = plain.length - 1;
    expect(await readAll(await blobs.read(at, { start: 0, end: 0 }))).toEqual(plain.subarray(0, 1));
    expect(await readAll(await blobs.read(at, { start: last, end: last }))).toEqual(plain.subarray(last));
    const across = { start: SEGMENT_BYTES - 10, end: 2 * SEGMENT_BYTES + 10 };
    expect(await readAll(await blobs.read(at, across))).toEqual(plain.subarray(across.start, across.end + 1));
    expect(await readAll(await blobs.read(at, { start: SEGMENT_BYTES, end: SEGMENT_BYTES }))).toEqual(
      plain.subarray(SEGMENT_BYTES, SEGMENT_BYTES + 1),
    );
    expect((await readAll(await blobs.read(at, { start: 0, end: last }))).equals(plain)).toBe(true);
    expect(await readAll(await blobs.read(at, { start: last - 5, end: last + 1000 }))).toEqual(plain.subarray(-6));
    await expect(blobs.read(at, { start: plain.length, end: plain.length })).rejects.toThrow(RangeError);
  });

  it('seals files of a segment exactly, and empty ones', async () => {
    for (const size of [0, 1, SEGMENT_BYTES, 2 * SEGMENT_BYTES]) {
      const bytes = randomBytes(size);
      const file = await blobs.write(Readable.from(size ? [bytes] : []), context);
      expect(file.plainBytes).toBe(size);
      expect(await store.size(file.blobKey)).toBe(sealedLength(size));
      expect((await readAll(await blobs.read({ ...file, context }))).equals(bytes)).toBe(true);
    }
  });

  async function replaceBlob(key: string, bytes: Buffer) {
    await store.delete(key);
    await store.put(key, Readable.from([bytes]));
  }

  it('refuses a changed segment, swapped segments and a file cut at a segment end', async () => {
    const at = { ...written, context };
    const original = await readAll(await store.get(written.blobKey));
    const stored = SEGMENT_BYTES + 16;
    try {
      const changed = Buffer.from(original);
      changed[stored + 5]! ^= 1;
      await replaceBlob(written.blobKey, changed);
      // The first segment still reads; the second fails.
      expect(await readAll(await blobs.read(at, { start: 0, end: 10 }))).toEqual(plain.subarray(0, 11));
      await expect(readAll(await blobs.read(at))).rejects.toThrow(EncryptedValueError);
      await expect(readAll(await blobs.read(at, { start: SEGMENT_BYTES, end: SEGMENT_BYTES }))).rejects.toThrow(
        'segment 1 fails authentication',
      );

      const swapped = Buffer.concat([
        original.subarray(stored, 2 * stored),
        original.subarray(0, stored),
        original.subarray(2 * stored),
      ]);
      await replaceBlob(written.blobKey, swapped);
      await expect(readAll(await blobs.read(at, { start: 0, end: 0 }))).rejects.toThrow('segment 0 fails');

      // Cut after the third segment, and the row's length changed to match: the new last was not sealed as last.
      await replaceBlob(written.blobKey, original.subarray(0, 3 * stored));
      const cut = { ...at, plainBytes: 3 * SEGMENT_BYTES };
      await expect(readAll(await blobs.read(cut))).rejects.toThrow('segment 2 fails authentication');
      // Cut without changing the row: the missing bytes are noticed.
      await expect(readAll(await blobs.read(at))).rejects.toThrow(EncryptedValueError);
      await expect(blobs.read(at, { start: plain.length - 1, end: plain.length - 1 })).rejects.toThrow('cut short');
    } finally {
      await replaceBlob(written.blobKey, original);
    }
  });

  it('refuses a file read for another place, or under a key the keyring lacks', async () => {
    await expect(blobs.read({ ...written, context: { ...context, id: randomUUID() } })).rejects.toThrow(
      EncryptedValueError,
    );
    await expect(blobs.read({ ...written, context: { ...context, table: 'intake_card_photos' } })).rejects.toThrow(
      EncryptedValueError,
    );
    const other = new SealedBlobs({ store, keyring: new Keyring([{ id: 'k2', key: Buffer.alloc(32, 2) }]) });
    await expect(other.read({ ...written, context })).rejects.toThrow('which the keyring does not hold');
  });

  it('re-wraps the file key under a new current key, leaving the content as it was', async () => {
    const rotated = new Keyring([
      { id: 'k2', key: Buffer.alloc(32, 2) },
      { id: 'k1', key: Buffer.alloc(32, 1) },
    ]);
    const before = await readAll(await store.get(written.blobKey));
    const rewrapped = new SealedBlobs({ store, keyring: rotated }).rewrap({ ...written, context });
    expect(rewrapped.keyId).toBe('k2');
    const onlyNewKey = new SealedBlobs({ store, keyring: new Keyring([{ id: 'k2', key: Buffer.alloc(32, 2) }]) });
    expect((await readAll(await onlyNewKey.read({ ...written, ...rewrapped, context }))).equals(plain)).toBe(true);
    expect((await readAll(await store.get(written.blobKey))).equals(before)).toBe(true);
    // The rewrapped key is bound to its place too.
    await expect(
      onlyNewKey.read({ ...written, ...rewrapped, context: { ...context, id: randomUUID() } }),
    ).rejects.toThrow(EncryptedValueError);
  });

  it('removes a file, and leaves no blob when the body fails', async () => {
    const file = await blobs.write(Readable.from([Buffer.from('to remove')]), context);
    await blobs.remove(file);
    expect(await store.size(file.blobKey)).toBeNull();
    const before: string[] = [];
    for await (const entry of store.list('message_attachments/')) before.push(entry.key);
    await expect(blobs.write(failingBody(), context)).rejects.toThrow('the client went away');
    const after: string[] = [];
    for await (const entry of store.list('message_attachments/')) after.push(entry.key);
    expect(after.sort()).toEqual(before.sort());
  });

  it('streams a 20 MB file through sealing and back without holding it', async () => {
    const chunks = 320;
    const chunkSize = 64 * 1024;
    // In a worker thread with the same folder, key and context (test/memory-probe.ts).
    const result = await probeMemory({
      kind: 'sealed',
      root,
      keys: [{ id: 'k1', keyHex }],
      context,
      chunks,
      chunkSize,
    });
    expect(result.written).toBe(chunks * chunkSize);
    expect(result.read).toBe(chunks * chunkSize);
    // What was read back has the SHA-256 SealedBlobs noted as it wrote.
    expect(result.ok).toBe(true);
    // Measured about 2.7 MiB: a segment being sealed or opened and the streams' buffers.
    expect(result.growth).toBeLessThan(8 * 1024 * 1024);
  });
});

describe('the blob store settings', () => {
  it('keep files under DATA_DIR/blobs by default, or in the bucket BLOB_STORE_URL names', () => {
    const dataDir = tempFolder();
    expect(loadConfig({ DATA_DIR: dataDir }).blobStore).toEqual({ kind: 'file', dir: path.join(dataDir, 'blobs') });
    expect(
      loadConfig({
        BLOB_STORE_URL: 's3://practice-files/telehealth/prod/',
        S3_ENDPOINT: 'https://s3.example.org',
        S3_FORCE_PATH_STYLE: 'true',
      }).blobStore,
    ).toEqual({
      kind: 's3',
      bucket: 'practice-files',
      prefix: 'telehealth/prod',
      endpoint: 'https://s3.example.org',
      forcePathStyle: true,
    });
    expect(loadConfig({ BLOB_STORE_URL: 's3://practice-files' }).blobStore).toMatchObject({
      bucket: 'practice-files',
      prefix: '',
    });
    for (const url of ['http://bucket/x', 's3://Bucket', 's3://b/../x', 's3://bucket/a b'])
      expect(() => loadConfig({ BLOB_STORE_URL: url }), url).toThrow(/BLOB_STORE_URL/);
    expect(() => loadConfig({ S3_ENDPOINT: 'ftp://x' })).toThrow(/S3_ENDPOINT/);
  });
});
