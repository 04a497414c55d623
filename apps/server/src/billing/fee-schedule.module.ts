import { defineModule } from '../modules/domain-module.ts';
import { FeeScheduleService } from './fee-schedule.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    feeSchedule: FeeScheduleService;
  }
}

/** The practice's fee schedule (issue 30, decision 073): the services visits are coded with, and their fees. */
export default defineModule({
  name: 'fee-schedule',
  create: ({ db }) => {
    const feeSchedule = new FeeScheduleService({ db });
    return {
      services: { feeSchedule },
      // A new practice starts with common psychiatry services as examples to review.
      startUp: () => feeSchedule.addStartingSchedule(),
    };
  },
});
