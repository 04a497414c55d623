import { and, eq, ne } from 'drizzle-orm';
import type { ProviderBilling } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { providers } from '../providers/providers.table.ts';

// A provider's billing identity (decision 073): four columns of their directory record, read and written here.

export interface ProviderBillingRow {
  providerId: string;
  npi: string | null;
  taxonomyCode: string | null;
  licenseState: string | null;
  licenseNumber: string | null;
}

const columns = {
  providerId: providers.id,
  npi: providers.npi,
  taxonomyCode: providers.taxonomyCode,
  licenseState: providers.licenseState,
  licenseNumber: providers.licenseNumber,
};

/** The provider's billing identity, or undefined when no provider has the id. */
export async function findProviderBilling(
  executor: Executor,
  providerId: string,
): Promise<ProviderBillingRow | undefined> {
  const [row] = await executor.select(columns).from(providers).where(eq(providers.id, providerId));
  return row;
}

/** Whether a provider other than `providerId` has this NPI. */
export async function npiHeldByAnother(executor: Executor, npi: string, providerId: string): Promise<boolean> {
  const [row] = await executor
    .select({ id: providers.id })
    .from(providers)
    .where(and(eq(providers.npi, npi), ne(providers.id, providerId)))
    .limit(1);
  return row !== undefined;
}

/** Writes the provider's billing identity; answers it as written. */
export async function updateProviderBillingRow(
  executor: Executor,
  providerId: string,
  values: ProviderBilling,
): Promise<ProviderBillingRow | undefined> {
  const [row] = await executor
    .update(providers)
    .set({ ...values, updatedAt: new Date() })
    .where(eq(providers.id, providerId))
    .returning(columns);
  return row;
}
