import type { BlobStoreConfig } from '../config.ts';
import { defineModule } from '../modules/domain-module.ts';
import type { BlobStore } from './blob-store.ts';
import { FileBlobStore } from './file-blob-store.ts';
import { S3BlobStore } from './s3-blob-store.ts';
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
  return new S3BlobStore({
    bucket: config.bucket,
    prefix: config.prefix,
    clientConfig: {
      ...(config.endpoint ? { endpoint: config.endpoint } : {}),
      forcePathStyle: config.forcePathStyle,
    },
  });
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
