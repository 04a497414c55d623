/**
 * Response and remission (decision 064) against hand-computed cases: patients of two fresh providers with PHQ-9
 * results, primary diagnoses and medications written out below, in 2020 (no other data of the test database falls
 * there), and the figures each caller is answered, worked out by hand.
 */
import { and, eq, gt } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { OUTCOME_MESSAGES } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { insertCompletedMeasure } from '../src/measures/measures.repository.ts';
import { demoClients, signedInAccount } from './factories/accounts.ts';
import { dataOf } from './factories/graphql.ts';
import { createPatient } from './factories/patients.ts';
import { createTestApp, type TestApp, type TestClient } from './helpers.ts';

const GROUP = 'key label patients responders remitters responseRate remissionRate tooFew';
const OUTCOMES = `query ($input: PracticeOutcomesInput!) { practiceOutcomes(input: $input) {
  instrument periodStart periodEnd patients responders remitters responseRate remissionRate tooFew
  byProvider { ${GROUP} } byDiagnosis { ${GROUP} } byMedicationClass { ${GROUP} } } }`;
const ADD_DIAGNOSIS = 'mutation ($input: AddDiagnosisInput!) { addDiagnosis(input: $input) { id } }';
const START_MEDICATION = 'mutation ($input: StartMedicationInput!) { startMedication(input: $input) { id } }';

const PERIOD = { startDate: '2020-04-01', endDate: '2020-09-30' };

const DRUGS = {
  sertraline: { drugName: 'Sertraline', strength: '50 mg', form: 'tablet', doseAmount: 50, doseUnit: 'mg' },
  bupropion: { drugName: 'Bupropion', strength: '150 mg', form: 'tablet', doseAmount: 150, doseUnit: 'mg' },
} as const;

interface Case {
  name: string;
  provider: 'a' | 'b';
  /** PHQ-9 totals with the day each was completed (at 15:00 UTC), in order. */
  scores: [string, number][];
  diagnosis?: string;
  medications?: [keyof typeof DRUGS, string][];
}

// The cases, one a line: PHQ-9 totals with the day each was completed, the primary diagnosis, medications started.
// Counted (R = responder, RR = responder and remitter, N = neither) or not, and why.
// prettier-ignore
const CASES: Case[] = [
  // Provider A: five counted patients, all with F33.1.
  { name: 'R: 20 → 8', provider: 'a', scores: [['2020-03-01', 20], ['2020-05-01', 8]], diagnosis: 'F33.1',
    medications: [['sertraline', '2020-01-15']] }, // 46 days before the baseline: ssri
  { name: 'RR: 16 → 4', provider: 'a', scores: [['2020-03-01', 16], ['2020-05-01', 4]], diagnosis: 'F33.1',
    medications: [['sertraline', '2020-04-01'], ['bupropion', '2020-04-01']] }, // ssri and atypical-antidepressant
  { name: 'N: 14 → 10', provider: 'a', scores: [['2020-03-01', 14], ['2020-05-01', 10]], diagnosis: 'F33.1',
    medications: [['sertraline', '2019-06-01']] }, // more than 90 days before the baseline: no class
  { name: 'R: exactly half, 20 → 10', provider: 'a', scores: [['2020-03-01', 20], ['2020-06-01', 10]],
    diagnosis: 'F33.1', medications: [['sertraline', '2020-06-15']] }, // after the follow-up: no class
  { name: 'N: the latest follow-up counts, 20 → 6 → 12', provider: 'a',
    scores: [['2020-03-01', 20], ['2020-05-01', 6], ['2020-07-01', 12]], diagnosis: 'F33.1' },
  // Provider A, not counted.
  { name: 'baseline below 10: 9 → 2', provider: 'a', scores: [['2020-03-01', 9], ['2020-05-01', 2]],
    diagnosis: 'F33.1' },
  { name: 'the first score is the baseline: 8 → 18 → 4', provider: 'a',
    scores: [['2020-01-10', 8], ['2020-03-01', 18], ['2020-05-01', 4]], diagnosis: 'F33.1' },
  { name: 'follow-up 10 days after the baseline: 18 → 5', provider: 'a',
    scores: [['2020-05-01', 18], ['2020-05-11', 5]], diagnosis: 'F33.1' },
  { name: 'follow-up after the period: 20 → 5', provider: 'a', scores: [['2020-03-01', 20], ['2020-10-15', 5]],
    diagnosis: 'F33.1' },
  // Provider B: three counted patients, two with F41.1, one with no primary diagnosis.
  { name: 'R: 15 → 7', provider: 'b', scores: [['2020-03-01', 15], ['2020-05-01', 7]], diagnosis: 'F41.1' },
  { name: 'RR: 12 → 3', provider: 'b', scores: [['2020-03-01', 12], ['2020-05-01', 3]], diagnosis: 'F41.1' },
  { name: 'N: a baseline of exactly 10, 10 → 10', provider: 'b', scores: [['2020-03-01', 10], ['2020-05-01', 10]] },
];

