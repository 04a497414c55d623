import { z } from 'zod';
import { defineModule } from '../modules/domain-module.ts';
import { FirstVisitService } from './first-visit.service.ts';

const taskPayloads = {
  /** The e-mail before the first visit, then its reminders (job key per patient; decision 068). */
  'first-visit:remind': z.object({ patientId: z.uuid() }),
};
type FirstVisitTaskSchemas = typeof taskPayloads;

declare module '../jobs/tasks.ts' {
  interface TaskSchemas extends FirstVisitTaskSchemas {}
}
declare module '../modules/services.ts' {
  interface Services {
    firstVisit: FirstVisitService;
  }
}

/**
 * Before the first visit (issue 28, decision 068): the patient's checklist, the e-mail and reminders (queued by the
 * first booking and by the account's activation), and the staff's readiness badges.
 */
export default defineModule({
  name: 'first-visit',
  after: ['auth', 'appointments', 'practice-documents', 'intake', 'measures', 'mail'],
  taskPayloads,
  create: ({ db, config, mail, appointments, practiceDocuments, intake, measures, invitations, log }) => {
    const firstVisit = new FirstVisitService({
      db,
      config,
      mail,
      appointments,
      practiceDocuments,
      intake,
      measures,
      log,
    });
    appointments.addListener(firstVisit);
    invitations.onAccountActivated((tx, accountId) => firstVisit.accountActivated(tx, accountId));
    return {
      services: { firstVisit },
      tasks: {
        'first-visit:remind': async ({ patientId }) => {
          await firstVisit.remind(patientId);
        },
      },
    };
  },
});
