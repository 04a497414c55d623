/**
 * The billing reports (decision 073, "Reports"): charges, payments and adjustments by provider and month (a
 * reversal counted against what it reverses), outstanding balances by age (credits paying the oldest charges
 * first), completed visits not coded; who may read them, their audit entries, and the CSVs with the formula guard.
 */
import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING_REPORT_CSV_PATHS, messageText } from '@telehealth/shared';
import { appointments } from '../src/appointments/appointments.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { appendLedgerEntries, type LedgerEntryRow } from '../src/billing/billing.repository.ts';
import { appointmentsEncrypted } from '../src/keys/encrypted-columns.ts';
import { demoClients } from './factories/accounts.ts';
import { insertAdjustment, insertCodedVisit, insertPayment } from './factories/billing.ts';
import { insertPatient } from './factories/patients.ts';
import { createTestApp, TestClient, type TestApp } from './helpers.ts';

const BILLING = `query ($range: BillingReportRangeInput!) {
  billingReport(range: $range) {
    from to
    rows { providerId providerName month chargesCents paymentsCents adjustmentsCents }
    totals { chargesCents paymentsCents adjustmentsCents }
  }
}`;
const AGING = `query ($asOf: String!) {
  agingReport(asOf: $asOf) {
    asOf totalCents buckets { bucket cents }
    patients { patientId patientName totalCents buckets { bucket cents } }
  }
}`;
const UNCODED = `query ($range: BillingReportRangeInput!) {
  uncodedVisits(range: $range) {
    from to timeZone total
    visits { appointmentId date startsAt providerId providerName patientId patientName }
  }
}`;

interface Row {
  providerId: string | null;
  providerName: string | null;
  month: string;
  chargesCents: number;
  paymentsCents: number;
  adjustmentsCents: number;
}
interface Buckets {
  bucket: string;
  cents: number;
}
interface AgingPatient {
  patientId: string;
  patientName: string;
  totalCents: number;
  buckets: Buckets[];
}
interface Uncoded {
  appointmentId: string;
  date: string;
  providerId: string;
  patientId: string;
  patientName: string;
}

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let patient: TestClient;
let adminId: string;
let providerId: string;
let provider2Id: string;

let slot = 0;

/**
 * A visit written straight to the table (a day in the past the API would not book): from 09:00 New York time, each
 * visit of the file half an hour after the one before (a provider's visits never overlap).
 */
async function insertVisit(patientId: string, visitProvider: string, day: string, status = 'completed') {
  const id = randomUUID();
  const startsAt = new Date(Date.parse(`${day}T13:00:00Z`) + 30 * 60_000 * slot++);
  await t.runtime.database.db.insert(appointments).values({
    id,
    patientId,
    providerId: visitProvider,
    startsAt,
    endsAt: new Date(startsAt.getTime() + 30 * 60_000),
    timeZone: 'America/New_York',
    duration: 30,
    appointmentType: 'video',
    status,
    ...appointmentsEncrypted.seal(t.runtime.keyring, id, { reason: 'Follow-up' }),
    cancellationKind: status === 'cancelled' ? 'patient' : null,
  });
  return id;
}

/** A completed visit coded with one service of `feeCents` on `day`: answers its charge. */
async function charge(patientId: string, visitProvider: string, day: string, feeCents: number, code = '99214') {
  const appointmentId = await insertVisit(patientId, visitProvider, day);
  const { charges } = await insertCodedVisit(t, {
    appointmentId,
    patientId,
    providerId: visitProvider,
    codedBy: visitProvider,
    serviceDate: day,
    services: [{ code, feeCents }],
  });
  return charges[0]!;
}

async function reverse(entry: LedgerEntryRow, day: string) {
  const [row] = await appendLedgerEntries(t.runtime.database.db, t.runtime.keyring, [
    {
      patientId: entry.patientId,
      providerId: entry.providerId,
      appointmentId: entry.appointmentId,
      kind: 'reversal',
      amountCents: -entry.amountCents,
      entryDate: day,
      reason: 'Entered in error',
      reversesId: entry.id,
      enteredBy: adminId,
    },
  ]);
  return row!;
}

function bucketsOf(list: Buckets[]): Record<string, number> {
  return Object.fromEntries(list.map((b) => [b.bucket, b.cents]));
}

