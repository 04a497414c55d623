import type { FastifyInstance } from 'fastify';
import { INTAKE_CARD_PHOTOS_PATH, MESSAGE_ATTACHMENT_UPLOAD_TYPES } from '@telehealth/shared';
import { callerOfRequest } from '../access/caller.ts';
import { acceptStreamedFiles, ENCRYPTED_FILE_MAX_BYTES, sendFileRange, uploadedBody } from '../http/encrypted-files.ts';
import type { IntakeService } from './intake.service.ts';

/**
 * The insurance card's photos over plain HTTP with the session cookie (decision 067), as message attachments are:
 * POST the bytes to `/:side` (front or back; the content decides the type, at most 10 MB), streamed into the blob
 * store (decision 070); GET one back by id as a download, whole or by byte ranges. The service checks who may and
 * audits both.
 */
export function registerIntakeRoutes(app: FastifyInstance, intake: IntakeService): void {
  void app.register((scope, _options, done) => {
    acceptStreamedFiles(scope);

    scope.post<{ Params: { side: string } }>(
      `${INTAKE_CARD_PHOTOS_PATH}/:side`,
      {
        config: { session: 'required', uploadTypes: MESSAGE_ATTACHMENT_UPLOAD_TYPES },
        bodyLimit: ENCRYPTED_FILE_MAX_BYTES,
      },
      async (request, reply) => {
        const photo = await intake.uploadCardPhoto(
          callerOfRequest(request, 'uploadIntakeCardPhoto'),
          request.params.side,
          uploadedBody(request.body),
        );
        return reply.code(201).header('cache-control', 'no-store').send({
          id: photo.id,
          side: photo.side,
          mediaType: photo.mediaType,
          sizeBytes: photo.sizeBytes,
        });
      },
    );

    scope.get<{ Params: { id: string } }>(
      `${INTAKE_CARD_PHOTOS_PATH}/:id`,
      { config: { session: 'required' } },
      async (request, reply) => {
        const photo = await intake.downloadCardPhoto(
          callerOfRequest(request, 'downloadIntakeCardPhoto'),
          request.params.id,
        );
        return sendFileRange(request, reply, photo);
      },
    );
    done();
  });
}
