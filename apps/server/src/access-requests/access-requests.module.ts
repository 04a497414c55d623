import { defineModule } from '../modules/domain-module.ts';
import { AccessRequestsService } from './access-requests.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    accessRequests: AccessRequestsService;
  }
}

export default defineModule({
  name: 'access-requests',
  after: ['auth', 'mail', 'rate-limit'],
  create: ({ db, mail, invitations, rateLimiter, secret, keyring, config }) => ({
    services: {
      accessRequests: new AccessRequestsService({
        db,
        mail,
        invitations,
        limiter: rateLimiter,
        secret,
        keyring,
        maxPerHour: config.accessRequestsPerHour,
      }),
    },
  }),
});