let t: TestApp;
let admin: TestClient;
let patient: TestClient;
const providers = {} as Record<'a' | 'b', { client: TestClient; id: string }>;

/** PHQ-9 answers adding up to `total`, item 9 left at 0. */
function answersOf(total: number): number[] {
  return Array.from({ length: 9 }, (_, item) => (item < 8 ? Math.max(0, Math.min(3, total - item * 3)) : 0));
}

function outcomes(client: TestClient, input: Record<string, unknown> = {}) {
  return client.gql<{ practiceOutcomes: Record<string, unknown> }>(OUTCOMES, {
    input: { ...PERIOD, instrument: 'phq9', ...input },
  });
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, patient } = await demoClients(t));
  for (const key of ['a', 'b'] as const) {
    const account = await signedInAccount(t, 'provider', { firstName: 'Outcome', lastName: key.toUpperCase() });
    providers[key] = { client: account.client, id: account.userId };
  }
  for (const item of CASES) {
    const provider = providers[item.provider];
    const { id: patientId } = await createPatient(provider.client);
    for (const [day, total] of item.scores) {
      await insertCompletedMeasure(t.runtime.database.db, t.runtime.keyring, {
        patientId,
        instrument: 'phq9',
        requestedBy: provider.id,
        answers: answersOf(total),
        difficulty: null,
        sentAt: new Date(`${day}T14:00:00Z`),
        completedAt: new Date(`${day}T15:00:00Z`),
      });
    }
    if (item.diagnosis) {
      dataOf(
        await provider.client.gql(ADD_DIAGNOSIS, {
          input: { patientId, code: item.diagnosis, status: 'active', primary: true },
        }),
      );
    }
    for (const [drug, startDate] of item.medications ?? []) {
      dataOf(
        await provider.client.gql(START_MEDICATION, {
          input: { patientId, ...DRUGS[drug], route: 'oral', frequency: 'once-daily', startDate },
        }),
      );
    }
  }
});

/** Figures as the server answers them: the rates, or none for a group too few to read. */
const figures = (patients: number, responders: number, remitters: number, rates: [number, number] | null) => ({
  patients,
  responders,
  remitters,
  responseRate: rates?.[0] ?? null,
  remissionRate: rates?.[1] ?? null,
  tooFew: rates === null,
});

/** One group's figures. */
const group = (key: string | null, ...rest: Parameters<typeof figures>) => ({ key, ...figures(...rest) });

