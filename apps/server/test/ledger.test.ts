/**
 * The patient's ledger (issue 30, decision 073) against the real server: payments subtract, adjustments add or
 * subtract with a reason, a reversal is the exact opposite of its entry, the balance is the sum in cents; a
 * reversal is never reversed and an entry only once; a payment cannot be received in the future; the patient's
 * primary provider and the administrators write, another provider reaches nothing and the patient only reads; each
 * write is audited with ids and the kind only.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, BILLING_MESSAGES, PATIENT_MESSAGES, todayIn } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { ledgerEntries } from '../src/billing/billing.table.ts';
import { demoClients } from './factories/accounts.ts';
import { insertCodedVisit } from './factories/billing.ts';
import { createPortalPatient } from './factories/patients.ts';
import { pastVideoAppointment } from './factories/recordings.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

const ENTRY = 'id kind amountCents entryDate method reference reason reversesId reversedById enteredByName code';
const LEDGER = `query ($patientId: ID!) { patientLedger(patientId: $patientId) { patientId balanceCents entries { ${ENTRY} } } }`;
const PAY = `mutation ($input: PaymentInput!) { recordPayment(input: $input) { ${ENTRY} } }`;
const ADJUST = `mutation ($input: AdjustmentInput!) { recordAdjustment(input: $input) { ${ENTRY} } }`;
const REVERSE = `mutation ($input: ReversalInput!) { reverseLedgerEntry(input: $input) { ${ENTRY} } }`;

interface Entry {
  id: string;
  kind: string;
  amountCents: number;
  entryDate: string;
  method: string | null;
  reference: string | null;
  reason: string | null;
  reversesId: string | null;
  reversedById: string | null;
  enteredByName: string;
  code: string | null;
}

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let providerId: string;
let patientId: string;
let today: string;

const db = () => t.runtime.database.db;
const errorOf = (response: GraphQLResponse) => ({
  code: response.errors?.[0]?.extensions?.code,
  message: response.errors?.[0]?.message,
});
const ledgerOf = async (client: TestClient) =>
  (await client.gql<{ patientLedger: { balanceCents: number; entries: Entry[] } }>(LEDGER, { patientId })).data!
    .patientLedger;
const pay = (client: TestClient, fields: Record<string, unknown> = {}) =>
  client.gql<{ recordPayment: Entry }>(PAY, {
    input: { patientId, amountCents: 5000, method: 'check', receivedOn: today, reference: '1042', ...fields },
  });
const adjust = (client: TestClient, fields: Record<string, unknown> = {}) =>
  client.gql<{ recordAdjustment: Entry }>(ADJUST, {
    input: { patientId, amountCents: 2500, direction: 'decrease', reason: 'Sliding scale', ...fields },
  });
const reverse = (client: TestClient, entryId: string) =>
  client.gql<{ reverseLedgerEntry: Entry }>(REVERSE, { input: { entryId, reason: 'Entered twice' } });
const entryCount = async () =>
  (
    await db()
      .select({ n: sql<number>`count(*)::int` })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.patientId, patientId))
  )[0]!.n;

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, provider2, providerId } = await demoClients(t));
  ({ client: patient, patientId } = await createPortalPatient(t, provider, {
    record: { firstName: 'Ines', lastName: 'Ledger', email: 'ines.ledger@example.net', dateOfBirth: '1975-09-10' },
  }));
  today = todayIn(t.runtime.config.settings.current().timeZone);
  const appointmentId = await pastVideoAppointment(t, providerId, patientId);
  await insertCodedVisit(t, {
    appointmentId,
    patientId,
    providerId,
    codedBy: providerId,
    serviceDate: today,
    services: [{ code: '99214', feeCents: 17500 }],
  });
});

describe('the ledger', () => {
  let paymentId: string;

  it('shows the charge and the balance in cents', async () => {
    const ledger = await ledgerOf(provider);
    expect(ledger.balanceCents).toBe(17500);
    expect(ledger.entries).toMatchObject([{ kind: 'charge', amountCents: 17500, code: '99214', reversedById: null }]);
  });

  it('records a payment as a negative entry with its method and reference', async () => {
    const paid = await pay(provider);
    expect(paid.errors).toBeUndefined();
    paymentId = paid.data!.recordPayment.id;
    expect(paid.data!.recordPayment).toMatchObject({
      kind: 'payment',
      amountCents: -5000,
      method: 'check',
      reference: '1042',
      entryDate: today,
    });
    expect((await ledgerOf(provider)).balanceCents).toBe(12500);
  });

  it('records adjustments down and up, each with its reason', async () => {
    expect((await adjust(provider)).data!.recordAdjustment).toMatchObject({
      kind: 'adjustment',
      amountCents: -2500,
      reason: 'Sliding scale',
    });
    expect(
      (await adjust(admin, { amountCents: 1000, direction: 'increase', reason: 'Returned check fee' })).data!
        .recordAdjustment,
    ).toMatchObject({ amountCents: 1000 });
    expect((await ledgerOf(provider)).balanceCents).toBe(11000);
  });

  it('reverses an entry with its exact opposite, once, and never a reversal', async () => {
    const reversed = await reverse(provider, paymentId);
    expect(reversed.errors).toBeUndefined();
    const reversal = reversed.data!.reverseLedgerEntry;
    expect(reversal).toMatchObject({
      kind: 'reversal',
      amountCents: 5000,
      reversesId: paymentId,
      reason: 'Entered twice',
    });
    const ledger = await ledgerOf(provider);
    expect(ledger.balanceCents).toBe(16000);
    expect(ledger.entries.find((e) => e.id === paymentId)?.reversedById).toBe(reversal.id);

    const before = await entryCount();
    expect(errorOf(await reverse(admin, paymentId))).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: BILLING_MESSAGES.alreadyReversed,
    });
    expect(errorOf(await reverse(admin, reversal.id))).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: BILLING_MESSAGES.cannotReverseReversal,
    });
    expect(await entryCount()).toBe(before);
  });

  it('refuses a payment received in the future, a zero amount and an adjustment without a reason', async () => {
    const before = await entryCount();
    expect(errorOf(await pay(provider, { receivedOn: addDays(today, 1) }))).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: BILLING_MESSAGES.dateInFuture,
    });
    expect(errorOf(await pay(provider, { amountCents: 0 }))).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(errorOf(await adjust(provider, { reason: '' }))).toMatchObject({ code: 'BAD_USER_INPUT' });
    expect(await entryCount()).toBe(before);
  });

  it('lets the patient read their ledger but not write it, and another provider reach nothing', async () => {
    expect((await ledgerOf(patient)).balanceCents).toBe(16000);
    const before = await entryCount();
    expect(errorOf(await pay(patient))).toMatchObject({ code: 'FORBIDDEN', message: BILLING_MESSAGES.cannotWrite });
    for (const attempt of [provider2.gql(LEDGER, { patientId }), pay(provider2), adjust(provider2)])
      expect(errorOf(await attempt)).toMatchObject({ code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound });
    expect(errorOf(await reverse(provider2, paymentId))).toMatchObject({
      code: 'NOT_FOUND',
      message: BILLING_MESSAGES.entryNotFound,
    });
    expect(await entryCount()).toBe(before);
  });

  it('audits each read and write with ids and the kind only', async () => {
    const entries = await db()
      .select({ event: auditEntries.event, details: auditEntries.details })
      .from(auditEntries)
      .where(
        and(
          sql`${auditEntries.event} in ('LEDGER_VIEW', 'PAYMENT_RECORDED', 'ADJUSTMENT_RECORDED', 'LEDGER_ENTRY_REVERSED')`,
          sql`${auditEntries.details}->>'patientId' = ${patientId}`,
        ),
      );
    const events = new Set(entries.map((e) => e.event));
    expect(events).toEqual(
      new Set(['LEDGER_VIEW', 'PAYMENT_RECORDED', 'ADJUSTMENT_RECORDED', 'LEDGER_ENTRY_REVERSED']),
    );
    expect(entries.find((e) => e.event === 'PAYMENT_RECORDED')!.details).toMatchObject({
      patientId,
      entryId: paymentId,
      kind: 'payment',
    });
    const text = JSON.stringify(entries);
    for (const secret of ['5000', '2500', 'Sliding scale', 'Entered twice', '1042']) expect(text).not.toContain(secret);
  });
});
