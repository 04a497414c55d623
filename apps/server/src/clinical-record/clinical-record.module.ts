import { defineModule } from '../modules/domain-module.ts';
import { DiagnosesService } from './diagnoses.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    diagnoses: DiagnosesService;
  }
}

/** The psychiatric record (issue 27, decision 062): the problem list; medications and allergies join it. */
export default defineModule({
  name: 'clinical-record',
  create: ({ db, keyring }) => ({ services: { diagnoses: new DiagnosesService({ db, keyring }) } }),
});