describe('practice outcomes', () => {
  it('answers an administrator the practice, each group with its count and the small ones unread', async () => {
    const answer = dataOf(await outcomes(admin)).practiceOutcomes;
    // Counted: A's five (R, RR, N, R, N) and B's three (R, RR, N): 8 patients, 5 responders, 2 remitters.
    expect(answer).toMatchObject({
      instrument: 'phq9',
      periodStart: '2020-04-01',
      periodEnd: '2020-09-30',
      ...figures(8, 5, 2, [0.625, 0.25]),
    });
    expect(answer['byProvider']).toEqual([
      { ...group(providers.a.id, 5, 3, 1, [0.6, 0.2]), label: 'Outcome A' },
      { ...group(providers.b.id, 3, 2, 1, null), label: 'Outcome B' },
    ]);
    expect(answer['byDiagnosis']).toEqual([
      { ...group('F33.1', 5, 3, 1, [0.6, 0.2]), label: 'Major depressive disorder, recurrent, moderate' },
      { ...group('F41.1', 2, 2, 1, null), label: 'Generalized anxiety disorder' },
      { ...group(null, 1, 0, 0, null), label: null },
    ]);
    // ssri: the responder and the remitter; atypical: the remitter (in two classes); none: the other six.
    expect(answer['byMedicationClass']).toEqual([
      { ...group(null, 6, 3, 1, [0.5, 0.1667]), label: null },
      { ...group('ssri', 2, 2, 1, null), label: null },
      { ...group('atypical-antidepressant', 1, 1, 1, null), label: null },
    ]);
  });

  it('answers a provider their own patients only, and the by-provider list holds just them', async () => {
    const answer = dataOf(await outcomes(providers.a.client)).practiceOutcomes;
    expect(answer).toMatchObject(figures(5, 3, 1, [0.6, 0.2]));
    expect(answer['byProvider']).toEqual([{ ...group(providers.a.id, 5, 3, 1, [0.6, 0.2]), label: 'Outcome A' }]);
    expect((answer['byDiagnosis'] as { key: string }[]).map((g) => g.key)).toEqual(['F33.1']);
    expect(answer['byMedicationClass']).toEqual([
      { ...group(null, 3, 1, 0, null), label: null },
      { ...group('ssri', 2, 2, 1, null), label: null },
      { ...group('atypical-antidepressant', 1, 1, 1, null), label: null },
    ]);
    // Naming themselves is the same; a provider with no patient counted still finds themselves.
    expect(dataOf(await outcomes(providers.a.client, { providerId: providers.a.id })).practiceOutcomes).toEqual(answer);
    const gad7 = dataOf(await outcomes(providers.b.client, { instrument: 'gad7' })).practiceOutcomes;
    expect(gad7).toMatchObject({ instrument: 'gad7', ...figures(0, 0, 0, null) });
    expect(gad7['byProvider']).toEqual([{ ...group(providers.b.id, 0, 0, 0, null), label: 'Outcome B' }]);
  });

  it('lets an administrator read one provider, refuses a provider another’s and a patient all', async () => {
    expect(dataOf(await outcomes(admin, { providerId: providers.b.id })).practiceOutcomes).toMatchObject(
      figures(3, 2, 1, null),
    );
    const other = await outcomes(providers.a.client, { providerId: providers.b.id });
    expect(other.data).toBeNull();
    expect(other.errors?.[0]).toMatchObject({
      message: OUTCOME_MESSAGES.cannotView,
      extensions: { code: 'FORBIDDEN' },
    });
    const refused = await outcomes(patient);
    expect(refused.data).toBeNull();
    expect(refused.errors?.[0]?.extensions?.['code']).toBe('FORBIDDEN');
  });

  it('refuses an instrument without outcomes and a period that ends before it starts', async () => {
    const instrument = await outcomes(admin, { instrument: 'pcl5' });
    expect(instrument.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
    const period = await outcomes(admin, { startDate: '2020-09-30', endDate: '2020-04-01' });
    expect(period.errors?.[0]?.extensions?.['code']).toBe('BAD_USER_INPUT');
  });

  it('records each reading with the period, the instrument and counts, naming no patient', async () => {
    const [last] = await t.runtime.database.db
      .select({ id: auditEntries.id })
      .from(auditEntries)
      .orderBy(auditEntries.id)
      .limit(1);
    dataOf(await outcomes(providers.a.client));
    const entries = await t.runtime.database.db
      .select({ details: auditEntries.details, userId: auditEntries.userId })
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'PRACTICE_OUTCOMES_VIEW'), gt(auditEntries.id, last!.id)));
    expect(entries.at(-1)).toEqual({
      userId: providers.a.id,
      details: {
        startDate: '2020-04-01',
        endDate: '2020-09-30',
        timeZone: expect.any(String) as unknown,
        instrument: 'phq9',
        providerId: providers.a.id,
        patients: 5,
        responders: 3,
        remitters: 1,
      },
    });
  });
});
