import type { FastifyInstance } from 'fastify';
import { callerOfRequest } from '../access/caller.ts';
import type { Config } from '../config.ts';
import { FHIR_JSON_TYPE, FHIR_NDJSON_TYPE, type DataExportService } from './data-export.service.ts';
import { FHIR_RESOURCE_TYPES } from './fhir.ts';

/** Where the FHIR downloads are (plain HTTP with the session cookie: GraphQL does not stream files). */
export const FHIR_EXPORT_PATH = '/api/admin/data/fhir';

/**
 * The FHIR exports (decision 037): the Bulk Data manifest of the whole practice, one NDJSON download per resource
 * type, and one patient's Bundle. Each needs a session; the service lets administrators only and audits each.
 */
export function registerDataRoutes(app: FastifyInstance, deps: { dataExport: DataExportService; config: Config }) {
  const download = { config: { session: 'required' as const } };

  app.get(`${FHIR_EXPORT_PATH}/export`, download, async (request, reply) => {
    const manifest = await deps.dataExport.manifest(
      callerOfRequest(request, 'fhirExportManifest'),
      deps.config.publicUrl,
    );
    return reply.header('cache-control', 'no-store').send(manifest);
  });

  for (const type of FHIR_RESOURCE_TYPES) {
    app.get(`${FHIR_EXPORT_PATH}/${type}.ndjson`, download, async (request, reply) => {
      const stream = await deps.dataExport.ndjson(callerOfRequest(request, 'fhirExportNdjson'), type);
      return reply
        .header('content-type', FHIR_NDJSON_TYPE)
        .header('content-disposition', `attachment; filename="${type}.ndjson"`)
        .header('x-content-type-options', 'nosniff')
        .header('cache-control', 'no-store')
        .send(stream);
    });
  }

  app.get<{ Params: { id: string } }>(`${FHIR_EXPORT_PATH}/patients/:id/bundle`, download, async (request, reply) => {
    const bundle = await deps.dataExport.patientBundle(
      callerOfRequest(request, 'fhirPatientBundle'),
      request.params.id,
    );
    return reply
      .header('content-type', FHIR_JSON_TYPE)
      .header('content-disposition', 'attachment; filename="patient-record.fhir.json"')
      .header('x-content-type-options', 'nosniff')
      .header('cache-control', 'no-store')
      .send(JSON.stringify(bundle));
  });
}
