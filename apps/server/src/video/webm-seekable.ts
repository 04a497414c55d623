import { Decoder, Reader, tools } from 'ts-ebml';

// A WebM from MediaRecorder made seekable without holding it: Chromium's recorder leaves out the duration and the
// Cues (seeking index), so a player could neither show the length nor seek. One pass over the bytes reads the
// metadata, duration and cue points (ts-ebml's decoder keeps only the element it is reading); the fixed file is
// then the new metadata followed by the recorded bytes after the old metadata, streamed a second time.

/** What the first pass learnt: the metadata to write first, how many recorded bytes it replaces, the duration. */
export interface SeekableFix {
  metadata: Buffer;
  metadataSize: number;
  durationMs: number;
}

/** Reads a WebM's parts once and answers its fixed metadata; throws when the bytes are not a WebM it can fix. */
export async function scanWebm(parts: AsyncIterable<Buffer>): Promise<SeekableFix> {
  const decoder = new Decoder();
  const reader = new Reader();
  reader.logging = false;
  reader.drop_default_duration = false;
  for await (const part of parts) {
    const exact = part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength) as ArrayBuffer;
    for (const element of decoder.decode(exact)) reader.read(element);
  }
  reader.stop();
  if (reader.metadatas.length === 0 || reader.metadataSize <= 0) throw new Error('no WebM metadata');
  // ts-ebml answers `Buffer.concat(...).buffer`, which for a small result is Node's whole shared pool: with
  // pooling off for the call, the ArrayBuffer is exactly the metadata.
  const poolSize = Buffer.poolSize;
  let metadata: ArrayBuffer;
  try {
    Buffer.poolSize = 0;
    metadata = tools.makeMetadataSeekable(reader.metadatas, reader.duration, reader.cues);
  } finally {
    Buffer.poolSize = poolSize;
  }
  const scaleNs =
    (reader as unknown as { timestampScale?: number; timecodeScale?: number }).timestampScale ?? 1_000_000;
  return {
    metadata: Buffer.from(metadata),
    metadataSize: reader.metadataSize,
    durationMs: Math.round((reader.duration * scaleNs) / 1_000_000),
  };
}

/** The fixed file: `fix.metadata`, then the parts' bytes after their first `fix.metadataSize`. */
export async function* withFixedMetadata(parts: AsyncIterable<Buffer>, fix: SeekableFix): AsyncGenerator<Buffer> {
  yield fix.metadata;
  let skip = fix.metadataSize;
  for await (const part of parts) {
    if (skip >= part.length) {
      skip -= part.length;
      continue;
    }
    yield skip > 0 ? part.subarray(skip) : part;
    skip = 0;
  }
}