beforeAll(async () => {
  t = await createTestApp();
  const demo = await demoClients(t);
  ({ admin, provider, patient, adminId, providerId, provider2Id } = demo);
});

describe('charges, payments and adjustments by provider and month', () => {
  it('sums each provider’s month, counts a reversal against the charge it reverses, and totals', async () => {
    const p1 = await insertPatient(t);
    const p2 = await insertPatient(t);
    await charge(p1, providerId, '2023-01-10', 20000);
    const reversed = await charge(p1, providerId, '2023-01-20', 15000, '90834');
    await insertPayment(t, {
      patientId: p1,
      providerId,
      amountCents: 12000,
      receivedOn: '2023-01-25',
      enteredBy: adminId,
    });
    await insertAdjustment(t, {
      patientId: p1,
      providerId,
      amountCents: -2000,
      entryDate: '2023-01-26',
      enteredBy: adminId,
    });
    // Reversed in February: January keeps the charge, February's charges go down by it.
    await reverse(reversed, '2023-02-03');
    await charge(p2, provider2Id, '2023-02-10', 9000);
    // A payment on account, for no provider.
    await insertPayment(t, { patientId: p2, amountCents: 9000, receivedOn: '2023-02-11', enteredBy: adminId });
    // Outside the range: not counted.
    await charge(p2, provider2Id, '2023-03-01', 50000);

    const response = await admin.gql<{ billingReport: { rows: Row[]; totals: Record<string, number> } }>(BILLING, {
      range: { from: '2023-01-01', to: '2023-02-28' },
    });
    expect(response.errors).toBeUndefined();
    const report = response.data!.billingReport;
    const figures = report.rows.map(({ providerId: id, month, chargesCents, paymentsCents, adjustmentsCents }) => ({
      providerId: id,
      month,
      chargesCents,
      paymentsCents,
      adjustmentsCents,
    }));
    expect(figures).toEqual(
      expect.arrayContaining([
        { providerId, month: '2023-01', chargesCents: 35000, paymentsCents: 12000, adjustmentsCents: -2000 },
        { providerId, month: '2023-02', chargesCents: -15000, paymentsCents: 0, adjustmentsCents: 0 },
        { providerId: provider2Id, month: '2023-02', chargesCents: 9000, paymentsCents: 0, adjustmentsCents: 0 },
        { providerId: null, month: '2023-02', chargesCents: 0, paymentsCents: 9000, adjustmentsCents: 0 },
      ]),
    );
    expect(figures).toHaveLength(4);
    expect(report.rows.find((row) => row.providerId === providerId)?.providerName).toMatch(/\S/);
    expect(report.totals).toEqual({ chargesCents: 29000, paymentsCents: 21000, adjustmentsCents: -2000 });
  });

  it('refuses a range ending before it starts, with the coded message', async () => {
    const response = await admin.gql(BILLING, { range: { from: '2023-02-01', to: '2023-01-01' } });
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(JSON.stringify(response.errors)).toContain(messageText('billingMessages.rangeInvalid'));
  });
});

