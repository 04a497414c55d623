import { defineModule } from '../modules/domain-module.ts';
import { ApiTokensService } from './api-tokens.service.ts';
import { registerAuditRoutes } from './audit.routes.ts';
import { AuditTrailService } from './audit-trail.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    auditTrail: AuditTrailService;
    apiTokens: ApiTokensService;
  }
}

/** Searching and exporting the audit trail, and its API tokens. */
export default defineModule({
  name: 'audit-trail',
  after: ['rate-limit'],
  create: ({ db, config, secret, rateLimiter, keyring }) => ({
    services: {
      auditTrail: new AuditTrailService({ db, config, secret, limiter: rateLimiter, keyring }),
      apiTokens: new ApiTokensService({ db, limiter: rateLimiter }),
    },
  }),
  routes: (app, deps) => registerAuditRoutes(app, deps.auditTrail, deps.apiTokens),
});
