import { z } from 'zod';
import { CronPayloadSchema } from '../jobs/tasks.ts';
import { defineModule } from '../modules/domain-module.ts';
import { MeasuresService } from './measures.service.ts';

const taskPayloads = {
  /** E-mails a safety alert's providers (job key per alert; the mail names no patient and no answer). */
  'safety-alert:notify': z.object({ alertId: z.uuid() }),
  /** Tells the administrators of a safety alert still not acknowledged (run SAFETY_ALERT_ESCALATION_MINUTES later). */
  'safety-alert:escalate': z.object({ alertId: z.uuid() }),
  /** Sends the standing-order questionnaires of the visits in the next MEASURE_LEAD_HOURS. */
  'measures:before-visits': CronPayloadSchema,
};
type MeasureTaskSchemas = typeof taskPayloads;

declare module '../jobs/tasks.ts' {
  interface TaskSchemas extends MeasureTaskSchemas {}
}
declare module '../modules/services.ts' {
  interface Services {
    measures: MeasuresService;
  }
}

/** Questionnaires (PHQ-9, GAD-7), their standing orders and safety alerts. */
export default defineModule({
  name: 'measures',
  after: ['mail'],
  taskPayloads,
  crontab: ['*/15 * * * * measures:before-visits ?id=measures-before-visits&jobKey=cron:measures-before-visits&max=3'],
  create: ({ db, keyring, mail, config }) => {
    const measures = new MeasuresService({ db, keyring, mail, config });
    return {
      services: { measures },
      tasks: {
        'safety-alert:notify': async ({ alertId }) => {
          await measures.notifyAlert(alertId);
        },
        'safety-alert:escalate': async ({ alertId }) => {
          await measures.escalateAlert(alertId);
        },
        'measures:before-visits': async () => {
          await measures.sendBeforeVisits();
        },
      },
    };
  },
});
