// The worker thread of test/memory-probe.ts: opens the store its scenario names, streams a generated body into it
// and back out, noting the buffers held alive, and posts what it measured.
import { createHash, randomBytes } from 'node:crypto';
import { parentPort, workerData } from 'node:worker_threads';
import { S3Client } from '@aws-sdk/client-s3';
import type { BlobStore } from '../src/blobs/blob-store.ts';
import { FileBlobStore } from '../src/blobs/file-blob-store.ts';
import { S3BlobStore } from '../src/blobs/s3-blob-store.ts';
import { SealedBlobs } from '../src/blobs/sealed-blobs.ts';
import { Keyring } from '../src/keys/keyring.ts';
import {
  bufferMemoryPeak,
  generatedBody,
  type ProbeResult,
  type ProbeScenario,
  type ProbeStore,
} from './memory-probe.ts';

function openStore(spec: ProbeStore): { store: BlobStore; close: () => void } {
  if (spec.kind === 'file') return { store: new FileBlobStore(spec.root), close: () => {} };
  const client = new S3Client({
    endpoint: spec.endpoint,
    forcePathStyle: true,
    region: spec.region,
    credentials: { accessKeyId: spec.accessKeyId, secretAccessKey: spec.secretAccessKey },
  });
  return {
    store: new S3BlobStore({ bucket: spec.bucket, prefix: spec.prefix, client }),
    close: () => client.destroy(),
  };
}

async function throughStore(scenario: Extract<ProbeScenario, { kind: 'store' }>): Promise<ProbeResult> {
  const { store, close } = openStore(scenario.store);
  try {
    const { chunks, chunkSize } = scenario;
    const key = `contract/big-${randomBytes(4).toString('hex')}`;
    const memory = bufferMemoryPeak();
    const body = generatedBody(chunks, chunkSize);
    body.on('data', () => memory.sample());
    const { bytes: written } = await store.put(key, body);
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
    return { growth: memory.growth(), written, read, ok: !mismatch };
  } finally {
    close();
  }
}

async function throughSealing(scenario: Extract<ProbeScenario, { kind: 'sealed' }>): Promise<ProbeResult> {
  const { chunks, chunkSize, context } = scenario;
  const keyring = new Keyring(scenario.keys.map(({ id, keyHex }) => ({ id, key: Buffer.from(keyHex, 'hex') })));
  const blobs = new SealedBlobs({ store: new FileBlobStore(scenario.root), keyring });
  const memory = bufferMemoryPeak();
  const body = generatedBody(chunks, chunkSize, 3);
  body.on('data', () => memory.sample());
  const file = await blobs.write(body, context);
  let read = 0;
  const hash = createHash('sha256');
  for await (const chunk of await blobs.read({ ...file, context })) {
    hash.update(chunk as Buffer);
    read += (chunk as Buffer).length;
    memory.sample();
  }
  return { growth: memory.growth(), written: file.plainBytes, read, ok: hash.digest('hex') === file.sha256 };
}

const scenario = workerData as ProbeScenario;
const result = scenario.kind === 'store' ? await throughStore(scenario) : await throughSealing(scenario);
parentPort?.postMessage(result);
