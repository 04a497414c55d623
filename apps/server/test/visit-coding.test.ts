/**
 * Coding a visit (issue 30, decision 073) against the real server: a completed video visit proposes modifier 95
 * and place of service 10; coding charges each line in cents; coding again reverses the previous charges and
 * charges the new version's, the balance right; a visit not completed (or its note unsigned when the practice asks
 * so), a diagnosis off the problem list, an inactive service, an add-on alone, a stale version, another provider and
 * the patient are refused and nothing is written; the audit entries carry ids only.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { BILLING_MESSAGES, PATIENT_MESSAGES, todayIn } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { insertFeeItems, type FeeItemRow } from '../src/billing/billing.repository.ts';
import { ledgerEntries, visitCodings } from '../src/billing/billing.table.ts';
import { appointments } from '../src/appointments/appointments.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createNote, signNote } from './factories/notes.ts';
import { createPortalPatient } from './factories/patients.ts';
import { pastVideoAppointment } from './factories/recordings.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

const CODING = `appointmentId patientId appointmentType codable notCodableReason
  proposal { placeOfService modifiers } problems { code title }
  current { version placeOfService diagnosisCodes codedByName codedAt
    services { feeItemId code shortName addOn units modifiers diagnosisPointers unitFeeCents } }`;
const GET = `query ($appointmentId: ID!) { visitCoding(appointmentId: $appointmentId) { ${CODING} } }`;
const CODE = `mutation ($input: VisitCodingInput!) { codeVisit(input: $input) { ${CODING} } }`;
const LEDGER = `query ($patientId: ID!) { patientLedger(patientId: $patientId) { balanceCents
  entries { id kind amountCents entryDate reason reversesId reversedById appointmentId code modifiers } } }`;
const ADD_DIAGNOSIS = 'mutation ($input: AddDiagnosisInput!) { addDiagnosis(input: $input) { id } }';
const UPDATE_SETTINGS = `mutation ($input: UpdatePracticeSettingsInput!) {
  updatePracticeSettings(input: $input) { values { visitCodingAfter } } }`;

interface Coding {
  codable: boolean;
  notCodableReason: string | null;
  proposal: { placeOfService: string; modifiers: string[] };
  problems: { code: string; title: string }[];
  current: {
    version: number;
    placeOfService: string;
    diagnosisCodes: string[];
    services: { code: string; units: number; modifiers: string[]; unitFeeCents: number }[];
  } | null;
}
interface Ledger {
  balanceCents: number;
  entries: {
    id: string;
    kind: string;
    amountCents: number;
    entryDate: string;
    reason: string | null;
    reversesId: string | null;
    reversedById: string | null;
    code: string | null;
    modifiers: string[];
  }[];
}

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let providerId: string;
let patientId: string;
let items: Map<string, FeeItemRow>;

const db = () => t.runtime.database.db;
const errorOf = (response: GraphQLResponse) => ({
  code: response.errors?.[0]?.extensions?.code,
  message: response.errors?.[0]?.message,
});

async function codingOf(client: TestClient, appointmentId: string) {
  return client.gql<{ visitCoding: Coding }>(GET, { appointmentId });
}

function input(appointmentId: string, overrides: Record<string, unknown> = {}) {
  return {
    appointmentId,
    placeOfService: '10',
    diagnosisCodes: ['F33.1'],
    services: [{ feeItemId: items.get('99214')!.id, units: 1, modifiers: ['95'], diagnosisPointers: [1] }],
    expectedVersion: 0,
    ...overrides,
  };
}

async function code(client: TestClient, appointmentId: string, overrides: Record<string, unknown> = {}) {
  return client.gql<{ codeVisit: Coding }>(CODE, { input: input(appointmentId, overrides) });
}

async function counts(appointmentId: string) {
  const [row] = await db()
    .select({
      codings: sql<number>`(SELECT count(*)::int FROM ${visitCodings} WHERE ${visitCodings.appointmentId} = ${appointmentId})`,
      entries: sql<number>`(SELECT count(*)::int FROM ${ledgerEntries} WHERE ${ledgerEntries.appointmentId} = ${appointmentId})`,
    })
    .from(sql`(SELECT 1) one`);
  return row!;
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, provider2, providerId } = await demoClients(t));
  ({ client: patient, patientId } = await createPortalPatient(t, provider, {
    record: { firstName: 'Rosa', lastName: 'Coded', email: 'rosa.coded@example.net', dateOfBirth: '1981-04-05' },
  }));
  for (const diagnosis of ['F33.1', 'F41.1'])
    await provider.gql(ADD_DIAGNOSIS, { input: { patientId, code: diagnosis, status: 'active' } });
  await insertFeeItems(db(), [
    { code: '99214', shortName: 'Follow-up visit, moderate', feeCents: 17500, addOn: false },
    { code: '90833', shortName: 'Therapy with a visit, 30 minutes', feeCents: 8000, addOn: true },
    { code: '96127', shortName: 'Rating scale, scored', feeCents: 1000, addOn: false },
    { code: '90853', shortName: 'Group therapy', feeCents: 6000, addOn: false },
  ]);
  // A service no longer offered (the starting schedule, if the server added it, holds the code already).
  await db().execute(sql`UPDATE fee_schedule SET active = false WHERE code = '90853'`);
  const rows = await db().execute<FeeItemRow>(sql`SELECT id, code FROM fee_schedule`);
  items = new Map(rows.rows.map((row) => [row.code, row]));
});

describe('coding a visit', () => {
  let visitId: string;

  it('proposes modifier 95 and place of service 10 for a completed video visit, with the problem list', async () => {
    visitId = await pastVideoAppointment(t, providerId, patientId);
    const read = await codingOf(provider, visitId);
    expect(read.errors).toBeUndefined();
    expect(read.data!.visitCoding).toMatchObject({
      codable: true,
      notCodableReason: null,
      proposal: { placeOfService: '10', modifiers: ['95'] },
      current: null,
    });
    expect(read.data!.visitCoding.problems.map((p) => p.code).sort()).toEqual(['F33.1', 'F41.1']);
  });

  it('charges each line with a fee in cents, dated the visit, and audits ids only', async () => {
    const coded = await code(provider, visitId, {
      diagnosisCodes: ['F33.1', 'F41.1'],
      services: [
        { feeItemId: items.get('99214')!.id, units: 1, modifiers: ['95'], diagnosisPointers: [1, 2] },
        { feeItemId: items.get('90833')!.id, units: 1, modifiers: ['95'], diagnosisPointers: [1] },
        { feeItemId: items.get('96127')!.id, units: 2, modifiers: [], diagnosisPointers: [2] },
      ],
    });
    expect(coded.errors).toBeUndefined();
    expect(coded.data!.codeVisit.current).toMatchObject({
      version: 1,
      placeOfService: '10',
      diagnosisCodes: ['F33.1', 'F41.1'],
      services: [
        { code: '99214', units: 1, modifiers: ['95'], unitFeeCents: 17500 },
        { code: '90833', units: 1, modifiers: ['95'], unitFeeCents: 8000 },
        { code: '96127', units: 2, modifiers: [], unitFeeCents: 1000 },
      ],
    });
    const ledger = (await provider.gql<{ patientLedger: Ledger }>(LEDGER, { patientId })).data!.patientLedger;
    const [visit] = await db().select().from(appointments).where(eq(appointments.id, visitId));
    const serviceDate = todayIn(t.runtime.config.settings.current().timeZone, visit!.startsAt);
    // Entered in one transaction: in any order.
    const byCode = [...ledger.entries].sort((a, b) => a.code!.localeCompare(b.code!));
    expect(byCode.map((e) => [e.kind, e.amountCents, e.code, e.entryDate, e.modifiers])).toEqual([
      ['charge', 8000, '90833', serviceDate, ['95']],
      ['charge', 2000, '96127', serviceDate, []],
      ['charge', 17500, '99214', serviceDate, ['95']],
    ]);
    expect(ledger.balanceCents).toBe(27500);
    const [entry] = await db()
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'VISIT_CODED'), sql`${auditEntries.details}->>'appointmentId' = ${visitId}`));
    expect(entry!.details).toEqual({ appointmentId: visitId, patientId, patientIds: [patientId], version: 1 });
  });

  it('reverses the previous charges and charges the new version when coded again, the balance right', async () => {
    const again = await code(provider, visitId, {
      expectedVersion: 1,
      services: [{ feeItemId: items.get('99214')!.id, units: 1, modifiers: ['95'], diagnosisPointers: [1] }],
    });
    expect(again.errors).toBeUndefined();
    expect(again.data!.codeVisit.current).toMatchObject({ version: 2 });
    const ledger = (await provider.gql<{ patientLedger: Ledger }>(LEDGER, { patientId })).data!.patientLedger;
    const reversals = ledger.entries.filter((e) => e.kind === 'reversal');
    expect(reversals.map((e) => e.amountCents).sort((a, b) => a - b)).toEqual([-17500, -8000, -2000]);
    expect(reversals.every((e) => e.reason === 'Coding corrected')).toBe(true);
    const charges = ledger.entries.filter((e) => e.kind === 'charge');
    expect(charges.filter((e) => e.reversedById === null).map((e) => e.amountCents)).toEqual([17500]);
    expect(ledger.balanceCents).toBe(17500);
  });

  it('refuses a stale version and writes nothing', async () => {
    const before = await counts(visitId);
    expect(errorOf(await code(provider, visitId, { expectedVersion: 1 }))).toMatchObject({
      code: 'BAD_USER_INPUT',
      message: BILLING_MESSAGES.codingStale,
    });
    expect(await counts(visitId)).toEqual(before);
  });

  it('refuses a diagnosis off the problem list, an inactive service and an add-on alone', async () => {
    const before = await counts(visitId);
    const refusals = [
      [{ diagnosisCodes: ['F20.9'] }, BILLING_MESSAGES.diagnosisNotPatients],
      [
        { services: [{ feeItemId: items.get('90853')!.id, units: 1, modifiers: [], diagnosisPointers: [1] }] },
        BILLING_MESSAGES.feeItemInactive,
      ],
      [
        { services: [{ feeItemId: items.get('90833')!.id, units: 1, modifiers: ['95'], diagnosisPointers: [1] }] },
        BILLING_MESSAGES.addOnNeedsPrimary,
      ],
    ] as const;
    for (const [overrides, message] of refusals) {
      expect(errorOf(await code(provider, visitId, { ...overrides, expectedVersion: 2 }))).toMatchObject({
        code: 'BAD_USER_INPUT',
        message,
      });
    }
    expect(await counts(visitId)).toEqual(before);
  });

  it('refuses a visit not completed, and one whose note is unsigned when the practice asks for a signed note', async () => {
    const pending = await pastVideoAppointment(t, providerId, patientId);
    await db().update(appointments).set({ status: 'confirmed' }).where(eq(appointments.id, pending));
    expect((await codingOf(provider, pending)).data!.visitCoding).toMatchObject({
      codable: false,
      notCodableReason: 'billingMessages.visitNotReady',
    });
    expect(errorOf(await code(provider, pending))).toMatchObject({ message: BILLING_MESSAGES.visitNotReady });
    expect(await counts(pending)).toEqual({ codings: 0, entries: 0 });

    const unsigned = await pastVideoAppointment(t, providerId, patientId);
    expect((await admin.gql(UPDATE_SETTINGS, { input: { visitCodingAfter: 'note-signed' } })).errors).toBeUndefined();
    try {
      expect(errorOf(await code(provider, unsigned))).toMatchObject({ message: BILLING_MESSAGES.visitNotReadySigned });
      expect(await counts(unsigned)).toEqual({ codings: 0, entries: 0 });
      const noteId = await createNote(provider, { patientId, appointmentId: unsigned });
      await signNote(provider, noteId);
      expect((await code(provider, unsigned)).errors).toBeUndefined();
    } finally {
      await admin.gql(UPDATE_SETTINGS, { input: { visitCodingAfter: 'completed' } });
    }
  });

  it('answers another provider and the patient as they may, writing nothing', async () => {
    const before = await counts(visitId);
    expect(errorOf(await codingOf(provider2, visitId))).toMatchObject({
      code: 'NOT_FOUND',
      message: BILLING_MESSAGES.visitNotFound,
    });
    expect(errorOf(await code(provider2, visitId, { expectedVersion: 2 }))).toMatchObject({
      code: 'NOT_FOUND',
      message: BILLING_MESSAGES.visitNotFound,
    });
    // The patient reads their own visit's coding but never codes it.
    expect(errorOf(await code(patient, visitId, { expectedVersion: 2 }))).toMatchObject({
      code: 'FORBIDDEN',
      message: BILLING_MESSAGES.cannotWrite,
    });
    expect(errorOf(await provider2.gql(LEDGER, { patientId }))).toMatchObject({
      code: 'NOT_FOUND',
      message: PATIENT_MESSAGES.notFound,
    });
    expect(await counts(visitId)).toEqual(before);
    const denials = await db()
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(
        and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), sql`${auditEntries.details}->'appointmentIds' ? ${visitId}`),
      );
    expect(denials.length).toBeGreaterThanOrEqual(2);
  });

  it('lets an administrator code any visit', async () => {
    const coded = await code(admin, visitId, { expectedVersion: 2, placeOfService: '02' });
    expect(coded.errors).toBeUndefined();
    expect(coded.data!.codeVisit.current).toMatchObject({ version: 3, placeOfService: '02' });
  });

  it('keeps amounts, codes and reasons out of every billing audit entry', async () => {
    const entries = await db()
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(sql`${auditEntries.event} in ('VISIT_CODED', 'VISIT_CODING_VIEW', 'LEDGER_VIEW')`);
    expect(entries.length).toBeGreaterThan(0);
    const text = JSON.stringify(entries);
    for (const secret of ['17500', '99214', 'F33.1', 'Coding corrected']) expect(text).not.toContain(secret);
  });
});
