import { z } from 'zod';
import { defineModule } from '../modules/domain-module.ts';
import { MailService } from './mail.service.ts';

const taskPayloads = {
  /** Sends one mail from the outbox (added with the mail, in the same transaction, when SMTP_URL is set). */
  'mail:deliver': z.object({ mailId: z.uuid() }),
};
type MailTaskSchemas = typeof taskPayloads;

declare module '../jobs/tasks.ts' {
  interface TaskSchemas extends MailTaskSchemas {}
}
declare module '../modules/services.ts' {
  interface Services {
    mail: MailService;
  }
}

export default defineModule({
  name: 'mail',
  taskPayloads,
  create: ({ db, config, log, secret }) => {
    const mail = new MailService({ db, config, log, secret });
    return {
      services: { mail },
      tasks: {
        'mail:deliver': async ({ mailId }, helpers) => {
          await mail.deliver(mailId, {
            final: helpers.job.attempts >= helpers.job.max_attempts,
            abort: helpers.abortPromise,
          });
        },
      },
      jobsStarted: () => mail.addMissingDeliveryJobs(),
      close: () => mail.close(),
    };
  },
});
