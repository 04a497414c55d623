import type { Readable } from 'node:stream';
import type { BlobStoreConfig } from '../config.ts';
import { defineModule } from '../modules/domain-module.ts';
import type { BlobEntry, BlobStore, ByteRange } from './blob-store.ts';
import { FileBlobStore } from './file-blob-store.ts';
import { SealedBlobs } from './sealed-blobs.ts';

declare module '../modules/services.ts' {
  interface Services {
    /** The raw store of files (no crypto): for tools that move or list blobs, never for a file's content. */
    blobStore: BlobStore;
    /** The files, sealed per file (envelope encryption) before they reach the store. */
    blobs: SealedBlobs;
  }
}

/** The store the configuration names: DATA_DIR/blobs, or an S3-compatible bucket (BLOB_STORE_URL). */
export function openBlobStore(config: BlobStoreConfig): BlobStore {
  if (config.kind === 'file') return new FileBlobStore(config.dir);
  const prefix = config.prefix ? `${config.prefix.replace(/\/+$/, '')}/` : '';
  return new OpenedOnFirstUse(`s3://${config.bucket}/${prefix}`, async () => {
    const { S3BlobStore } = await import('./s3-blob-store.ts');
    return new S3BlobStore({
      bucket: config.bucket,
      prefix: config.prefix,
      clientConfig: {
        ...(config.endpoint ? { endpoint: config.endpoint } : {}),
        forcePathStyle: config.forcePathStyle,
      },
    });
  });
}

/**
 * A store opened when a file is first written, read or listed: the S3 store's AWS SDK takes most of a second of CPU
 * to load, which an instance on the file store (the default, and every test's server) never pays, and one on S3
 * pays once, at its first file rather than at every start.
 */
class OpenedOnFirstUse implements BlobStore {
  readonly description: string;
  readonly #open: () => Promise<BlobStore>;
  #store: Promise<BlobStore> | undefined;

  constructor(description: string, open: () => Promise<BlobStore>) {
    this.description = description;
    this.#open = open;
  }

  #opened(): Promise<BlobStore> {
    // A failed load (a broken install) is tried again at the next use rather than remembered.
    this.#store ??= this.#open().catch((error: unknown) => {
      this.#store = undefined;
      throw error;
    });
    return this.#store;
  }

  async put(key: string, body: Readable): Promise<{ bytes: number }> {
    return (await this.#opened()).put(key, body);
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    return (await this.#opened()).get(key, range);
  }

  async size(key: string): Promise<number | null> {
    return (await this.#opened()).size(key);
  }

  async delete(key: string): Promise<void> {
    return (await this.#opened()).delete(key);
  }

  async *list(prefix: string): AsyncIterable<BlobEntry> {
    yield* (await this.#opened()).list(prefix);
  }
}

/**
 * Files kept out of the database (issue 29, decision 070): message attachments, insurance card photos and, later,
 * recordings and signed documents, sealed per file and streamed in and out of a BlobStore.
 */
export default defineModule({
  name: 'blobs',
  create: ({ config, keyring }) => {
    const blobStore = openBlobStore(config.blobStore);
    return { services: { blobStore, blobs: new SealedBlobs({ store: blobStore, keyring }) } };
  },
});
