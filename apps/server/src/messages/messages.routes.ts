import type { FastifyInstance } from 'fastify';
import {
  MESSAGE_ATTACHMENT_MAX_BYTES,
  MESSAGE_ATTACHMENT_NAME_HEADER,
  MESSAGE_ATTACHMENT_UPLOAD_TYPES,
  MESSAGE_ATTACHMENTS_PATH,
} from '@telehealth/shared';
import { callerOfRequest } from '../access/caller.ts';
import { attachmentTooLarge, type MessagesService } from './messages.service.ts';

/**
 * Attachments of secure messages over plain HTTP with the session cookie (decision 029): POST the file's bytes
 * (its name URI-encoded in the X-File-Name header, never in the URL), GET one back by id as a download. The
 * service checks who may, decides the type from the content and audits every download.
 */
export function registerMessageRoutes(app: FastifyInstance, messages: MessagesService): void {
  void app.register((scope, _options, done) => {
    // Any of the accepted types the browser claims (`config.uploadTypes`, checked before the body is read): the
    // content decides (the service reads the first bytes).
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser(
      '*',
      { parseAs: 'buffer', bodyLimit: MESSAGE_ATTACHMENT_MAX_BYTES },
      (_r, body, parsed) => parsed(null, body),
    );
    // A file over the limit is refused with the attachments' own message (the parent handler answers it: 413).
    scope.setErrorHandler((error) => {
      if ((error as { code?: string }).code === 'FST_ERR_CTP_BODY_TOO_LARGE') throw attachmentTooLarge();
      throw error;
    });

    scope.post(
      MESSAGE_ATTACHMENTS_PATH,
      {
        config: { session: 'required', uploadTypes: MESSAGE_ATTACHMENT_UPLOAD_TYPES },
        bodyLimit: MESSAGE_ATTACHMENT_MAX_BYTES,
      },
      async (request, reply) => {
        const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const attachment = await messages.uploadAttachment(callerOfRequest(request, 'uploadMessageAttachment'), {
          bytes,
          fileName: fileNameOf(request.headers[MESSAGE_ATTACHMENT_NAME_HEADER]),
        });
        return reply.code(201).header('cache-control', 'no-store').send({
          id: attachment.id,
          fileName: attachment.fileName,
          mediaType: attachment.mediaType,
          sizeBytes: attachment.sizeBytes,
        });
      },
    );

    scope.get<{ Params: { id: string } }>(
      `${MESSAGE_ATTACHMENTS_PATH}/:id`,
      { config: { session: 'required' } },
      async (request, reply) => {
        const file = await messages.downloadAttachment(
          callerOfRequest(request, 'downloadMessageAttachment'),
          request.params.id,
        );
        return reply
          .header('content-type', file.mediaType)
          .header('content-disposition', contentDisposition(file.fileName))
          .header('x-content-type-options', 'nosniff')
          .header('cache-control', 'no-store')
          .send(file.data);
      },
    );
    done();
  });
}

/**
 * The file name the browser sent, URI-decoded; no header is no name (the service names it "attachment"). A
 * header that is not URI-encoded UTF-8 is taken as it came: like any name, it then meets the text rule, and is
 * never replaced in silence.
 */
function fileNameOf(header: string | string[] | undefined): string {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return '';
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/** Always a download (never shown inline on our origin); the name as ASCII and, exactly, as RFC 5987 UTF-8. */
function contentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
