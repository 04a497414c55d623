import { defineModule } from '../modules/domain-module.ts';
import { registerBillingDocumentRoutes } from './billing-documents.routes.ts';
import { BillingDocumentsService } from './billing-documents.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    billingDocuments: BillingDocumentsService;
  }
}

/**
 * Superbills, statements, the "statement ready" e-mail and the patient's billing page in the portal (issue 30,
 * decision 073): reads of the ledger and the visits' codings, never a write to them.
 */
export default defineModule({
  name: 'billing-documents',
  after: ['mail'],
  create: ({ db, keyring, settings, mail }) => ({
    services: { billingDocuments: new BillingDocumentsService({ db, keyring, settings, mail }) },
  }),
  routes: (app, deps) => registerBillingDocumentRoutes(app, deps.billingDocuments),
});
