import { defineModule } from '../modules/domain-module.ts';
import { registerReportRoutes } from './reports.routes.ts';
import { ReportsService } from './reports.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    reports: ReportsService;
  }
}

/** The practice report and the compliance report (CSV). */
export default defineModule({
  name: 'reports',
  create: ({ db, config }) => ({
    services: {
      reports: new ReportsService({
        db,
        timeZone: () => config.settings.current().timeZone,
        bulkAccess: config.riskBulkAccess,
      }),
    },
  }),
  routes: (app, deps) => registerReportRoutes(app, deps.reports),
});
