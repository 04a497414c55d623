import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  paginateListObjectsV2,
  S3Client,
  S3ServiceException,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import {
  BlobNotFoundError,
  checkBlobKey,
  checkByteRange,
  type BlobEntry,
  type BlobStore,
  type ByteRange,
} from './blob-store.ts';

/** S3's smallest part; a body up to this size is sent in one PutObject, a larger one in parts of this size. */
const PART_BYTES = 5 * 1024 * 1024;

/**
 * Blobs in a bucket of an S3-compatible store (AWS S3, MinIO, Ceph, R2, ...), under a key prefix. The client takes
 * its region and credentials from the AWS SDK's usual sources (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_PROFILE, an
 * instance role); the endpoint and path-style addressing come from S3_ENDPOINT and S3_FORCE_PATH_STYLE.
 *
 * A write is lib-storage's `Upload`: one PutObject for a small body, else a multipart upload completed at the end
 * and aborted on failure, so a blob is whole or absent. One part is sent at a time (`queueSize: 1`): a write
 * holds about two parts (10 MiB) in memory, whatever the file's size.
 */
export class S3BlobStore implements BlobStore {
  readonly description: string;
  readonly client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;

  constructor(options: { bucket: string; prefix?: string; client?: S3Client; clientConfig?: S3ClientConfig }) {
    this.#bucket = options.bucket;
    this.#prefix = options.prefix ? `${checkBlobKey(options.prefix.replace(/\/+$/, ''))}/` : '';
    this.client = options.client ?? new S3Client(options.clientConfig ?? {});
    this.description = `s3://${this.#bucket}/${this.#prefix}`;
  }

  async put(key: string, body: Readable): Promise<{ bytes: number }> {
    const Key = this.#keyOf(key);
    let bytes = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        done(null, chunk);
      },
    });
    // The body's error destroys the counter with it, which fails (and aborts) the upload.
    pipeline(body, counter).catch(() => undefined);
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.#bucket, Key, Body: counter },
      queueSize: 1,
      partSize: PART_BYTES,
      leavePartsOnError: false,
    });
    try {
      await upload.done();
    } catch (error) {
      counter.destroy();
      throw error;
    }
    return { bytes };
  }

  async get(key: string, range?: ByteRange): Promise<Readable> {
    const Key = this.#keyOf(key);
    if (range) checkByteRange(range);
    try {
      const answer = await this.client.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      // In Node the body is the response's IncomingMessage, a Readable.
      return answer.Body as Readable;
    } catch (error) {
      if (statusOf(error) === 404) throw new BlobNotFoundError(key);
      if (statusOf(error) === 416)
        throw new RangeError(`Range ${range?.start}-${range?.end} starts past the end`, { cause: error });
      throw error;
    }
  }

  async size(key: string): Promise<number | null> {
    try {
      const head = await this.client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: this.#keyOf(key) }));
      return head.ContentLength ?? 0;
    } catch (error) {
      if (statusOf(error) === 404) return null;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    // S3 answers a delete of a missing key with success.
    await this.client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: this.#keyOf(key) }));
  }

  async *list(prefix: string): AsyncIterable<BlobEntry> {
    const pages = paginateListObjectsV2(
      { client: this.client },
      { Bucket: this.#bucket, Prefix: this.#prefix + prefix },
    );
    for await (const page of pages) {
      for (const object of page.Contents ?? []) {
        if (!object.Key) continue;
        yield { key: object.Key.slice(this.#prefix.length), bytes: object.Size ?? 0 };
      }
    }
  }

  #keyOf(key: string): string {
    return this.#prefix + checkBlobKey(key);
  }
}

function statusOf(error: unknown): number | undefined {
  if (error instanceof S3ServiceException) return error.$metadata.httpStatusCode;
  return (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
}
