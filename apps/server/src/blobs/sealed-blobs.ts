import { createCipheriv, createDecipheriv, createHash, randomBytes, randomUUID } from 'node:crypto';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { EncryptedValueError, type FieldContext, type Keyring } from '../keys/keyring.ts';
import type { BlobStore, ByteRange } from './blob-store.ts';

/*
 * Files sealed before they reach a store (issue 29, decision 070): envelope encryption per file. Each file has a
 * random 32-byte file key, kept only wrapped by the keyring's current data key with the file's place (table,
 * column, row id) as additional data, so the row holds { blob key, key id, wrapped key } and the store holds
 * nothing readable.
 *
 * The content is cut into segments of 64 KiB of plaintext, each AES-256-GCM under the file key with the nonce
 * of its index (a file key seals one content once, so an index is never used twice under one key) and, as
 * additional data, the format, its index and whether it is the last. A byte range decrypts only the segments
 * that cover it; a segment moved, dropped or changed fails its tag, and so does a file cut at a segment's end
 * (its new last segment was sealed as not last). A file of n bytes is stored as ceil(n / 64 KiB) segments, at
 * least one (an empty file is one empty segment, so even it is authenticated), each followed by its 16-byte tag.
 */

/** Plaintext bytes in a segment (the last may be shorter). */
export const SEGMENT_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const STORED_SEGMENT_BYTES = SEGMENT_BYTES + TAG_BYTES;
const FILE_KEY_BYTES = 32;
const FORMAT = Buffer.from('telehealth-blob-v1', 'ascii');

/** What a row keeps to find and open its file (with the file's context, which the row's place gives). */
export interface SealedBlobRef {
  blobKey: string;
  /** The data key that wraps the file key (for key rotation: the rows not under the current key). */
  keyId: string;
  wrappedKey: Buffer;
  plainBytes: number;
}

/** A file written: what to store in its row, and the SHA-256 of its plaintext (hex). */
export interface SealedBlobWritten extends SealedBlobRef {
  sha256: string;
}

/** A stored file's reference with the place it belongs to (the file key is bound to it). */
export interface SealedBlobLocation extends SealedBlobRef {
  context: FieldContext;
}

/** Where a row's file is: its blob, or (a row from before the blob store) its bytes sealed in the row. */
export type StoredFile = { blob: SealedBlobRef; data: null } | { blob: null; data: Buffer };

/** A row's file, by its columns (the size is the file's plaintext length). */
export function storedFileOf(row: {
  data: Buffer | null;
  blobKey: string | null;
  keyId: string | null;
  wrappedKey: Buffer | null;
  sizeBytes: number;
}): StoredFile {
  if (row.blobKey !== null && row.keyId !== null && row.wrappedKey !== null) {
    return {
      blob: { blobKey: row.blobKey, keyId: row.keyId, wrappedKey: row.wrappedKey, plainBytes: row.sizeBytes },
      data: null,
    };
  }
  // The table's check (fileIsKept) makes this unreachable.
  if (!row.data) throw new Error('A file row without its file');
  return { blob: null, data: row.data };
}

/** What the file store of a table's files calls a file's new key: `<table>/<random uuid>`. */
function newBlobKey(context: FieldContext): string {
  return `${context.table}/${randomUUID()}`;
}

/**
 * The place the file key is wrapped for: the file's own place with the column marked, so a wrapped key can never
 * stand for a value sealed in the column itself (the bytea files of before, under the same table and id).
 */
function wrapContext(context: FieldContext): FieldContext {
  return { ...context, column: `${context.column}#file-key` };
}

function nonceOf(index: number): Buffer {
  const nonce = Buffer.alloc(12);
  nonce.writeBigUInt64BE(BigInt(index), 4);
  return nonce;
}

function segmentData(index: number, last: boolean): Buffer {
  const data = Buffer.alloc(FORMAT.length + 9);
  FORMAT.copy(data);
  data.writeBigUInt64BE(BigInt(index), FORMAT.length);
  data[FORMAT.length + 8] = last ? 1 : 0;
  return data;
}

