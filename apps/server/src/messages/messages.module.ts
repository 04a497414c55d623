import { z } from 'zod';
import { CronPayloadSchema } from '../jobs/tasks.ts';
import { defineModule } from '../modules/domain-module.ts';
import { registerMessageRoutes } from './messages.routes.ts';
import { MessagesService } from './messages.service.ts';

const taskPayloads = {
  /** E-mails one side of a conversation that a message waits, once per unread burst (job key per conversation and side). */
  'message:notify': z.object({ conversationId: z.uuid(), side: z.enum(['patient', 'practice']) }),
  /** Deletes the attachments uploaded and never sent (after a day). */
  'message-attachments:prune': CronPayloadSchema,
};
type MessageTaskSchemas = typeof taskPayloads;

declare module '../jobs/tasks.ts' {
  interface TaskSchemas extends MessageTaskSchemas {}
}
declare module '../modules/services.ts' {
  interface Services {
    messages: MessagesService;
  }
}

/** Secure messages between patients and the practice, with attachments. */
export default defineModule({
  name: 'messages',
  after: ['mail', 'blobs'],
  taskPayloads,
  crontab: [
    '23 * * * * message-attachments:prune ?id=message-attachments-prune&jobKey=cron:message-attachments-prune&max=3',
  ],
  create: ({ db, keyring, secret, mail, config, log, blobs }) => {
    const messages = new MessagesService({ db, keyring, secret, mail, config, blobs });
    return {
      services: { messages },
      tasks: {
        'message:notify': async ({ conversationId, side }) => {
          await messages.notify(conversationId, side);
        },
        'message-attachments:prune': async () => {
          await messages.pruneUnsentAttachments();
        },
      },
      startUp: async () => {
        const reindexed = await messages.reindexSearch();
        if (reindexed > 0) log.info({ rows: reindexed }, 'messages re-indexed for search under the current key');
      },
    };
  },
  routes: (app, deps) => registerMessageRoutes(app, deps.messages),
});
