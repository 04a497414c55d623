import { z } from 'zod';
import { defineModule } from '../modules/domain-module.ts';
import { AllergiesService } from './allergies.service.ts';
import { DiagnosesService } from './diagnoses.service.ts';
import { MedicationsService } from './medications.service.ts';
import { TreatmentPlansService } from './treatment-plans.service.ts';

const taskPayloads = {
  /** Reminds the provider of a treatment plan's review at its review date (job key per plan; no clinical content). */
  'treatment-plan:review-due': z.object({ versionId: z.uuid() }),
};
type ClinicalRecordTaskSchemas = typeof taskPayloads;

declare module '../jobs/tasks.ts' {
  interface TaskSchemas extends ClinicalRecordTaskSchemas {}
}
declare module '../modules/services.ts' {
  interface Services {
    diagnoses: DiagnosesService;
    medications: MedicationsService;
    allergies: AllergiesService;
    treatmentPlans: TreatmentPlansService;
  }
}

/**
 * The psychiatric record (issue 27, decision 062): the problem list, the medications, the allergies and the
 * treatment plan (signed with the provider's identity confirmed again, as a note).
 */
export default defineModule({
  name: 'clinical-record',
  after: ['auth', 'mail'],
  taskPayloads,
  create: ({ db, keyring, mail, settings, twoFactor }) => {
    const treatmentPlans = new TreatmentPlansService({
      db,
      keyring,
      mail,
      settings,
      confirmIdentity: (caller, meta, proof) =>
        twoFactor.confirmIdentity(caller, meta, proof, 'TREATMENT_PLAN_SIGN_FAILED'),
    });
    return {
      services: {
        diagnoses: new DiagnosesService({ db, keyring }),
        medications: new MedicationsService({ db, keyring }),
        allergies: new AllergiesService({ db, keyring }),
        treatmentPlans,
      },
      tasks: {
        'treatment-plan:review-due': ({ versionId }) => treatmentPlans.remindReview(versionId),
      },
    };
  },
});
