import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { FileBlobStore } from '../src/blobs/file-blob-store.ts';
import { SealedBlobs, SEGMENT_BYTES, sealedLength, type SealedBlobWritten } from '../src/blobs/sealed-blobs.ts';
import { EncryptedValueError, Keyring } from '../src/keys/keyring.ts';
import { describeBlobStoreContract, bufferMemoryPeak, failingBody, generatedBody } from './blob-store-contract.ts';
import { afterFile } from './file-cleanup.ts';

function tempFolder(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'telehealth-blobs-'));
  afterFile(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

const fileRoot = path.join(tempFolder(), 'blobs');
describeBlobStoreContract('FileBlobStore', () => new FileBlobStore(fileRoot));

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

const keyring = new Keyring([{ id: 'k1', key: Buffer.alloc(32, 1) }]);
const context = { table: 'message_attachments', column: 'data', id: '00000000-0000-4000-8000-000000000001' };

async function readAll(stream: Readable): Promise<Buffer> {
  return buffer(stream);
}

describe('SealedBlobs', () => {
  const store = new FileBlobStore(path.join(tempFolder(), 'blobs'));
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
    const memory = bufferMemoryPeak();
    const body = generatedBody(chunks, chunkSize, 3);
    body.on('data', () => memory.sample());
    const file = await blobs.write(body, context);
    expect(file.plainBytes).toBe(chunks * chunkSize);
    let read = 0;
    const hash = createHash('sha256');
    for await (const chunk of await blobs.read({ ...file, context })) {
      hash.update(chunk as Buffer);
      read += (chunk as Buffer).length;
      memory.sample();
    }
    expect(read).toBe(chunks * chunkSize);
    expect(hash.digest('hex')).toBe(file.sha256);
    expect(memory.growth()).toBeLessThan(8 * 1024 * 1024);
  });
});
