import { CronPayloadSchema } from '../jobs/tasks.ts';
import { defineModule } from '../modules/domain-module.ts';
import { deleteExpiredIdempotencyKeys, IdempotencyKeys } from './idempotency-keys.ts';

const taskPayloads = {
  /** Deletes the Idempotency-Keys past their day (decision 044). */
  'idempotency-keys:prune': CronPayloadSchema,
};
type IdempotencyTaskSchemas = typeof taskPayloads;

declare module '../jobs/tasks.ts' {
  interface TaskSchemas extends IdempotencyTaskSchemas {}
}
declare module '../modules/services.ts' {
  interface Services {
    /** Idempotency-Keys of create mutations (decision 044). */
    idempotency: IdempotencyKeys;
  }
}

export default defineModule({
  name: 'idempotency',
  taskPayloads,
  crontab: ['29 * * * * idempotency-keys:prune ?id=idempotency-keys-prune&jobKey=cron:idempotency-keys-prune&max=3'],
  create: ({ db, secret }) => ({
    services: { idempotency: new IdempotencyKeys({ db, secret }) },
    tasks: {
      'idempotency-keys:prune': async () => {
        await deleteExpiredIdempotencyKeys(db);
      },
    },
  }),
});
