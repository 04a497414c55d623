import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { BlobNotFoundError, type BlobStore } from '../src/blobs/blob-store.ts';
import { probeMemory, type ProbeStore } from './memory-probe.ts';

export { generatedBody } from './memory-probe.ts';

/** A body that sends some bytes, then fails (a client that went away mid-upload). */
export function failingBody(): Readable {
  let sent = false;
  return new Readable({
    read() {
      if (!sent) {
        sent = true;
        this.push(randomBytes(1000));
      } else {
        this.destroy(new Error('the client went away'));
      }
    },
  });
}

async function keysOf(store: BlobStore, prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of store.list(prefix)) keys.push(entry.key);
  return keys.sort();
}

/**
 * What every BlobStore must do: the same tests against the file store and the S3 store. `heldBytes`: the most a
 * 20 MiB write and read may hold alive in buffers (the S3 store holds up to two 5 MiB parts by design), measured in
 * a worker thread that opens the store `probeStore` describes (test/memory-probe.ts).
 */
export function describeBlobStoreContract(
  name: string,
  openStore: () => BlobStore,
  heldBytes: number,
  probeStore: () => ProbeStore,
): void {
  describe(`${name}: the BlobStore contract`, () => {
    it('writes a blob and reads it back, whole and by ranges', async () => {
      const store = openStore();
      const bytes = randomBytes(300_000);
      const key = `contract/${randomBytes(6).toString('hex')}`;
      expect(await store.put(key, Readable.from([bytes.subarray(0, 1000), bytes.subarray(1000)]))).toEqual({
        bytes: bytes.length,
      });
      expect(await store.size(key)).toBe(bytes.length);
      expect((await buffer(await store.get(key))).equals(bytes)).toBe(true);
      expect(await buffer(await store.get(key, { start: 0, end: 0 }))).toEqual(bytes.subarray(0, 1));
      const last = bytes.length - 1;
      expect(await buffer(await store.get(key, { start: last, end: last }))).toEqual(bytes.subarray(last));
      expect(await buffer(await store.get(key, { start: 1000, end: 200_999 }))).toEqual(bytes.subarray(1000, 201_000));
      // An end past the blob's end is clamped to it.
      expect(await buffer(await store.get(key, { start: 299_990, end: 10_000_000 }))).toEqual(bytes.subarray(299_990));
      await expect(store.get(key, { start: bytes.length, end: bytes.length + 5 })).rejects.toThrow(RangeError);
    });

    it('answers a missing blob: get throws, size is null, delete is fine', async () => {
      const store = openStore();
      await expect(store.get('contract/missing')).rejects.toThrow(BlobNotFoundError);
      expect(await store.size('contract/missing')).toBeNull();
      await store.delete('contract/missing');
    });

    it('writes an empty blob', async () => {
      const store = openStore();
      const key = `contract/empty-${randomBytes(4).toString('hex')}`;
      expect(await store.put(key, Readable.from([]))).toEqual({ bytes: 0 });
      expect(await store.size(key)).toBe(0);
      expect((await buffer(await store.get(key))).length).toBe(0);
    });

    it('leaves nothing when the body fails midway', async () => {
      const store = openStore();
      const key = `contract/failed-${randomBytes(4).toString('hex')}`;
      await expect(store.put(key, failingBody())).rejects.toThrow('the client went away');
      expect(await store.size(key)).toBeNull();
    });

    it('deletes a blob', async () => {
      const store = openStore();
      const key = `contract/deleted-${randomBytes(4).toString('hex')}`;
      await store.put(key, Readable.from([Buffer.from('gone soon')]));
      await store.delete(key);
      expect(await store.size(key)).toBeNull();
      await expect(store.get(key)).rejects.toThrow(BlobNotFoundError);
    });

    it('lists the blobs under a prefix, with their sizes', async () => {
      const store = openStore();
      const base = `list-${randomBytes(4).toString('hex')}`;
      await store.put(`${base}/a/one`, Readable.from([Buffer.alloc(3)]));
      await store.put(`${base}/a/two`, Readable.from([Buffer.alloc(5)]));
      await store.put(`${base}/ab`, Readable.from([Buffer.alloc(7)]));
      await store.put(`${base}/b/three`, Readable.from([Buffer.alloc(11)]));
      expect(await keysOf(store, `${base}/a/`)).toEqual([`${base}/a/one`, `${base}/a/two`]);
      expect(await keysOf(store, `${base}/a`)).toEqual([`${base}/a/one`, `${base}/a/two`, `${base}/ab`]);
      const all: Record<string, number> = {};
      for await (const entry of store.list(`${base}/`)) all[entry.key] = entry.bytes;
      expect(all).toEqual({ [`${base}/a/one`]: 3, [`${base}/a/two`]: 5, [`${base}/ab`]: 7, [`${base}/b/three`]: 11 });
      expect(await keysOf(store, `${base}/nothing`)).toEqual([]);
    });

    it('refuses keys that could leave the store', async () => {
      const store = openStore();
      for (const key of ['../outside', 'a/../../b', '/absolute', 'a//b', '.hidden', 'a/.partial/x', 'sp ace'])
        await expect(store.put(key, Readable.from([Buffer.from('x')]))).rejects.toThrow('Not a blob key');
    });

    it('streams a big blob in and out without holding it in memory', async () => {
      const chunks = 320;
      const chunkSize = 64 * 1024; // 20 MiB in all
      const result = await probeMemory({ kind: 'store', store: probeStore(), chunks, chunkSize });
      expect(result.written).toBe(chunks * chunkSize);
      // Every chunk read back held the generator's value for where it was.
      expect(result.ok).toBe(true);
      expect(result.read).toBe(chunks * chunkSize);
      expect(result.growth).toBeLessThan(heldBytes);
    });
  });
}
