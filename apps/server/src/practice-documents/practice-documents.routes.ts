import type { FastifyInstance } from 'fastify';
import { PRACTICE_DOCUMENTS_PATH } from '@telehealth/shared';
import { callerOfRequest } from '../access/caller.ts';
import type { PracticeDocumentsService } from './practice-documents.service.ts';

/**
 * A signed copy of a practice document as a PDF (decision 066), over plain HTTP with the session cookie: the URL
 * holds only the signature's opaque id (and the language of the copy). The service checks who may and audits
 * every download; the copy is always a download, never cached.
 */
export function registerPracticeDocumentRoutes(app: FastifyInstance, documents: PracticeDocumentsService): void {
  app.get<{ Params: { id: string }; Querystring: { language?: string } }>(
    `${PRACTICE_DOCUMENTS_PATH}/signatures/:id/pdf`,
    { config: { session: 'required' } },
    async (request, reply) => {
      const language = request.query.language === 'es' ? 'es' : 'en';
      const file = await documents.signedCopy(
        callerOfRequest(request, 'downloadSignedPracticeDocument'),
        request.params.id,
        language,
      );
      return reply
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${file.fileName}"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(file.data);
    },
  );
}
