import { defineModule } from '../modules/domain-module.ts';
import { LedgerService } from './ledger.service.ts';
import { VisitCodingService } from './visit-coding.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    visitCoding: VisitCodingService;
    ledger: LedgerService;
  }
}

/**
 * Getting paid (issue 30, decision 073): coding a completed visit from the fee schedule, and the patient's
 * append-only ledger of charges, payments, adjustments and reversals, in cents.
 */
export default defineModule({
  name: 'billing',
  // The fee schedule's module adds the starting services at start-up (fee-schedule.module.ts).
  after: ['clinical-record', 'fee-schedule'],
  create: ({ db, keyring, settings, diagnoses }) => ({
    services: {
      visitCoding: new VisitCodingService({ db, keyring, settings, diagnoses }),
      ledger: new LedgerService({ db, keyring, settings }),
    },
  }),
});
