import type { Reach } from '../access/authorize.ts';

/** The owners of a patient's billing record: their primary provider and the account linked to them. */
export interface BillingOwners {
  patientOwnerId: string | null;
  patientAccountId: string | null;
}

/**
 * Whether the reach of `billing:read` / `billing:write` holds a patient's billing record (OWN_RECORDS.billing): an
 * administrator's every one, a provider's their own patients', a patient's their own.
 */
export function billingReachHolds(reach: Reach<'billing'>, owners: BillingOwners): boolean {
  if (reach.kind === 'any') return true;
  return owners[reach.field] === reach.callerId;
}
