import { defineModule } from '../modules/domain-module.ts';
import { AdminConsoleService } from './admin-console.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    adminConsole: AdminConsoleService;
  }
}

/** The administrator's console: the system's health, the outbox, statistics. */
export default defineModule({
  name: 'admin-console',
  create: ({ db, config, log }) => ({ services: { adminConsole: new AdminConsoleService({ db, config, log }) } }),
});
