import { STARTING_FEE_SCHEDULE } from '@telehealth/shared';
import type { Database } from '../db/client.ts';
import { defineModule } from '../modules/domain-module.ts';
import { insertFeeItems, listFeeItems } from './billing.repository.ts';
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
  after: ['clinical-record'],
  create: ({ db, keyring, settings, diagnoses }) => ({
    services: {
      visitCoding: new VisitCodingService({ db, keyring, settings, diagnoses }),
      ledger: new LedgerService({ db, keyring, settings }),
    },
    // A new installation starts with the example fee schedule, marked to review (decision 073).
    startUp: () => addStartingFeeSchedule(db),
  }),
});

/** The starting fee schedule, marked `example`, when the practice has no service at all yet. */
async function addStartingFeeSchedule(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    if ((await listFeeItems(tx)).length > 0) return;
    await insertFeeItems(
      tx,
      STARTING_FEE_SCHEDULE.map((item) => ({ ...item, example: true })),
    );
  });
}
