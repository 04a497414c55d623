import { defineModule } from '../modules/domain-module.ts';
import { registerIntakeRoutes } from './intake.routes.ts';
import { IntakeService } from './intake.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    intake: IntakeService;
  }
}

/**
 * The intake packet (issue 28, decision 067): the patient fills it in the portal, their provider accepts it into
 * the record. `intake.statusFor` and `intake.statusesFor` serve the "before your first visit" flow and the badges.
 */
export default defineModule({
  name: 'intake',
  after: ['clinical-record', 'measures', 'blobs'],
  create: ({ db, keyring, settings, medications, allergies, measures, blobs }) => ({
    services: { intake: new IntakeService({ db, keyring, settings, medications, allergies, measures, blobs }) },
  }),
  routes: (app, deps) => registerIntakeRoutes(app, deps.intake),
});
