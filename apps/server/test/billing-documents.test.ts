/**
 * Superbills, statements, the "statement ready" e-mail and the patient's billing page (issue 30, decision 073):
 * the PDFs read back with pdftotext, who may download them, the audit entries (ids only) and the e-mail (no amount,
 * no health data).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { addDays, BILLING_MESSAGES, statementPath, superbillPath, todayIn } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { providers } from '../src/providers/providers.table.ts';
import { demoClients, type DemoClients } from './factories/accounts.ts';
import { createAppointment, nextWeekday, TEST_ZONE } from './factories/appointments.ts';
import { insertAdjustment, insertCodedVisit, insertPayment } from './factories/billing.ts';
import { createPatient, createPortalPatient, type PortalPatient } from './factories/patients.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

let t: TestApp;
let clients: DemoClients;
let portal: PortalPatient;
let patientId: string;
let firstVisit: string;
let secondVisit: string;
const db = () => t.runtime.database.db;

const IDENTITY = {
  legalName: 'Harbor Psychiatry PLLC',
  street: '12 Main Street',
  city: 'Albany',
  state: 'NY',
  zip: '12207',
  taxId: '12-3456789',
};
const NPI = '1234567893';
const today = () => todayIn(TEST_ZONE);
const ago = (days: number) => addDays(today(), -days);

const UPDATE_SETTINGS = `mutation U($input: UpdatePracticeSettingsInput!) {
  updatePracticeSettings(input: $input) { values { clinicPhone } } }`;
const SEND = 'mutation S($patientId: ID!) { sendBillingStatement(patientId: $patientId) }';
const MY_BILLING = `{ myBilling { patientId balanceCents entries { id date kind code amountCents }
  visits { appointmentId serviceDate providerName } } }`;

function pdfText(bytes: Buffer): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'billing-document-'));
  const file = path.join(dir, 'document.pdf');
  writeFileSync(file, bytes);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

function download(url: string, client?: TestClient) {
  return t.app.inject({ method: 'GET', url, headers: client?.cookie ? { cookie: client.cookie } : {} });
}

const errorOf = (response: GraphQLResponse) => response.errors?.[0]?.extensions as Record<string, unknown> | undefined;

async function eventsFor(event: string) {
  return db()
    .select({ details: auditEntries.details })
    .from(auditEntries)
    .where(and(eq(auditEntries.event, event), sql`${auditEntries.details}->'patientIds' ? ${patientId}`));
}

beforeAll(async () => {
  t = await createTestApp();
  clients = await demoClients(t);
  portal = await createPortalPatient(t, clients.provider, {
    record: {
      firstName: 'Nora',
      lastName: 'Biller',
      email: 'nora.biller@example.net',
      dateOfBirth: '1984-05-06',
      street: '3 Elm Road',
      city: 'Troy',
      state: 'NY',
      zipCode: '12180',
      insuranceProvider: 'Acme Health',
      insurancePolicyNumber: 'ACM-555-01',
    },
  });
  patientId = portal.patientId;
  firstVisit = (
    await createAppointment(clients.provider, { patientId, date: nextWeekday(2, 1), appointmentType: 'video' })
  ).id;
  secondVisit = (
    await createAppointment(clients.provider, { patientId, date: nextWeekday(3, 1), appointmentType: 'video' })
  ).id;
  await insertCodedVisit(t, {
    appointmentId: firstVisit,
    patientId,
    providerId: clients.providerId,
    codedBy: clients.providerId,
    serviceDate: ago(10),
    diagnosisCodes: ['F32.1', 'F41.1', 'Z63.0'],
    services: [
      { code: '99214', feeCents: 17550, modifiers: ['95'], diagnosisPointers: [1, 2] },
      { code: '90833', feeCents: 8025, addOn: true, modifiers: ['95', 'GT'], diagnosisPointers: [1] },
    ],
  });
  await insertPayment(t, {
    patientId,
    appointmentId: firstVisit,
    amountCents: 10000,
    receivedOn: ago(9),
    enteredBy: clients.adminId,
  });
  // An old visit and payment: the statement's balance forward.
  await insertCodedVisit(t, {
    appointmentId: secondVisit,
    patientId,
    providerId: clients.providerId,
    codedBy: clients.providerId,
    serviceDate: ago(120),
    placeOfService: '11',
    services: [{ code: '90837', feeCents: 17000, units: 1 }],
  });
  await insertPayment(t, { patientId, amountCents: 5000, receivedOn: ago(119), enteredBy: clients.adminId });
  await insertAdjustment(t, { patientId, amountCents: -2500, entryDate: ago(5), enteredBy: clients.adminId });
});

describe('refusals before the identity is filled', () => {
  it('asks for the practice’s identity, then for the provider’s NPI', async () => {
    const missing = await download(superbillPath({ patientId, appointmentId: firstVisit }), clients.admin);
    expect(missing.statusCode).toBe(400);
    expect(missing.json()).toMatchObject({
      errors: [{ extensions: { code: 'BAD_USER_INPUT', messageId: 'billingMessages.identityMissing' } }],
    });
    const set = await clients.admin.gql(UPDATE_SETTINGS, { input: { billingIdentity: IDENTITY } });
    expect(set.errors).toBeUndefined();
    const noNpi = await download(superbillPath({ patientId, appointmentId: firstVisit }), clients.admin);
    expect(noNpi.json()).toMatchObject({
      errors: [{ extensions: { messageId: 'billingMessages.providerIdentityMissing' } }],
    });
    await db()
      .update(providers)
      .set({ npi: NPI, taxonomyCode: '2084P0800X', licenseState: 'NY', licenseNumber: '301234' })
      .where(eq(providers.id, clients.providerId));
  });
});

describe('the superbill', () => {
  it('holds the practice, the provider, the patient, the codes, the pointed diagnoses and the totals', async () => {
    const response = await download(superbillPath({ patientId, appointmentId: firstVisit }), portal.client);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="superbill-${ago(10)}.pdf"`);
    const text = pdfText(response.rawPayload);
    for (const expected of [
      'Harbor Psychiatry PLLC',
      '12-3456789',
      NPI,
      '2084P0800X',
      'NY 301234',
      'Nora Biller',
      '1984-05-06',
      'Acme Health',
      'ACM-555-01',
      '99214',
      '90833',
      '95 GT',
      'F32.1, F41.1',
      '$175.50',
      '$80.25',
    ])
      expect(text).toContain(expected);
    // Z63.0 is on the visit but no service points to it.
    expect(text).not.toContain('Z63.0');
    expect(text).toMatch(/Total charged\s+\$255\.75/);
    expect(text).toMatch(/Total paid\s+\$100\.00/);
    expect(text).toMatch(/Balance\s+\$155\.75/);
  });

  it('covers a date range, with what was entered within it', async () => {
    const response = await download(superbillPath({ patientId, from: ago(200), to: today() }), clients.provider);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toContain(`superbill-${ago(200)}-to-${today()}.pdf`);
    const text = pdfText(response.rawPayload);
    expect(text).toContain('90837');
    expect(text).toMatch(/Total charged\s+\$425\.75/);
    expect(text).toMatch(/Total paid\s+\$150\.00/);
    expect(text).toMatch(/Adjustments\s+-\$25\.00/);
    expect(text).toMatch(/Balance\s+\$250\.75/);
  });

  it('refuses an empty range and a bad query with coded messages', async () => {
    const empty = await download(superbillPath({ patientId, from: '2020-01-01', to: '2020-01-31' }), clients.admin);
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ errors: [{ extensions: { messageId: 'billingMessages.nothingToBill' } }] });
    const backwards = await download(superbillPath({ patientId, from: '2026-02-01', to: '2026-01-01' }), clients.admin);
    expect(JSON.stringify(backwards.json())).toContain('billingMessages.rangeInvalid');
    const neither = await download(`/api/billing/superbill?patientId=${patientId}`, clients.admin);
    expect(JSON.stringify(neither.json())).toContain('billingMessages.chooseVisitOrRange');
  });

  it('is reached by the patient, their provider and administrators only; audited with ids', async () => {
    const url = superbillPath({ patientId, appointmentId: firstVisit });
    for (const client of [portal.client, clients.provider, clients.admin])
      expect((await download(url, client)).statusCode).toBe(200);
    for (const client of [clients.patient, clients.provider2]) {
      const refused = await download(url, client);
      expect(refused.statusCode).toBe(404);
      expect(refused.json()).toMatchObject({ errors: [{ extensions: { code: 'NOT_FOUND' } }] });
    }
    expect((await download(url)).statusCode).toBe(401);
    const entries = await eventsFor('SUPERBILL_DOWNLOAD');
    expect(entries.length).toBeGreaterThanOrEqual(3);
    for (const entry of entries) {
      const keys = Object.keys(entry.details as object).sort();
      expect(keys.filter((k) => !['appointmentId', 'from', 'to', 'patientId', 'patientIds'].includes(k))).toEqual([]);
      expect(JSON.stringify(entry.details)).not.toMatch(/99214|F32|Nora|\d{3,}\.\d\d/);
    }
    const refusals = await eventsFor('UNAUTHORIZED_ACCESS');
    expect(refusals.length).toBeGreaterThanOrEqual(2);
  });
});

describe('the statement', () => {
  it('shows the balance forward, the last 90 days and the total due, with how to pay and no diagnosis', async () => {
    const response = await download(statementPath(patientId), portal.client);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe(`attachment; filename="statement-${today()}.pdf"`);
    const text = pdfText(response.rawPayload);
    // Before the 90 days: 170.00 charged, 50.00 paid.
    expect(text).toMatch(/Balance forward before \S+\s+\$120\.00/);
    expect(text).toContain('Service 99214');
    expect(text).toMatch(/Payment, thank you\s+-\$100\.00/);
    expect(text).toMatch(/Total due\s+\$250\.75/);
    expect(text).toContain('How to pay');
    expect(text).not.toMatch(/F32|F41/);
    const es = await download(`${statementPath(patientId)}&language=es`, portal.client);
    expect(pdfText(es.rawPayload)).toContain('Total a pagar');
    const [entry] = await eventsFor('STATEMENT_DOWNLOAD');
    expect(entry!.details).toEqual({ patientId, patientIds: [patientId] });
  });

  it('is refused to another patient and another provider', async () => {
    for (const client of [clients.patient, clients.provider2])
      expect((await download(statementPath(patientId), client)).statusCode).toBe(404);
  });
});

describe('the statement-ready e-mail', () => {
  it('is queued to the patient’s account with no amount and no health data; audited', async () => {
    const sent = await clients.provider.gql<{ sendBillingStatement: boolean }>(SEND, { patientId });
    expect(sent.errors).toBeUndefined();
    expect(sent.data!.sendBillingStatement).toBe(true);
    const [mail] = await db().select().from(mailOutbox).where(eq(mailOutbox.toAddress, portal.email));
    expect(mail).toMatchObject({ kind: 'billing-statement-ready' });
    const all = `${mail!.subject}\n${mail!.textBody}\n${mail!.htmlBody}`;
    expect(all).toContain('statement');
    expect(all).not.toMatch(/\$|\d+\.\d\d|99214|90833|F32|Acme|Nora/);
    const [entry] = await eventsFor('STATEMENT_SENT');
    expect(entry!.details).toEqual({ patientId, patientIds: [patientId] });
  });

  it('is refused for a patient without a portal account, to another provider and to a patient', async () => {
    const offline = await createPatient(clients.provider);
    const none = await clients.provider.gql(SEND, { patientId: offline.id });
    expect(errorOf(none)).toMatchObject({ messageId: 'billingMessages.noPortalAccount' });
    expect(none.errors?.[0]?.message).toBe(BILLING_MESSAGES.noPortalAccount);
    expect(errorOf(await clients.provider2.gql(SEND, { patientId }))).toMatchObject({ code: 'NOT_FOUND' });
    expect(errorOf(await portal.client.gql(SEND, { patientId }))).toMatchObject({ code: 'FORBIDDEN' });
  });
});

describe('myBilling', () => {
  it('answers the patient’s own balance, entries and coded visits; audited', async () => {
    const response = await portal.client.gql<{
      myBilling: {
        patientId: string;
        balanceCents: number;
        entries: { kind: string; code: string | null; amountCents: number }[];
        visits: { appointmentId: string; providerName: string }[];
      };
    }>(MY_BILLING);
    expect(response.errors).toBeUndefined();
    const billing = response.data!.myBilling;
    expect(billing).toMatchObject({ patientId, balanceCents: 25075 });
    expect(billing.entries).toContainEqual(
      expect.objectContaining({ kind: 'charge', code: '99214', amountCents: 17550 }),
    );
    expect(billing.visits.map((v) => v.appointmentId)).toEqual([firstVisit, secondVisit]);
    const [entry] = await eventsFor('LEDGER_VIEW');
    expect(entry!.details).toEqual({ patientId, patientIds: [patientId] });
    const staff = await clients.provider.gql(MY_BILLING);
    expect(errorOf(staff)).toMatchObject({ code: 'NOT_FOUND' });
  });
});
