import { defineModule } from '../modules/domain-module.ts';
import { OutcomesService } from './outcomes.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    outcomes: OutcomesService;
  }
}

/** Response and remission rates of measurement-based care (decision 064). */
export default defineModule({
  name: 'outcomes',
  create: ({ db, config }) => ({
    services: {
      outcomes: new OutcomesService({ db, timeZone: () => config.settings.current().timeZone }),
    },
  }),
});
