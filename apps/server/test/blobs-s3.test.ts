import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import { beforeAll, describe, expect, it, onTestFinished, vi } from 'vitest';
import { openBlobStore } from '../src/blobs/blobs.module.ts';
import { S3BlobStore } from '../src/blobs/s3-blob-store.ts';
import { SealedBlobs } from '../src/blobs/sealed-blobs.ts';
import { Keyring } from '../src/keys/keyring.ts';
import { describeBlobStoreContract, generatedBody } from './blob-store-contract.ts';
import { afterFile } from './file-cleanup.ts';

/*
 * The S3 store against fauxqs (decision 070), an S3-compatible server in JavaScript, started here in a child
 * process on a free loopback port with its objects in a temporary folder: the same contract as the file store,
 * multipart uploads (completed, and aborted when the body fails) and byte ranges, through the AWS SDK with its
 * default settings (checksums included).
 */

const BUCKET = 'telehealth-test';
let client: S3Client | undefined;
let storageDir = '';
let s3Port = 0;

async function startS3Server(): Promise<number> {
  storageDir = fs.mkdtempSync(path.join(os.tmpdir(), 'telehealth-s3-'));
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 's3-server.ts'), storageDir], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  afterFile(async () => {
    // Its standard input closing stops it; the kill is for a server that does not answer.
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.stdin.end();
    const timer = setTimeout(() => child.kill(), 5_000);
    await exited;
    clearTimeout(timer);
    fs.rmSync(storageDir, { recursive: true, force: true });
  });
  const lines = createInterface({ input: child.stdout });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`the S3 server stopped (${code})`))),
  );
  const started = (async () => {
    for await (const line of lines) return (JSON.parse(line) as { port: number }).port;
    throw new Error('the S3 server said nothing');
  })();
  return Promise.race([started, exited]);
}

beforeAll(async () => {
  const port = await startS3Server();
  s3Port = port;
  client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    forcePathStyle: true,
    region: 'us-east-1',
    credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
  });
  await client.send(new CreateBucketCommand({ Bucket: BUCKET }));
  afterFile(() => client?.destroy());
});

function openStore(prefix = 'practice') {
  if (!client) throw new Error('the S3 server did not start');
  return new S3BlobStore({ bucket: BUCKET, prefix, client });
}

// Measured about 10-13 MiB: the part being sent and the part being filled (5 MiB each, lib-storage's queueSize 1),
// and the chunks copied into them; a 20 MiB file is never held whole.
describeBlobStoreContract(
  'S3BlobStore',
  () => openStore(),
  18 * 1024 * 1024,
  () => ({
    kind: 's3',
    endpoint: `http://127.0.0.1:${s3Port}`,
    bucket: BUCKET,
    prefix: 'practice',
    region: 'us-east-1',
    accessKeyId: 'test',
    secretAccessKey: 'test',
  }),
);

/** Every file under the S3 server's folder (objects and the parts of uploads in progress). */
function filesOfS3Server(): string[] {
  return fs
    .readdirSync(storageDir, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => e.name);
}

describe('S3BlobStore', () => {
  it('sends a large blob in parts, and aborts the upload when the body fails midway', async () => {
    const store = openStore();
    const key = `multipart/${randomBytes(4).toString('hex')}`;
    // 12 MiB: three parts of 5, 5 and 2 MiB.
    expect(await store.put(key, generatedBody(192, 64 * 1024, 9))).toEqual({ bytes: 12 * 1024 * 1024 });
    expect(await store.size(key)).toBe(12 * 1024 * 1024);
    const across = await buffer(await store.get(key, { start: 5 * 1024 * 1024 - 2, end: 5 * 1024 * 1024 + 1 }));
    expect(across).toEqual(Buffer.from([(9 + 79) % 251, (9 + 79) % 251, (9 + 80) % 251, (9 + 80) % 251]));

    const failed = `multipart/failed-${randomBytes(4).toString('hex')}`;
    let sent = 0;
    const body = new Readable({
      read() {
        // Two parts' worth, then the client goes away.
        if (sent++ < 176) this.push(Buffer.alloc(64 * 1024, 1));
        else this.destroy(new Error('the client went away'));
      },
    });
    const before = filesOfS3Server().length;
    await expect(store.put(failed, body)).rejects.toThrow('the client went away');
    expect(await store.size(failed)).toBeNull();
    // The parts sent were dropped with the aborted upload.
    expect(filesOfS3Server().length).toBe(before);
  });

  it('keeps each store to its prefix', async () => {
    const one = openStore('one');
    const two = openStore('two');
    await one.put('a/file', Readable.from([Buffer.from('one')]));
    expect(await two.size('a/file')).toBeNull();
    const keys: string[] = [];
    for await (const entry of one.list('a/')) keys.push(entry.key);
    expect(keys).toEqual(['a/file']);
  });

  it('holds sealed files, read by ranges', async () => {
    const keyring = new Keyring([{ id: 'k1', key: Buffer.alloc(32, 4) }]);
    const blobs = new SealedBlobs({ store: openStore(), keyring });
    const context = { table: 'intake_card_photos', column: 'data', id: 'photo-1' };
    const plain = randomBytes(200_000);
    const file = await blobs.write(Readable.from([plain]), context);
    expect((await buffer(await blobs.read({ ...file, context }))).equals(plain)).toBe(true);
    expect(await buffer(await blobs.read({ ...file, context }, { start: 65_530, end: 65_540 }))).toEqual(
      plain.subarray(65_530, 65_541),
    );
    await blobs.remove(file);
    expect(await blobs.store.size(file.blobKey)).toBeNull();
  });

  it('is the store BLOB_STORE_URL names, with the AWS SDK loaded at its first file', async () => {
    // The SDK's own sources of region and credentials, as a deployment sets them.
    onTestFinished(() => {
      vi.unstubAllEnvs();
    });
    vi.stubEnv('AWS_REGION', 'us-east-1');
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'test');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'test');
    const store = openBlobStore({
      kind: 's3',
      bucket: BUCKET,
      prefix: 'configured',
      endpoint: `http://127.0.0.1:${s3Port}`,
      forcePathStyle: true,
    });
    expect(store.description).toBe(`s3://${BUCKET}/configured/`);
    await store.put('a/file', Readable.from([Buffer.from('configured')]));
    expect((await buffer(await store.get('a/file'))).toString()).toBe('configured');
    // The same object through a store of the prefix made directly: the configuration reached that bucket.
    expect(await openStore('configured').size('a/file')).toBe(10);
  });
});
