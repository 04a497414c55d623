import { defineModule } from '../modules/domain-module.ts';
import { registerPracticeDocumentRoutes } from './practice-documents.routes.ts';
import { PracticeDocumentsService } from './practice-documents.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    practiceDocuments: PracticeDocumentsService;
  }
}

/**
 * The practice's documents and their signatures (issue 28, decision 066): versions kept by administrators, signed
 * by patients in the portal, recorded on paper by staff, downloaded as PDF. `outstandingFor` and
 * `hasValidSignature` are for the flows built on them (before the first visit, the video consent gate).
 */
export default defineModule({
  name: 'practice-documents',
  create: ({ db, keyring, settings }) => {
    const practiceDocuments = new PracticeDocumentsService({ db, keyring, settings });
    return {
      services: { practiceDocuments },
      // The starting texts (examples to replace) when the practice has no document yet.
      startUp: () => practiceDocuments.addStartingTexts(),
    };
  },
  routes: (app, deps) => registerPracticeDocumentRoutes(app, deps.practiceDocuments),
});