describe('outstanding balances by age', () => {
  const asOf = '2024-06-30';
  let owing: string;
  let reversedOwing: string;
  let credit: string;

  beforeAll(async () => {
    owing = await insertPatient(t);
    // Charges 10, 45, 75 and 120 days before the report's day.
    await charge(owing, providerId, '2024-06-20', 10000);
    await charge(owing, providerId, '2024-05-16', 10000);
    await charge(owing, providerId, '2024-04-16', 10000);
    await charge(owing, providerId, '2024-03-02', 10000);
    // 150 paid and 30 written off: the 120-day charge is paid, 80 of the 75-day one.
    await insertPayment(t, { patientId: owing, amountCents: 15000, receivedOn: '2024-06-25', enteredBy: adminId });
    await insertAdjustment(t, { patientId: owing, amountCents: -3000, entryDate: '2024-06-26', enteredBy: adminId });
    // After the report's day: not counted.
    await insertPayment(t, { patientId: owing, amountCents: 10000, receivedOn: '2024-07-05', enteredBy: adminId });

    // A reversed charge is a credit like any other: it pays the oldest charge first.
    reversedOwing = await insertPatient(t);
    await charge(reversedOwing, providerId, '2024-03-01', 5000);
    const june = await charge(reversedOwing, providerId, '2024-06-01', 8000);
    await reverse(june, '2024-06-10');

    credit = await insertPatient(t);
    await charge(credit, providerId, '2024-06-01', 5000);
    await insertPayment(t, { patientId: credit, amountCents: 7000, receivedOn: '2024-06-02', enteredBy: adminId });
  });

  it('ages the unpaid part of each charge, credits applied to the oldest charges first', async () => {
    const response = await admin.gql<{
      agingReport: { totalCents: number; buckets: Buckets[]; patients: AgingPatient[] };
    }>(AGING, { asOf });
    expect(response.errors).toBeUndefined();
    const report = response.data!.agingReport;
    const one = report.patients.find((p) => p.patientId === owing)!;
    expect(bucketsOf(one.buckets)).toEqual({ '0-30': 10000, '31-60': 10000, '61-90': 2000, 'over-90': 0 });
    expect(one.totalCents).toBe(22000);
    expect(one.patientName).toMatch(/^Iris Record/);
    const two = report.patients.find((p) => p.patientId === reversedOwing)!;
    expect(bucketsOf(two.buckets)).toEqual({ '0-30': 5000, '31-60': 0, '61-90': 0, 'over-90': 0 });
    // A patient in credit is left out.
    expect(report.patients.map((p) => p.patientId)).not.toContain(credit);
    // The totals are the sums of the patients' rows.
    const totals = bucketsOf(report.buckets);
    for (const bucket of ['0-30', '31-60', '61-90', 'over-90'])
      expect(totals[bucket]).toBe(report.patients.reduce((sum, p) => sum + bucketsOf(p.buckets)[bucket]!, 0));
    expect(report.totalCents).toBe(report.patients.reduce((sum, p) => sum + p.totalCents, 0));
  });

  it('audits the reading with the patients’ ids, never a name or an amount', async () => {
    await admin.gql(AGING, { asOf });
    const entries = await t.runtime.database.db
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'BILLING_REPORT_VIEW'), eq(auditEntries.userId, adminId)));
    const aging = entries.map((e) => e.details as Record<string, unknown>).filter((d) => d.report === 'aging');
    expect(aging.at(-1)).toMatchObject({ report: 'aging', format: 'screen', asOf });
    expect(aging.at(-1)!.patientIds).toEqual(expect.arrayContaining([owing, reversedOwing]));
    expect(JSON.stringify(aging)).not.toMatch(/Iris|22000/);
  });
});

describe('visits completed but not coded', () => {
  it('lists completed visits without a current coding, oldest first; not coded ones, not cancelled ones', async () => {
    const someone = await insertPatient(t);
    const later = await insertVisit(someone, providerId, '2023-05-10');
    const earlier = await insertVisit(someone, provider2Id, '2023-05-05');
    const coded = await insertVisit(someone, providerId, '2023-05-12');
    await insertCodedVisit(t, {
      appointmentId: coded,
      patientId: someone,
      providerId,
      codedBy: providerId,
      serviceDate: '2023-05-12',
      services: [{ code: '99213' }],
    });
    const cancelled = await insertVisit(someone, providerId, '2023-05-14', 'cancelled');
    const outside = await insertVisit(someone, providerId, '2023-06-01');

    const response = await admin.gql<{ uncodedVisits: { total: number; visits: Uncoded[] } }>(UNCODED, {
      range: { from: '2023-05-01', to: '2023-05-31' },
    });
    expect(response.errors).toBeUndefined();
    const mine = response.data!.uncodedVisits.visits.filter((v) => v.patientId === someone);
    expect(mine.map((v) => v.appointmentId)).toEqual([earlier, later]);
    expect(mine[0]).toMatchObject({ date: '2023-05-05', providerId: provider2Id });
    expect(mine[0]!.patientName).toMatch(/^Iris Record/);
    const ids = response.data!.uncodedVisits.visits.map((v) => v.appointmentId);
    for (const absent of [coded, cancelled, outside]) expect(ids).not.toContain(absent);
  });
});

