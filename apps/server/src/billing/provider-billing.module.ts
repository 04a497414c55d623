import { defineModule } from '../modules/domain-module.ts';
import { ProviderBillingService } from './provider-billing.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    providerBilling: ProviderBillingService;
  }
}

/** Providers' billing identity (issue 30, decision 073): NPI, taxonomy code and licence, for superbills. */
export default defineModule({
  name: 'provider-billing',
  create: ({ db }) => ({ services: { providerBilling: new ProviderBillingService({ db }) } }),
});
