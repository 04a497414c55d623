import type { Readable } from 'node:stream';

/*
 * Where files live (issue 29, decision 070): raw bytes under a key, no crypto here (SealedBlobs, beside this file,
 * encrypts before anything reaches a store). Two stores: files under DATA_DIR/blobs (the default, nothing to
 * install) and any S3-compatible object store (BLOB_STORE_URL=s3://bucket/prefix).
 */

/** A byte range, both ends inclusive (as in HTTP's `Range: bytes=start-end`). */
export interface ByteRange {
  start: number;
  end: number;
}

/** One stored blob, as `list` answers it. */
export interface BlobEntry {
  key: string;
  bytes: number;
}

/**
 * A store of blobs. Keys are relative paths of letters, digits, `-`, `_`, `.` and `/` (see `checkBlobKey`); a key
 * is written once (a new file gets a new key), so no store needs to handle two writers of one key.
 */
export interface BlobStore {
  /** What the store is, for logs and the health page (never a credential). */
  readonly description: string;
  /**
   * Writes the whole body under `key`, or nothing: a failed or aborted body leaves no blob (a temporary file
   * renamed at the end on disk, a multipart upload completed at the end or aborted on S3). Answers its length.
   */
  put(key: string, body: Readable): Promise<{ bytes: number }>;
  /**
   * The blob's bytes, or the bytes of `range` (end inclusive, clamped to the blob's end). A missing blob throws
   * `BlobNotFoundError`; a range starting past the end throws `RangeError`.
   */
  get(key: string, range?: ByteRange): Promise<Readable>;
  /** The blob's length in bytes, or null when there is none under `key`. */
  size(key: string): Promise<number | null>;
  /** Removes the blob; a missing one is fine. */
  delete(key: string): Promise<void>;
  /** Every blob whose key starts with `prefix` (in no promised order). */
  list(prefix: string): AsyncIterable<BlobEntry>;
}

/** No blob under that key. */
export class BlobNotFoundError extends Error {
  readonly code = 'BLOB_NOT_FOUND';
  constructor(key: string) {
    super(`No blob under ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]*(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$/;

/**
 * Refuses a key that could leave the store's folder or mean different things to different stores: only path
 * segments of letters, digits, `.`, `_` and `-`, none starting with a dot (so no `..`), at most 512 characters.
 */
export function checkBlobKey(key: string): string {
  if (key.length > 512 || !KEY.test(key)) throw new Error(`Not a blob key: ${JSON.stringify(key.slice(0, 80))}`);
  return key;
}

/** Checks a range against nothing but itself: whole numbers, start at most end. */
export function checkByteRange(range: ByteRange): ByteRange {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start) {
    throw new RangeError(`Not a byte range: ${start}-${end}`);
  }
  return range;
}
