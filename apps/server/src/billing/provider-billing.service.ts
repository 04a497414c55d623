import { ProviderBillingSchema } from '@telehealth/shared';
import type { Reach } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf, type FindByCheck } from '../access/scope.ts';
import type { Database } from '../db/client.ts';
import { postgresErrorOf } from '../db/retry.ts';
import { fieldError, parseInput } from '../errors.ts';
import {
  findProviderBilling,
  npiHeldByAnother,
  updateProviderBillingRow,
  type ProviderBillingRow,
} from './provider-billing.repository.ts';

export type { ProviderBillingRow };

/**
 * A provider's billing identity (issue 30, decision 073): the NPI, taxonomy code and licence a superbill prints.
 * A provider keeps their own; an administrator keeps anyone's (`provider-billing:manage`). An NPI is one
 * provider's: another provider's is refused with `billingMessages.npiTaken`.
 */
export class ProviderBillingService {
  readonly #db: Database;

  constructor(options: { db: Database }) {
    this.#db = options.db;
  }

  /** The provider's billing identity (its fields null until filled), or not found when out of reach. */
  async providerBilling(caller: Caller, providerId: string): Promise<ProviderBillingRow> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('provider-billing:manage');
    return scope.find('provider-billing:manage', providerId, this.#spec(providerId, reach));
  }

  /** Writes the provider's billing identity, all four fields at once; audited PROVIDER_BILLING_UPDATE. */
  async updateProviderBilling(caller: Caller, providerId: string, input: unknown): Promise<ProviderBillingRow> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('provider-billing:manage');
    const data = parseInput(ProviderBillingSchema, input);
    try {
      return await scope.transaction(async (tx, scoped) => {
        await scoped.find('provider-billing:manage', providerId, this.#spec(providerId, reach));
        if (await npiHeldByAnother(tx, data.npi, providerId)) throw fieldError('npi', 'billingMessages.npiTaken');
        const row = await updateProviderBillingRow(tx, providerId, data);
        await scope.audit(tx, 'PROVIDER_BILLING_UPDATE', { providerId });
        return row!;
      });
    } catch (error) {
      // Two saves of the same NPI at once: the unique index refuses the second.
      if (postgresErrorOf(error)?.code === '23505') throw fieldError('npi', 'billingMessages.npiTaken');
      throw error;
    }
  }

  #spec(providerId: string, reach: Reach<'provider-billing'>): FindByCheck<ProviderBillingRow> {
    return {
      load: (executor) => findProviderBilling(executor, providerId),
      within: (row) => reach.kind === 'any' || row.providerId === reach.callerId,
      missing: 'appointmentMessages.providerNotFound',
      denial: { providerId },
    };
  }
}
