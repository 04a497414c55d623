import { defineModule } from '../modules/domain-module.ts';
import { registerBillingReportRoutes } from './billing-reports.routes.ts';
import { BillingReportsService } from './billing-reports.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    billingReports: BillingReportsService;
  }
}

/** The billing reports of /admin/reports (decision 073): by provider and month, aging, visits not coded (CSV too). */
export default defineModule({
  name: 'billing-reports',
  create: ({ db, config }) => ({
    services: {
      billingReports: new BillingReportsService({ db, timeZone: () => config.settings.current().timeZone }),
    },
  }),
  routes: (app, deps) => registerBillingReportRoutes(app, deps.billingReports),
});
