import type { FastifyInstance, FastifyReply } from 'fastify';
import { BILLING_DOCUMENTS_PATH } from '@telehealth/shared';
import { callerOfRequest } from '../access/caller.ts';
import type { BillingDocumentsService, BillingFile } from './billing-documents.service.ts';

/**
 * The superbill and the statement as PDFs (decision 073), over plain HTTP with the session cookie: the query holds
 * only ids and dates, never a name. The service checks who may and audits every download; a document is always a
 * download, never cached. Errors answer in the one body shape (`errors[0].extensions.code`), as every route does.
 */
export function registerBillingDocumentRoutes(app: FastifyInstance, documents: BillingDocumentsService): void {
  const send = (reply: FastifyReply, file: BillingFile) =>
    reply
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${file.fileName}"`)
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(file.data);

  app.get<{ Querystring: Record<string, string | undefined> }>(
    `${BILLING_DOCUMENTS_PATH}/superbill`,
    { config: { session: 'required' } },
    async (request, reply) => {
      const { patientId, appointmentId, from, to } = request.query;
      const file = await documents.superbill(callerOfRequest(request, 'downloadSuperbill'), {
        patientId,
        ...(appointmentId !== undefined ? { appointmentId } : {}),
        ...(from !== undefined ? { from } : {}),
        ...(to !== undefined ? { to } : {}),
      });
      return send(reply, file);
    },
  );

  app.get<{ Querystring: Record<string, string | undefined> }>(
    `${BILLING_DOCUMENTS_PATH}/statement`,
    { config: { session: 'required' } },
    async (request, reply) => {
      const language = request.query.language === 'es' ? 'es' : 'en';
      const file = await documents.statement(
        callerOfRequest(request, 'downloadStatement'),
        { patientId: request.query.patientId },
        language,
      );
      return send(reply, file);
    },
  );
}
