import { CronPayloadSchema } from '../jobs/tasks.ts';
import { defineModule } from '../modules/domain-module.ts';
import { RateLimiter } from './rate-limiter.ts';

const taskPayloads = {
  /** Forgets rate-limit hits older than any window. */
  'rate-limits:prune': CronPayloadSchema,
};
type RateLimitTaskSchemas = typeof taskPayloads;

declare module '../jobs/tasks.ts' {
  interface TaskSchemas extends RateLimitTaskSchemas {}
}
declare module '../modules/services.ts' {
  interface Services {
    rateLimiter: RateLimiter;
  }
}

export default defineModule({
  name: 'rate-limit',
  taskPayloads,
  crontab: ['17 * * * * rate-limits:prune ?id=rate-limits-prune&jobKey=cron:rate-limits-prune&max=3'],
  create: ({ db, secret }) => {
    const rateLimiter = new RateLimiter(secret);
    return {
      services: { rateLimiter },
      tasks: {
        'rate-limits:prune': async () => {
          await rateLimiter.prune(db);
        },
      },
    };
  },
});
