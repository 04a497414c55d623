// Measures the memory a 20 MiB stream holds alive, in a worker thread of its own (test/memory-probe-worker.ts).
// The measure forces a full garbage collection every few chunks; in the vitest worker, whose heap holds the modules
// of many test files (isolate: false), each one cost tens of milliseconds and a test made about 80 of them (over
// 90 s on a loaded machine). A worker's heap holds only the blob store's modules, so each collection is cheap.
import { Readable } from 'node:stream';
import v8 from 'node:v8';
import vm from 'node:vm';
import { Worker } from 'node:worker_threads';

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

/** A blob store as plain data, for the worker to open: the file store's folder, or an S3 bucket. */
export type ProbeStore =
  | { kind: 'file'; root: string }
  | {
      kind: 's3';
      endpoint: string;
      bucket: string;
      prefix: string;
      region: string;
      accessKeyId: string;
      secretAccessKey: string;
    };

/**
 * What the worker runs: `store`, a generated body of `chunks` chunks of `chunkSize` bytes put into the store and
 * read back; `sealed`, the same through SealedBlobs over a file store, with the keyring's keys as hex.
 */
export type ProbeScenario =
  | { kind: 'store'; store: ProbeStore; chunks: number; chunkSize: number }
  | {
      kind: 'sealed';
      root: string;
      keys: { id: string; keyHex: string }[];
      context: { table: string; column: string; id: string };
      chunks: number;
      chunkSize: number;
    };

/**
 * What a run answers. growth: the most bytes in buffers it held alive beyond what it started with. written: the bytes
 * the store (or SealedBlobs) said it wrote. read: the bytes read back. ok: what was read back is what was written
 * (each chunk's value where it belongs; for sealed files, the SHA-256 SealedBlobs noted).
 */
export interface ProbeResult {
  growth: number;
  written: number;
  read: number;
  ok: boolean;
}

v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/**
 * The most memory in buffers a stream's run held alive: `sample()` collects garbage every `every` calls and notes
 * the buffers still held, so freed chunks waiting for the collector are not counted. Called in the worker.
 */
export function bufferMemoryPeak(every = 8): { sample(): void; growth(): number } {
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

/**
 * Runs `scenario` in a worker thread and answers what it measured. `process.memoryUsage().arrayBuffers` counts the
 * buffers of the whole process, this thread's too, so the figure still holds: this thread collects its garbage
 * first and then only awaits the worker (a test awaits this, and the file's other tests wait for it), allocating
 * nothing that stays, so what grows while the worker measures is the worker's streaming.
 */
export async function probeMemory(scenario: ProbeScenario): Promise<ProbeResult> {
  collectGarbage();
  const worker = new Worker(new URL('./memory-probe-worker.ts', import.meta.url), { workerData: scenario });
  try {
    return await new Promise<ProbeResult>((resolve, reject) => {
      worker.once('message', (result: ProbeResult) => resolve(result));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the memory probe stopped (${code}) without an answer`)));
    });
  } finally {
    await worker.terminate();
  }
}
