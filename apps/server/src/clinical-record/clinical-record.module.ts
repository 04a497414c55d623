import { defineModule } from '../modules/domain-module.ts';
import { AllergiesService } from './allergies.service.ts';
import { DiagnosesService } from './diagnoses.service.ts';
import { MedicationsService } from './medications.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    diagnoses: DiagnosesService;
    medications: MedicationsService;
    allergies: AllergiesService;
  }
}

/** The psychiatric record (issue 27, decision 062): the problem list, the medications and the allergies. */
export default defineModule({
  name: 'clinical-record',
  create: ({ db, keyring }) => ({
    services: {
      diagnoses: new DiagnosesService({ db, keyring }),
      medications: new MedicationsService({ db, keyring }),
      allergies: new AllergiesService({ db, keyring }),
    },
  }),
});
