import { defineModule } from '../modules/domain-module.ts';
import { ProvidersService } from './providers.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    providers: ProvidersService;
  }
}

export default defineModule({
  name: 'providers',
  after: ['auth'],
  create: ({ db, secret, invitations }) => ({
    services: { providers: new ProvidersService({ db, secret, invitations }) },
  }),
});
