import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { buffer } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { BlobNotFoundError, type BlobStore } from '../src/blobs/blob-store.ts';

/** `count` chunks of `size` bytes, made as they are read (never the whole body in memory). */
export function generatedBody(count: number, size: number, seed = 1): Readable {
  let sent = 0;
  return new Readable({
    read() {
      if (sent === count) {
        this.push(null);
        return;
      }
      this.push(Buffer.alloc(size, (seed + sent++) % 251));
    },
  });
}

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/**
 * The most memory in buffers a stream's run held alive: `sample()` collects garbage every `every` calls and notes
 * the buffers still held, so freed chunks waiting for the collector are not counted.
 */
export function bufferMemoryPeak(every = 32): { sample(): void; growth(): number } {
  collectGarbage();
  const start = process.memoryUsage().arrayBuffers;
  let peak = start;
  let calls = 0;
  return {
    sample() {
      if (++calls % every !== 0) return;
      collectGarbage();
      peak = Math.max(peak, process.memoryUsage().arrayBuffers);
    },
    growth: () => peak - start,
  };
}

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

/** What every BlobStore must do: the same tests against the file store and the S3 store. */
export function describeBlobStoreContract(name: string, openStore: () => BlobStore): void {
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
      const store = openStore();
      const key = `contract/big-${randomBytes(4).toString('hex')}`;
      const chunks = 320;
      const chunkSize = 64 * 1024; // 20 MiB in all
      const memory = bufferMemoryPeak();
      const body = generatedBody(chunks, chunkSize);
      body.on('data', () => memory.sample());
      expect(await store.put(key, body)).toEqual({ bytes: chunks * chunkSize });
      let read = 0;
      let mismatch = false;
      for await (const chunk of await store.get(key)) {
        const buf = chunk as Buffer;
        // Every chunk of the generator is one value: check what arrives against where it is.
        for (let offset = 0; offset < buf.length; offset += 4096) {
          const position = read + offset;
          if (buf[offset] !== (1 + Math.floor(position / chunkSize)) % 251) mismatch = true;
        }
        read += buf.length;
        memory.sample();
      }
      expect(mismatch).toBe(false);
      expect(read).toBe(chunks * chunkSize);
      // Never near the 20 MiB: the stores hold at most a few parts (S3's multipart parts are 5 MiB).
      expect(memory.growth()).toBeLessThan(16 * 1024 * 1024);
    });
  });
}
