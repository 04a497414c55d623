/**
 * A provider's billing identity (issue 30, decision 073) against the real server: a provider keeps their own NPI,
 * taxonomy code and licence, an administrator anyone's; another provider's is out of reach (answered like a missing
 * provider, the attempt recorded) and a patient is refused. A wrong check digit and an NPI another provider has are
 * refused with coded messages and change nothing. Each change is audited with the provider's id only.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { APPOINTMENT_MESSAGES, BILLING_MESSAGES } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { demoClients } from './factories/accounts.ts';
import { dataOf } from './factories/graphql.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

const FIELDS = 'providerId npi taxonomyCode licenseState licenseNumber';
const READ = `query ($providerId: ID!) { providerBilling(providerId: $providerId) { ${FIELDS} } }`;
const UPDATE = `mutation ($providerId: ID!, $input: ProviderBillingInput!) {
  updateProviderBilling(providerId: $providerId, input: $input) { ${FIELDS} } }`;

interface ProviderBilling {
  providerId: string;
  npi: string | null;
  taxonomyCode: string | null;
  licenseState: string | null;
  licenseNumber: string | null;
}

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let providerId: string;
let provider2Id: string;

const db = () => t.runtime.database.db;

const errorOf = (response: GraphQLResponse) => ({
  code: response.errors?.[0]?.extensions?.code,
  message: response.errors?.[0]?.message,
  fields: (response.errors?.[0]?.extensions as { fields?: { field: string; messageId: string }[] } | undefined)?.fields,
});

const identity = (overrides: Record<string, unknown> = {}) => ({
  npi: '1234567893',
  taxonomyCode: '2084p0800x',
  licenseState: 'ny',
  licenseNumber: 'MD-123456',
  ...overrides,
});

function update(client: TestClient, id: string, input: Record<string, unknown>) {
  return client.gql<{ updateProviderBilling: ProviderBilling }>(UPDATE, { providerId: id, input });
}

async function read(client: TestClient, id: string) {
  return client.gql<{ providerBilling: ProviderBilling }>(READ, { providerId: id });
}

async function updateEntries(id: string) {
  return db()
    .select({ details: auditEntries.details, userId: auditEntries.userId })
    .from(auditEntries)
    .where(and(eq(auditEntries.event, 'PROVIDER_BILLING_UPDATE'), sql`${auditEntries.details}->>'providerId' = ${id}`));
}

async function denials(userId: string) {
  return db()
    .select({ details: auditEntries.details })
    .from(auditEntries)
    .where(and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), eq(auditEntries.userId, userId)));
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, provider2, patient, providerId, provider2Id } = await demoClients(t));
});

describe("a provider's billing identity", () => {
  it('is empty until filled', async () => {
    expect(dataOf(await read(provider, providerId)).providerBilling).toEqual({
      providerId,
      npi: null,
      taxonomyCode: null,
      licenseState: null,
      licenseNumber: null,
    });
  });

  it('is kept by the provider themself, normalised, and audited with their id only', async () => {
    const saved = dataOf(await update(provider, providerId, identity({ npi: '123-456-7893' }))).updateProviderBilling;
    expect(saved).toEqual({
      providerId,
      npi: '1234567893',
      taxonomyCode: '2084P0800X',
      licenseState: 'NY',
      licenseNumber: 'MD-123456',
    });
    expect(dataOf(await read(provider, providerId)).providerBilling).toEqual(saved);
    const entries = await updateEntries(providerId);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toEqual({ userId: providerId, details: { providerId } });
  });

  it('is out of reach for another provider: answered like a missing provider, the attempt recorded', async () => {
    const before = (await denials(provider2Id)).length;
    const changed = await update(provider2, providerId, identity({ npi: '1922034560' }));
    expect(changed.data).toBeNull();
    expect(errorOf(changed)).toMatchObject({ code: 'NOT_FOUND', message: APPOINTMENT_MESSAGES.providerNotFound });
    const looked = await read(provider2, providerId);
    expect(errorOf(looked).code).toBe('NOT_FOUND');
    const recorded = (await denials(provider2Id)).slice(before);
    expect(recorded).toHaveLength(2);
    expect(recorded[0]!.details).toMatchObject({ providerId, permission: 'provider-billing:manage:any' });
    expect(dataOf(await read(provider, providerId)).providerBilling.npi).toBe('1234567893');
  });

  it('is kept by an administrator for any provider', async () => {
    const saved = dataOf(await update(admin, provider2Id, identity({ npi: '1922034560', licenseNumber: 'MD-9' })));
    expect(saved.updateProviderBilling).toMatchObject({ providerId: provider2Id, npi: '1922034560' });
    expect(dataOf(await read(provider2, provider2Id)).providerBilling.licenseNumber).toBe('MD-9');
    const entries = await updateEntries(provider2Id);
    expect(entries.at(-1)?.details).toEqual({ providerId: provider2Id });
  });

  it('refuses a patient', async () => {
    const refused = await update(patient, providerId, identity({ npi: '1497758544' }));
    expect(errorOf(refused)).toMatchObject({ code: 'FORBIDDEN', message: BILLING_MESSAGES.cannotManage });
    expect(errorOf(await read(patient, providerId)).code).toBe('FORBIDDEN');
  });

  it('refuses an NPI whose check digit is wrong, and bad fields, changing nothing', async () => {
    const before = (await updateEntries(providerId)).length;
    const wrongDigit = await update(provider, providerId, identity({ npi: '1234567890' }));
    expect(errorOf(wrongDigit)).toMatchObject({
      code: 'BAD_USER_INPUT',
      fields: [{ field: 'npi', messageId: 'billingMessages.npiInvalid' }],
    });
    const bad = await update(provider, providerId, identity({ taxonomyCode: '2084P0800', licenseState: 'New York' }));
    expect(
      errorOf(bad)
        .fields?.map((f) => f.messageId)
        .sort(),
    ).toEqual(['billingMessages.stateInvalid', 'billingMessages.taxonomyInvalid']);
    expect(dataOf(await read(provider, providerId)).providerBilling).toMatchObject({
      npi: '1234567893',
      taxonomyCode: '2084P0800X',
    });
    expect(await updateEntries(providerId)).toHaveLength(before);
  });

  it('refuses an NPI another provider has, changing nothing', async () => {
    const taken = await update(provider, providerId, identity({ npi: '1922034560' }));
    expect(errorOf(taken)).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: BILLING_MESSAGES.npiTaken,
      fields: [{ field: 'npi', messageId: 'billingMessages.npiTaken' }],
    });
    expect(dataOf(await read(provider, providerId)).providerBilling.npi).toBe('1234567893');
    // Saving one's own NPI again is not "taken".
    const same = await update(provider, providerId, identity({ licenseNumber: 'MD-654321' }));
    expect(dataOf(same).updateProviderBilling.licenseNumber).toBe('MD-654321');
  });
});
