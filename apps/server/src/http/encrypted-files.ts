import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import parseRange from 'range-parser';
import {
  detectAttachmentType,
  ERROR_CODES,
  MESSAGE_ATTACHMENT_MAX_BYTES,
  type MessageAttachmentType,
} from '@telehealth/shared';
import { AppError, badUserInput, RequestError } from '../errors.ts';
import { requestErrorBody } from './request-errors.ts';
import type { Keyring } from '../keys/keyring.ts';

/*
 * The encrypted files of the product (message attachments, decision 029; insurance card photos, decision 067):
 * the checks of an upload as it streams (not empty, at most 10 MB, a PDF, PNG or JPEG by its content whatever its
 * name says), the HTTP plumbing of the streamed upload and of the download with byte ranges, and the sealing of the
 * rows from before the blob store (decision 070), whose bytes are in the row. Each domain keeps its own table and
 * access rules; this is what they share.
 */

/** The largest file, in bytes (10 MB). */
export const ENCRYPTED_FILE_MAX_BYTES = MESSAGE_ATTACHMENT_MAX_BYTES;

/** The refusal of a file over the limit (the upload routes answer it with 413). */
export function fileTooLarge(): AppError {
  return new AppError(ERROR_CODES.payloadTooLarge, 'secureMessageMessages.attachmentTooLarge', {
    maxMegabytes: ENCRYPTED_FILE_MAX_BYTES / (1024 * 1024),
  });
}

/** Where a file's encrypted bytes are stored: bound to its table, column and row id. */
export function fileDataContext(table: string, id: string) {
  return { table, column: 'data', id };
}

/** The bytes sealed for the row `id` of `table` (files before the blob store; tests make such rows with it). */
export function sealFileBytes(keyring: Keyring, table: string, id: string, bytes: Buffer): Buffer {
  return keyring.encryptBytes(bytes, fileDataContext(table, id));
}

/** The bytes of the row `id` of `table`, readable. */
export function openFileBytes(keyring: Keyring, table: string, id: string, data: Buffer): Buffer {
  return keyring.decryptBytes(data, fileDataContext(table, id));
}

/**
 * Makes `scope` (a plugin scope of upload routes) hand any body to its route as the request's stream, unread: the
 * route streams it into the blob store through `checkUpload`, which keeps the limit. A body that says it is larger
 * is refused before a byte is read (413 with the files' own message). Each route still lists its accepted types
 * (`config.uploadTypes`).
 */
export function acceptStreamedFiles(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', (request, payload, done) => {
    const length = Number(request.headers['content-length']);
    if (Number.isFinite(length) && length > ENCRYPTED_FILE_MAX_BYTES) {
      done(fileTooLarge(), undefined);
      return;
    }
    done(null, payload);
  });
}

/** The request's body as the stream `acceptStreamedFiles` passed on (an empty one when there was none). */
export function uploadedBody(body: unknown): Readable {
  return body instanceof Readable ? body : Readable.from([]);
}

/** The first bytes are enough to tell a PDF, PNG or JPEG by its content. */
const HEAD_BYTES = 16;

/**
 * An upload checked as it flows: at most 10 MB (past that it fails with the files' own 413), not empty, and a
 * PDF, PNG or JPEG by its first bytes whatever its name says (held back until they show it). Its `mediaType` is
 * known once the first bytes have passed; `bytes` counts what passed.
 */
export class CheckedUpload extends Transform {
  mediaType: MessageAttachmentType | null = null;
  bytes = 0;
  #head: Buffer[] = [];

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > ENCRYPTED_FILE_MAX_BYTES) return done(fileTooLarge());
    if (this.mediaType) return done(null, chunk);
    this.#head.push(chunk);
    if (this.bytes < HEAD_BYTES) return done();
    this.#release(done);
  }

  override _flush(done: TransformCallback): void {
    if (this.bytes === 0) return done(badUserInput('secureMessageMessages.attachmentEmpty'));
    if (!this.mediaType) return this.#release(done);
    done();
  }

  #release(done: TransformCallback): void {
    const head = Buffer.concat(this.#head);
    this.#head = [];
    this.mediaType = detectAttachmentType(head);
    if (!this.mediaType) return done(badUserInput('secureMessageMessages.attachmentWrongType'));
    done(null, head);
  }
}

/** `body` through the upload's checks; its errors (a client gone) end the checked stream with them. */
export function checkUpload(body: Readable): CheckedUpload {
  const checked = new CheckedUpload();
  pipeline(body, checked).catch(() => undefined);
  return checked;
}

/** A file to send: its name, type and length, and how to open it whole or a byte range of it (end inclusive). */
export interface DownloadableFile {
  mediaType: string;
  fileName: string;
  sizeBytes: number;
  open(range?: { start: number; end: number }): Promise<Readable>;
}

/**
 * Sends a file as a download (never shown inline on our origin, never cached), streamed, with byte ranges: a
 * single satisfiable `Range: bytes=...` is answered 206 with its Content-Range, one that starts past the end 416
 * with `Content-Range: bytes *\/size`; a malformed one, several ranges, or a Range with If-Range (the file has no
 * validator to compare) get the whole file, as RFC 9110 allows.
 */
export async function sendFileRange(
  request: FastifyRequest,
  reply: FastifyReply,
  file: DownloadableFile,
): Promise<FastifyReply> {
  const header = request.headers.range;
  const ranges = header && !request.headers['if-range'] ? parseRange(file.sizeBytes, header, { combine: true }) : -2;
  if (ranges === -1) {
    const error = new RequestError(416, ERROR_CODES.rangeNotSatisfiable, 'rangeNotSatisfiable');
    return reply
      .code(416)
      .header('content-range', `bytes */${file.sizeBytes}`)
      .header('cache-control', 'no-store')
      .send(requestErrorBody(error));
  }
  void reply
    .header('content-type', file.mediaType)
    .header('content-disposition', contentDisposition(file.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .header('accept-ranges', 'bytes');
  const [range] = ranges !== -2 && ranges.type === 'bytes' && ranges.length === 1 ? ranges : [];
  if (range) {
    const body = await file.open(range);
    return reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.sizeBytes}`)
      .header('content-length', range.end - range.start + 1)
      .send(body);
  }
  const body = await file.open();
  return reply.header('content-length', file.sizeBytes).send(body);
}

/**
 * The file name the browser sent, URI-decoded; no header is no name. A header that is not URI-encoded UTF-8 is
 * taken as it came: like any name, it then meets the text rule, and is never replaced in silence.
 */
export function fileNameOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return '';
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** The name as ASCII and, exactly, as RFC 5987 UTF-8. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
