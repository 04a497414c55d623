/**
 * The fee schedule (issue 30, decision 073) against the real server: a new practice starts with the starting
 * services marked as examples; an administrator adds a service and changes one (a saved row is no longer an
 * example; a fee of 0 is allowed; a service is made inactive, never deleted); a code already on the schedule and bad
 * input are refused and change nothing; providers (who code visits) read the schedule, active and inactive, but do
 * not change it; patients neither; each change is audited with the service's id and code, never its fee.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, STARTING_FEE_SCHEDULE } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { feeSchedule } from '../src/billing/billing.table.ts';
import { demoClients } from './factories/accounts.ts';
import { dataOf } from './factories/graphql.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

const FIELDS = 'id code shortName feeCents addOn active example';
const LIST = `{ feeSchedule { ${FIELDS} } }`;
const SAVE = `mutation ($input: FeeScheduleItemInput!) { saveFeeScheduleItem(input: $input) { ${FIELDS} } }`;

interface FeeItem {
  id: string;
  code: string;
  shortName: string;
  feeCents: number;
  addOn: boolean;
  active: boolean;
  example: boolean;
}

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let patient: TestClient;

const db = () => t.runtime.database.db;

const errorOf = (response: GraphQLResponse) => ({
  code: response.errors?.[0]?.extensions?.code,
  message: response.errors?.[0]?.message,
  fields: (response.errors?.[0]?.extensions as { fields?: { field: string; messageId: string }[] } | undefined)?.fields,
});

function item(overrides: Record<string, unknown> = {}) {
  return {
    code: 'G0444',
    shortName: 'Depression screen, yearly',
    feeCents: 2500,
    addOn: false,
    active: true,
    ...overrides,
  };
}

async function list(client: TestClient): Promise<FeeItem[]> {
  return dataOf(await client.gql<{ feeSchedule: FeeItem[] }>(LIST)).feeSchedule;
}

function save(client: TestClient, input: Record<string, unknown>) {
  return client.gql<{ saveFeeScheduleItem: FeeItem }>(SAVE, { input });
}

async function rowCount(): Promise<number> {
  const [row] = await db()
    .select({ n: sql<number>`count(*)::int` })
    .from(feeSchedule);
  return row!.n;
}

async function changeEntries(feeItemId: string) {
  return db()
    .select({ details: auditEntries.details, userId: auditEntries.userId, url: auditEntries.url })
    .from(auditEntries)
    .where(
      and(eq(auditEntries.event, 'FEE_SCHEDULE_CHANGE'), sql`${auditEntries.details}->>'feeItemId' = ${feeItemId}`),
    );
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, patient } = await demoClients(t));
});

describe('the fee schedule', () => {
  it('starts with the starting services, marked as examples to review, by code', async () => {
    const items = await list(admin);
    expect(items.map((i) => i.code)).toEqual(STARTING_FEE_SCHEDULE.map((i) => i.code).sort());
    expect(items.every((i) => i.example && i.active)).toBe(true);
    const addOn = items.find((i) => i.code === '90833');
    expect(addOn).toMatchObject({ addOn: true, feeCents: 8000, shortName: 'Therapy with a visit, 30 minutes' });
  });

  it('is not added again when the server starts on a practice that has a fee schedule', async () => {
    const before = await rowCount();
    await t.runtime.feeSchedule.addStartingSchedule();
    expect(await rowCount()).toBe(before);
    expect(before).toBe(STARTING_FEE_SCHEDULE.length);
  });

  it('lets an administrator add a service, audited with its id and code but not its fee', async () => {
    const added = dataOf(await save(admin, item({ code: ' g0444 ' }))).saveFeeScheduleItem;
    expect(added).toMatchObject({ code: 'G0444', feeCents: 2500, addOn: false, active: true, example: false });
    expect((await list(admin)).find((i) => i.code === 'G0444')?.id).toBe(added.id);
    const entries = await changeEntries(added.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]!.details).toEqual({ feeItemId: added.id, code: 'G0444' });
    expect(JSON.stringify(entries[0]!.details)).not.toContain('2500');
  });

  it('lets an administrator change a starting service: it is no longer an example', async () => {
    const therapy = (await list(admin)).find((i) => i.code === '90834')!;
    const changed = dataOf(
      await save(admin, item({ id: therapy.id, code: '90834', shortName: 'Therapy, 45 min', feeCents: 14250 })),
    ).saveFeeScheduleItem;
    expect(changed).toMatchObject({ id: therapy.id, shortName: 'Therapy, 45 min', feeCents: 14250, example: false });
    const others = (await list(admin)).filter(
      (i) => i.code !== '90834' && STARTING_FEE_SCHEDULE.some((s) => s.code === i.code),
    );
    expect(others.every((i) => i.example)).toBe(true);
    expect(await changeEntries(therapy.id)).toHaveLength(1);
  });

  it('allows a fee of 0 and makes a service inactive rather than deleting it', async () => {
    const screen = (await list(admin)).find((i) => i.code === '96127')!;
    const free = dataOf(
      await save(admin, item({ id: screen.id, code: '96127', shortName: 'Rating scale', feeCents: 0 })),
    );
    expect(free.saveFeeScheduleItem.feeCents).toBe(0);
    const retired = dataOf(
      await save(admin, item({ id: screen.id, code: '96127', shortName: 'Rating scale', feeCents: 0, active: false })),
    );
    expect(retired.saveFeeScheduleItem.active).toBe(false);
    // Providers code visits from it: they see inactive services too (the coding form shows them as no longer offered).
    const seen = (await list(provider)).find((i) => i.id === screen.id);
    expect(seen).toMatchObject({ active: false, feeCents: 0 });
  });

  it('refuses a code already on the schedule, adding or changing, and changes nothing', async () => {
    const before = await list(admin);
    const duplicate = await save(admin, item({ code: '90791', shortName: 'Again' }));
    expect(errorOf(duplicate)).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: BILLING_MESSAGES.serviceCodeTaken,
      fields: [{ field: 'code', messageId: 'billingMessages.serviceCodeTaken' }],
    });
    const group = before.find((i) => i.code === '90853')!;
    const renamed = await save(admin, item({ id: group.id, code: '90791', shortName: 'Group therapy' }));
    expect(errorOf(renamed).message).toBe(BILLING_MESSAGES.serviceCodeTaken);
    expect(await list(admin)).toEqual(before);
  });

  it('refuses bad input with coded messages and changes nothing', async () => {
    const before = await rowCount();
    const badCode = await save(admin, item({ code: '9083' }));
    expect(errorOf(badCode)).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(errorOf(badCode).fields).toContainEqual(
      expect.objectContaining({ field: 'code', messageId: 'billingMessages.serviceCodeInvalid' }),
    );
    const negative = await save(admin, item({ code: 'G0445', feeCents: -1 }));
    expect(errorOf(negative).fields).toContainEqual(
      expect.objectContaining({ field: 'feeCents', messageId: 'billingMessages.amountInvalid' }),
    );
    const tooMuch = await save(admin, item({ code: 'G0445', feeCents: 10_000_001 }));
    expect(errorOf(tooMuch).fields).toContainEqual(
      expect.objectContaining({ field: 'feeCents', messageId: 'billingMessages.amountTooLarge' }),
    );
    const missing = await save(admin, item({ id: '00000000-0000-4000-8000-000000000000', code: 'G0445' }));
    expect(errorOf(missing)).toMatchObject({ code: 'NOT_FOUND', message: BILLING_MESSAGES.feeItemNotFound });
    expect(await rowCount()).toBe(before);
  });

  it('does not let a provider or a patient change it; a patient cannot read it', async () => {
    const before = await rowCount();
    const byProvider = await save(provider, item({ code: 'G0446' }));
    expect(errorOf(byProvider)).toMatchObject({ code: 'FORBIDDEN', message: BILLING_MESSAGES.cannotManage });
    const byPatient = await save(patient, item({ code: 'G0446' }));
    expect(errorOf(byPatient)).toMatchObject({ code: 'FORBIDDEN' });
    expect(await rowCount()).toBe(before);
    const read = await patient.gql(LIST);
    expect(read.data).toBeNull();
    expect(errorOf(read).code).toBe('FORBIDDEN');
  });
});
