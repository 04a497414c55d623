import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import type { SettingsService } from '../settings/settings.service.ts';

/**
 * Every service of the server, by name: the runtime's, the GraphQL context's (`ctx.appointments`) and what a
 * module's `create` receives. Here only what the runtime itself opens; each domain adds its own services by
 * declaration merging in its module file (decision 053):
 *
 *   declare module '../modules/services.ts' { interface Services { appointments: AppointmentsService } }
 */
export interface Services {
  config: Config;
  db: Database;
  /** The practice's settings (decision 032); `config.settings` is this service. */
  settings: SettingsService;
}