describe('the CSV downloads', () => {
  it('guards a crafted name against running as a formula, and names the file by its dates only', async () => {
    const crafted = await insertPatient(t, { firstName: '=HYPERLINK("http://evil.example")', lastName: 'Crafted' });
    await charge(crafted, providerId, '2022-06-01', 4200);
    await insertVisit(crafted, providerId, '2022-06-03');

    const aging = await t.app.inject({
      method: 'GET',
      url: `${BILLING_REPORT_CSV_PATHS.aging}?asOf=2022-06-30`,
      headers: { cookie: admin.cookie! },
    });
    expect(aging.statusCode).toBe(200);
    expect(aging.headers['content-type']).toContain('text/csv');
    expect(aging.headers['content-disposition']).toBe('attachment; filename="aging-report-2022-06-30.csv"');
    const line = aging.body.split('\r\n').find((l) => l.includes(crafted))!;
    expect(line).toContain(`"'=HYPERLINK(""http://evil.example"") Crafted"`);
    expect(line).toContain(',42.00,');

    const uncoded = await t.app.inject({
      method: 'GET',
      url: `${BILLING_REPORT_CSV_PATHS.uncoded}?from=2022-06-01&to=2022-06-30`,
      headers: { cookie: admin.cookie! },
    });
    expect(uncoded.statusCode).toBe(200);
    expect(uncoded.headers['content-disposition']).toBe(
      'attachment; filename="uncoded-visits-2022-06-01-to-2022-06-30.csv"',
    );
    expect(uncoded.body).toContain(`"'=HYPERLINK(""http://evil.example"") Crafted"`);
    expect(uncoded.body).not.toMatch(/,"?=HYPERLINK/);

    const billing = await t.app.inject({
      method: 'GET',
      url: `${BILLING_REPORT_CSV_PATHS.billing}?from=2022-06-01&to=2022-06-30`,
      headers: { cookie: admin.cookie! },
    });
    expect(billing.statusCode).toBe(200);
    expect(billing.headers['content-disposition']).toBe(
      'attachment; filename="billing-report-2022-06-01-to-2022-06-30.csv"',
    );
    expect(billing.body.split('\r\n')[0]).toBe('month,providerId,provider,charges,payments,adjustments');
    expect(billing.body).toContain('total,,,42.00,0.00,0.00');
  });

  it('refuses bad dates with the coded message', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `${BILLING_REPORT_CSV_PATHS.aging}?asOf=yesterday`,
      headers: { cookie: admin.cookie! },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain(messageText('billingMessages.dateInvalid'));
  });
});

describe('who may read the billing reports', () => {
  it('refuses providers, patients and signed-out callers', async () => {
    const range = { from: '2023-01-01', to: '2023-01-31' };
    const before = await t.runtime.database.db
      .select({ id: auditEntries.id })
      .from(auditEntries)
      .where(eq(auditEntries.event, 'BILLING_REPORT_VIEW'));
    for (const client of [provider, patient]) {
      for (const [document, variables] of [
        [BILLING, { range }],
        [AGING, { asOf: '2023-01-31' }],
        [UNCODED, { range }],
      ] as const) {
        const response = await client.gql(document, variables);
        expect(response.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
        expect(response.errors?.[0]?.message).toBe(messageText('messages.adminRequired'));
      }
      for (const path of Object.values(BILLING_REPORT_CSV_PATHS)) {
        const csv = await t.app.inject({
          method: 'GET',
          url: `${path}?from=2023-01-01&to=2023-01-31&asOf=2023-01-31`,
          headers: { cookie: client.cookie! },
        });
        expect(csv.statusCode).toBe(403);
      }
    }
    const anonymous = new TestClient(t.app);
    const signedOut = await anonymous.gql(AGING, { asOf: '2023-01-31' });
    expect(signedOut.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    for (const path of Object.values(BILLING_REPORT_CSV_PATHS)) {
      const csv = await t.app.inject({ method: 'GET', url: `${path}?from=2023-01-01&to=2023-01-31&asOf=2023-01-31` });
      expect(csv.statusCode).toBe(401);
    }
    // Nothing was read for the refused callers.
    const after = await t.runtime.database.db
      .select({ id: auditEntries.id })
      .from(auditEntries)
      .where(eq(auditEntries.event, 'BILLING_REPORT_VIEW'));
    expect(after).toHaveLength(before.length);
  });
});
