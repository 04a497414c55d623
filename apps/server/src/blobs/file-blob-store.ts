import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  BlobNotFoundError,
  checkBlobKey,
  checkByteRange,
  type BlobEntry,
  type BlobStore,
  type ByteRange,
} from './blob-store.ts';

/** Where a write in progress lives until it is whole (a dot folder: no key starts with a dot, so no key is here). */
const PARTIAL_DIR = '.partial';
/** A write in progress older than this was left by a process that died; the store removes it when it opens. */
const STALE_PARTIAL_MS = 24 * 3_600_000;

/**
 * Blobs as files under a folder (by default DATA_DIR/blobs). Created like DATA_DIR itself: its folders readable
 * only by the server's user (0700), its files 0600. A write goes to `.partial/` first, is flushed to disk, then
 * renamed into place, so a blob is whole or absent, even after a crash.
 */
export class FileBlobStore implements BlobStore {
  readonly root: string;
  readonly description: string;

  constructor(root: string) {
    this.root = path.resolve(root);
    this.description = `files under ${this.root}`;
    fs.mkdirSync(path.join(this.root, PARTIAL_DIR), { recursive: true, mode: 0o700 });
    removeStalePartials(path.join(this.root, PARTIAL_DIR));
  }

  async put(key: string, body: Readable): Promise<{ bytes: number }> {
    const target = this.#pathOf(key);
    const partial = path.join(this.root, PARTIAL_DIR, `${randomBytes(12).toString('hex')}.part`);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    try {
      // flush: the file's data reaches the disk before it is closed, so the rename below never names a file that a
      // power loss could leave empty.
      await pipeline(body, counter, fs.createWriteStream(partial, { flags: 'wx', mode: 0o600, flush: true }));
      await fsp.mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
      await fsp.rename(partial, target);
      return { bytes };
    } catch (error) {
      await fsp.rm(partial, { force: true });
      body.destroy();
      throw error;
    }
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    let handle: fsp.FileHandle;
    try {
      handle = await fsp.open(this.#pathOf(key), 'r');
    } catch (error) {
      if (isMissing(error)) throw new BlobNotFoundError(key);
      throw error;
    }
    if (!range) return handle.createReadStream();
    try {
      checkByteRange(range);
      const { size } = await handle.stat();
      if (range.start >= size) throw new RangeError(`Range ${range.start}-${range.end} starts past the end (${size})`);
      return handle.createReadStream({ start: range.start, end: Math.min(range.end, size - 1) });
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      return (await fsp.stat(this.#pathOf(key))).size;
    } catch (error) {
      if (isMissing(error)) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.#pathOf(key), { force: true });
  }

  async *list(prefix: string): AsyncIterable<BlobEntry> {
    // Walk only the folder the prefix names (its part up to the last "/"), then match the rest by name.
    const slash = prefix.lastIndexOf('/');
    const folder = slash >= 0 ? prefix.slice(0, slash) : '';
    if (folder) checkBlobKey(folder);
    yield* walk(this.root, folder, prefix);
  }

  #pathOf(key: string): string {
    return path.join(this.root, checkBlobKey(key));
  }
}

async function* walk(root: string, folder: string, prefix: string): AsyncIterable<BlobEntry> {
  let entries: fs.Dirent[];
  try {
    entries = await fsp.readdir(path.join(root, folder), { withFileTypes: true });
  } catch (error) {
    if (isMissing(error)) return;
    throw error;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const key = folder ? `${folder}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      // A folder can hold matching keys when it is on the prefix's path or under it.
      if (prefix.startsWith(`${key}/`) || `${key}/`.startsWith(prefix) || key.startsWith(prefix))
        yield* walk(root, key, prefix);
    } else if (entry.isFile() && key.startsWith(prefix)) {
      try {
        yield { key, bytes: (await fsp.stat(path.join(root, key))).size };
      } catch (error) {
        // Deleted while listing: not there any more.
        if (!isMissing(error)) throw error;
      }
    }
  }
}

function removeStalePartials(dir: string): void {
  const before = Date.now() - STALE_PARTIAL_MS;
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    try {
      if (fs.statSync(file).mtimeMs < before) fs.rmSync(file, { force: true });
    } catch {
      // Another instance removed it first.
    }
  }
}

function isMissing(error: unknown): boolean {
  return (error as { code?: string }).code === 'ENOENT';
}
