import { can, FeeScheduleItemInputSchema, STARTING_FEE_SCHEDULE } from '@telehealth/shared';
import type { Caller } from '../access/caller.ts';
import { scopeOf } from '../access/scope.ts';
import type { Database } from '../db/client.ts';
import { postgresErrorOf } from '../db/retry.ts';
import { fieldError, notFound, parseInput } from '../errors.ts';
import { insertFeeItems, listFeeItems, type FeeItemRow } from './billing.repository.ts';
import { feeScheduleIsEmpty, findFeeItemByCode, lockFeeItem, updateFeeItem } from './fee-schedule.repository.ts';

export type { FeeItemRow };

/**
 * The practice's fee schedule (issue 30, decision 073): its services, each a CPT or HCPCS code with the practice's
 * own short name, a fee in cents and whether it is an add-on. Administrators keep it (`fee-schedule:manage`); those
 * who code visits (`billing:write`) read it. A service is never deleted, only made inactive; a code is on the
 * schedule once. A new practice starts with STARTING_FEE_SCHEDULE marked as examples to review.
 */
export class FeeScheduleService {
  readonly #db: Database;

  constructor(options: { db: Database }) {
    this.#db = options.db;
  }

  /** Every service, active and inactive, by code: for administrators and for those who code visits. */
  async list(caller: Caller): Promise<FeeItemRow[]> {
    const scope = scopeOf(this.#db, caller);
    if (!can(caller.user.role, 'fee-schedule:manage')) await scope.reach('billing:write');
    return listFeeItems(this.#db);
  }

  /**
   * Adds a service (no id) or changes one (its id). A saved service is no longer an example; a code another
   * service has is refused (`serviceCodeTaken`). Audited FEE_SCHEDULE_CHANGE with the id and code, not the fee.
   */
  async save(caller: Caller, input: unknown): Promise<FeeItemRow> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('fee-schedule:manage');
    const { id, ...values } = parseInput(FeeScheduleItemInputSchema, input);
    try {
      return await this.#db.transaction(async (tx) => {
        const holder = await findFeeItemByCode(tx, values.code);
        if (holder && holder.id !== id) throw fieldError('code', 'billingMessages.serviceCodeTaken');
        let row: FeeItemRow;
        if (id) {
          if (!(await lockFeeItem(tx, id))) throw notFound('billingMessages.feeItemNotFound');
          row = await updateFeeItem(tx, id, { ...values, example: false, updatedBy: caller.user.id });
        } else {
          const [added] = await insertFeeItems(tx, [{ ...values, example: false, updatedBy: caller.user.id }]);
          // Added meanwhile by another administrator: the insert left theirs as it was.
          if (!added) throw fieldError('code', 'billingMessages.serviceCodeTaken');
          row = added;
        }
        await scope.audit(tx, 'FEE_SCHEDULE_CHANGE', { feeItemId: row.id, code: row.code });
        return row;
      });
    } catch (error) {
      // Another service changed to this code at the same time: the unique index refuses the second.
      if (postgresErrorOf(error)?.code === '23505') throw fieldError('code', 'billingMessages.serviceCodeTaken');
      throw error;
    }
  }

  /** At start: a practice without any service gets the starting fee schedule, marked as examples to review. */
  async addStartingSchedule(): Promise<void> {
    await this.#db.transaction(async (tx) => {
      if (!(await feeScheduleIsEmpty(tx))) return;
      await insertFeeItems(
        tx,
        STARTING_FEE_SCHEDULE.map((item) => ({ ...item, example: true })),
      );
    });
  }
}
