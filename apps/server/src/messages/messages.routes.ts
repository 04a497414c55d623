import type { FastifyInstance } from 'fastify';
import {
  MESSAGE_ATTACHMENT_MAX_BYTES,
  MESSAGE_ATTACHMENT_NAME_HEADER,
  MESSAGE_ATTACHMENT_UPLOAD_TYPES,
  MESSAGE_ATTACHMENTS_PATH,
} from '@telehealth/shared';
import { callerOfRequest } from '../access/caller.ts';
import { acceptStreamedFiles, fileNameOf, sendFileRange, uploadedBody } from '../http/encrypted-files.ts';
import type { MessagesService } from './messages.service.ts';

/**
 * Attachments of secure messages over plain HTTP with the session cookie (decision 029): POST the file's bytes
 * (its name URI-encoded in the X-File-Name header, never in the URL), streamed into the blob store (decision 070);
 * GET one back by id as a download, whole or by byte ranges. The service checks who may, decides the type from the
 * content and audits every download.
 */
export function registerMessageRoutes(app: FastifyInstance, messages: MessagesService): void {
  void app.register((scope, _options, done) => {
    // Any of the accepted types the browser claims (`config.uploadTypes`, checked before the body is read): the
    // content decides (the upload's first bytes). A file over the limit: 413 with the files' message.
    acceptStreamedFiles(scope);

    scope.post(
      MESSAGE_ATTACHMENTS_PATH,
      {
        config: { session: 'required', uploadTypes: MESSAGE_ATTACHMENT_UPLOAD_TYPES },
        bodyLimit: MESSAGE_ATTACHMENT_MAX_BYTES,
      },
      async (request, reply) => {
        const attachment = await messages.uploadAttachment(callerOfRequest(request, 'uploadMessageAttachment'), {
          body: uploadedBody(request.body),
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
        return sendFileRange(request, reply, file);
      },
    );
    done();
  });
}