function sealSegment(fileKey: Buffer, index: number, last: boolean, plain: Buffer): Buffer {
  const cipher = createCipheriv('aes-256-gcm', fileKey, nonceOf(index), { authTagLength: TAG_BYTES });
  cipher.setAAD(segmentData(index, last));
  return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

/** How many segments a file of `plainBytes` bytes has (at least one). */
function segmentCount(plainBytes: number): number {
  return Math.max(1, Math.ceil(plainBytes / SEGMENT_BYTES));
}

/** The stored length of a file of `plainBytes` bytes. */
export function sealedLength(plainBytes: number): number {
  return plainBytes + segmentCount(plainBytes) * TAG_BYTES;
}

/** Cuts plaintext into sealed segments as it flows; holds at most one segment and the chunk that arrived. */
class SegmentSealer extends Transform {
  plainBytes = 0;
  /** The SHA-256 of the plaintext (hex), once the input ended. */
  sha256 = '';
  readonly #hash = createHash('sha256');
  readonly #fileKey: Buffer;
  #pending: Buffer[] = [];
  #pendingBytes = 0;
  #index = 0;

  constructor(fileKey: Buffer) {
    super();
    this.#fileKey = fileKey;
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.plainBytes += chunk.length;
    this.#hash.update(chunk);
    this.#pending.push(chunk);
    this.#pendingBytes += chunk.length;
    // Strictly more than a segment: a full segment at the end is the last one, sealed as such in _flush.
    while (this.#pendingBytes > SEGMENT_BYTES) {
      const all = Buffer.concat(this.#pending);
      this.push(sealSegment(this.#fileKey, this.#index++, false, all.subarray(0, SEGMENT_BYTES)));
      this.#pending = [all.subarray(SEGMENT_BYTES)];
      this.#pendingBytes = all.length - SEGMENT_BYTES;
    }
    done();
  }

  override _flush(done: (error?: Error | null) => void): void {
    this.push(sealSegment(this.#fileKey, this.#index++, true, Buffer.concat(this.#pending)));
    this.#pending = [];
    this.sha256 = this.#hash.digest('hex');
    done();
  }
}

/**
 * The sealed files over a BlobStore (`runtime.blobs`): write, read (whole or a byte range), remove, and re-wrap a
 * file's key under the current data key. Streams end to end: a file is never whole in memory.
 */
export class SealedBlobs {
  readonly store: BlobStore;
  readonly #keyring: Keyring;

  constructor(options: { store: BlobStore; keyring: Keyring }) {
    this.store = options.store;
    this.#keyring = options.keyring;
  }

  /**
   * Seals `body` into a new blob for the place `context` (where its reference will be kept). The blob is whole or
   * absent; on failure nothing is left. The caller stores the answer in its row, and removes the blob if that
   * row's transaction fails.
   */
  async write(body: Readable, context: FieldContext): Promise<SealedBlobWritten> {
    const fileKey = randomBytes(FILE_KEY_BYTES);
    const blobKey = newBlobKey(context);
    const sealer = new SegmentSealer(fileKey);
    // The body's own error (a client gone, a limit passed) destroys the sealer with it, so the store's put fails
    // and keeps nothing; the store's failure destroys the sealer, and so the body.
    pipeline(body, sealer).catch(() => undefined);
    await this.store.put(blobKey, sealer);
    return {
      blobKey,
      keyId: this.#keyring.currentKeyId,
      wrappedKey: this.#keyring.encryptBytes(fileKey, wrapContext(context)),
      plainBytes: sealer.plainBytes,
      sha256: sealer.sha256,
    };
  }

  /**
   * The plaintext of a sealed file, or of `range` (end inclusive, clamped to the file's end). A range that starts
   * past the end throws RangeError. A blob changed, cut, moved to another row or under a key the keyring lacks
   * fails with EncryptedValueError: at once for the key, or as the stream's error when a segment fails.
   */
  async read(location: SealedBlobLocation, range?: ByteRange): Promise<Readable> {
    const { plainBytes, context } = location;
    const fileKey = this.#unwrap(location);
    let start = 0;
    let end = plainBytes - 1;
    if (range) {
      if (!Number.isSafeInteger(range.start) || !Number.isSafeInteger(range.end) || range.start > range.end)
        throw new RangeError(`Not a byte range: ${range.start}-${range.end}`);
      if (range.start >= plainBytes || range.start < 0)
        throw new RangeError(`Range ${range.start}-${range.end} is outside the file (${plainBytes} bytes)`);
      start = range.start;
      end = Math.min(range.end, plainBytes - 1);
    }
    const lastIndex = segmentCount(plainBytes) - 1;
    const first = Math.floor(Math.max(start, 0) / SEGMENT_BYTES);
    const last = plainBytes === 0 ? 0 : Math.floor(end / SEGMENT_BYTES);
    const storedStart = first * STORED_SEGMENT_BYTES;
    const storedEnd = last * STORED_SEGMENT_BYTES + plainLengthOf(last, plainBytes) + TAG_BYTES - 1;
    let stored: Readable;
    try {
      stored = await this.store.get(location.blobKey, { start: storedStart, end: storedEnd });
    } catch (error) {
      // The range was checked against the file's length: a blob shorter than that was cut.
      if (error instanceof RangeError) throw new EncryptedValueError(context, 'the file is cut short');
      throw error;
    }
    return Readable.from(openedChunks(stored, { fileKey, context, first, last, lastIndex, plainBytes, start, end }));
  }

  /**
   * How to open a row's file, whole or by a byte range: from the blob store, or (a row from before it) from the
   * bytes sealed in the row under `context`, which are opened here at once, so a damaged row fails before anything
   * is sent or recorded.
   */
  openerOf(stored: StoredFile, context: FieldContext): (range?: ByteRange) => Promise<Readable> {
    if (stored.blob) {
      const location = { ...stored.blob, context };
      return (range) => this.read(location, range);
    }
    const bytes = this.#keyring.decryptBytes(stored.data, context);
    return (range) => {
      if (!range) return Promise.resolve(Readable.from([bytes]));
      if (range.start >= bytes.length)
        return Promise.reject(new RangeError(`Range ${range.start}-${range.end} is outside the file`));
      return Promise.resolve(Readable.from([bytes.subarray(range.start, range.end + 1)]));
    };
  }

  /** Removes the file's blob (a missing one is fine). */
  async remove(ref: Pick<SealedBlobRef, 'blobKey'>): Promise<void> {
    await this.store.delete(ref.blobKey);
  }

  /**
   * The file key wrapped again under `keyring`'s current data key (key rotation). The content is not touched: it
   * is sealed under the file key, which does not change.
   */
  rewrap(location: SealedBlobLocation, keyring: Keyring = this.#keyring): { keyId: string; wrappedKey: Buffer } {
    const fileKey = keyring.decryptBytes(location.wrappedKey, wrapContext(location.context));
    return { keyId: keyring.currentKeyId, wrappedKey: keyring.encryptBytes(fileKey, wrapContext(location.context)) };
  }

  #unwrap(location: SealedBlobLocation): Buffer {
    const fileKey = this.#keyring.decryptBytes(location.wrappedKey, wrapContext(location.context));
    if (fileKey.length !== FILE_KEY_BYTES) throw new EncryptedValueError(location.context, 'the file key is damaged');
    return fileKey;
  }
}

function plainLengthOf(index: number, plainBytes: number): number {
  return Math.max(0, Math.min(SEGMENT_BYTES, plainBytes - index * SEGMENT_BYTES));
}

/** Decrypts the stored segments `first`..`last` as they arrive and yields the plaintext of `start`..`end`. */
async function* openedChunks(
  stored: Readable,
  plan: {
    fileKey: Buffer;
    context: FieldContext;
    first: number;
    last: number;
    lastIndex: number;
    plainBytes: number;
    start: number;
    end: number;
  },
): AsyncGenerator<Buffer> {
  const { fileKey, context, last, lastIndex, plainBytes, start, end } = plan;
  let index = plan.first;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const open = (segment: Buffer): Buffer | null => {
    const expected = plainLengthOf(index, plainBytes) + TAG_BYTES;
    if (segment.length !== expected) throw new EncryptedValueError(context, `segment ${index} is cut short`);
    let plain: Buffer;
    try {
      const decipher = createDecipheriv('aes-256-gcm', fileKey, nonceOf(index), { authTagLength: TAG_BYTES });
      decipher.setAAD(segmentData(index, index === lastIndex));
      decipher.setAuthTag(segment.subarray(segment.length - TAG_BYTES));
      plain = Buffer.concat([decipher.update(segment.subarray(0, segment.length - TAG_BYTES)), decipher.final()]);
    } catch {
      throw new EncryptedValueError(context, `segment ${index} fails authentication`);
    }
    // Only the part of the segment inside the range.
    const segmentStart = index * SEGMENT_BYTES;
    const from = Math.max(0, start - segmentStart);
    const to = Math.min(plain.length, end - segmentStart + 1);
    index++;
    return to > from ? plain.subarray(from, to) : null;
  };
  try {
    for await (const chunk of stored) {
      pending.push(chunk as Buffer);
      pendingBytes += (chunk as Buffer).length;
      while (index <= last && pendingBytes >= plainLengthOf(index, plainBytes) + TAG_BYTES) {
        const all = pending.length === 1 ? pending[0]! : Buffer.concat(pending);
        const length = plainLengthOf(index, plainBytes) + TAG_BYTES;
        const out = open(all.subarray(0, length));
        pending = [all.subarray(length)];
        pendingBytes = all.length - length;
        if (out) yield out;
      }
    }
    if (index <= last || pendingBytes > 0) throw new EncryptedValueError(context, `the file is cut short or too long`);
  } finally {
    stored.destroy();
  }
}
