import type { FastifyInstance, FastifyReply } from 'fastify';
import {
  detectAttachmentType,
  ERROR_CODES,
  MESSAGE_ATTACHMENT_MAX_BYTES,
  type MessageAttachmentType,
} from '@telehealth/shared';
import { AppError, badUserInput } from '../errors.ts';
import type { Keyring } from '../keys/keyring.ts';

/*
 * The encrypted files of the product (message attachments, decision 029; insurance card photos, decision 067):
 * the checks of an upload (not empty, at most 10 MB, a PDF, PNG or JPEG by its content whatever its name says),
 * the sealing of its bytes with the data keys bound to its table and row, and the HTTP plumbing of the raw-body
 * upload and the download. Each domain keeps its own table and access rules; this is what they share.
 */

/** The largest file, in bytes (10 MB). */
export const ENCRYPTED_FILE_MAX_BYTES = MESSAGE_ATTACHMENT_MAX_BYTES;

/** The refusal of a file over the limit (the upload routes answer it with 413). */
export function fileTooLarge(): AppError {
  return new AppError(ERROR_CODES.payloadTooLarge, 'secureMessageMessages.attachmentTooLarge', {
    maxMegabytes: ENCRYPTED_FILE_MAX_BYTES / (1024 * 1024),
  });
}

/** Checks an uploaded file's bytes; answers its type as its content shows it, or refuses it. */
export function checkUploadedFile(bytes: Buffer): MessageAttachmentType {
  if (bytes.length === 0) throw badUserInput('secureMessageMessages.attachmentEmpty');
  if (bytes.length > ENCRYPTED_FILE_MAX_BYTES) throw fileTooLarge();
  const mediaType = detectAttachmentType(bytes);
  if (!mediaType) throw badUserInput('secureMessageMessages.attachmentWrongType');
  return mediaType;
}

/** Where a file's encrypted bytes are stored: bound to its table, column and row id. */
export function fileDataContext(table: string, id: string) {
  return { table, column: 'data', id };
}

/** The bytes sealed for the row `id` of `table`. */
export function sealFileBytes(keyring: Keyring, table: string, id: string, bytes: Buffer): Buffer {
  return keyring.encryptBytes(bytes, fileDataContext(table, id));
}

/** The bytes of the row `id` of `table`, readable. */
export function openFileBytes(keyring: Keyring, table: string, id: string, data: Buffer): Buffer {
  return keyring.decryptBytes(data, fileDataContext(table, id));
}

/**
 * Makes `scope` (a plugin scope of upload routes) take any body as raw bytes up to the limit, and answer a larger
 * one with the files' own message (413). Each route still lists its accepted types (`config.uploadTypes`).
 */
export function acceptRawFiles(scope: FastifyInstance): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: ENCRYPTED_FILE_MAX_BYTES }, (_r, body, parsed) =>
    parsed(null, body),
  );
  scope.setErrorHandler((error) => {
    if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw fileTooLarge();
    throw error;
  });
}

/** Sends a file as a download (never shown inline on our origin), never cached. */
export function sendFileDownload(
  reply: FastifyReply,
  file: { mediaType: string; fileName: string; data: Buffer },
): FastifyReply {
  return reply
    .header('content-type', file.mediaType)
    .header('content-disposition', contentDisposition(file.fileName))
    .header('x-content-type-options', 'nosniff')
    .header('cache-control', 'no-store')
    .send(file.data);
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
