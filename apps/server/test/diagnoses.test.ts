/**
 * The problem list (issue 27, decision 062) against the real server: a provider adds their own patient's
 * diagnoses by ICD-10-CM code (the list's official title filled in, a code off the list with a title and a
 * warning), changes them as new versions, one primary at a time; the patient reads their own; another provider
 * and the administrators do not; every read and change is audited, the free text encrypted.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLINICAL_RECORD_MESSAGES, PATIENT_MESSAGES } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { diagnoses, diagnosisRevisions } from '../src/clinical-record/diagnoses.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createPortalPatient } from './factories/patients.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

const FIELDS = 'id patientId code title listed status onsetDate primary comment version createdByName updatedByName';
const LIST = `query ($patientId: ID!) { patientDiagnoses(patientId: $patientId) { ${FIELDS} } }`;
const ADD = `mutation ($input: AddDiagnosisInput!) { addDiagnosis(input: $input) { ${FIELDS} } }`;
const UPDATE = `mutation ($input: UpdateDiagnosisInput!) { updateDiagnosis(input: $input) { ${FIELDS} } }`;
const HISTORY = `query ($id: ID!) { diagnosisHistory(id: $id) { version status primary comment changedByName } }`;
const CODES = 'query ($search: String!) { diagnosisCodes(search: $search) { code title } }';

interface Diagnosis {
  id: string;
  code: string;
  title: string;
  listed: boolean;
  status: string;
  onsetDate: string | null;
  primary: boolean;
  comment: string | null;
  version: number;
  createdByName: string;
}

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let patientId: string;

const errorOf = (response: GraphQLResponse) => ({
  code: response.errors?.[0]?.extensions?.code,
  message: response.errors?.[0]?.message,
  fields: (response.errors?.[0]?.extensions as { fields?: { field: string; messageId: string }[] } | undefined)?.fields,
});

async function add(client: TestClient, input: Record<string, unknown>) {
  return client.gql<{ addDiagnosis: Diagnosis }>(ADD, { input: { patientId, status: 'active', ...input } });
}

async function list(client: TestClient, id = patientId) {
  return client.gql<{ patientDiagnoses: Diagnosis[] }>(LIST, { patientId: id });
}

async function eventsFor(event: string, id: string) {
  return t.runtime.database.db
    .select({ details: auditEntries.details, userId: auditEntries.userId })
    .from(auditEntries)
    .where(and(eq(auditEntries.event, event), sql`${auditEntries.details}->'patientIds' ? ${id}`));
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, provider2 } = await demoClients(t));
  ({ client: patient, patientId } = await createPortalPatient(t, provider, {
    record: { firstName: 'Dana', lastName: 'Problems', email: 'dana.problems@example.net', dateOfBirth: '1984-02-03' },
  }));
});

describe('the problem list', () => {
  it("adds a listed code with the list's official title, encrypted, and keeps its first version", async () => {
    const added = await add(provider, { code: 'f411', onsetDate: '2024-03-01', comment: 'Worse in winter' });
    expect(added.errors).toBeUndefined();
    expect(added.data!.addDiagnosis).toMatchObject({
      code: 'F41.1',
      title: 'Generalized anxiety disorder',
      listed: true,
      status: 'active',
      onsetDate: '2024-03-01',
      primary: false,
      comment: 'Worse in winter',
      version: 1,
    });
    const [row] = await t.runtime.database.db
      .select()
      .from(diagnoses)
      .where(eq(diagnoses.id, added.data!.addDiagnosis.id));
    expect(row!.title).toMatch(/^enc:/);
    expect(row!.comment).toMatch(/^enc:/);
    expect(row!.code).toBe('F41.1');
    const [entry] = await eventsFor('DIAGNOSIS_ADD', patientId);
    // The audit entry names ids, never the code or the title.
    expect(JSON.stringify(entry!.details)).not.toMatch(/F41|anxiety|winter/i);
  });

  it('takes a code off the list only with a title, and marks it as not listed', async () => {
    const withoutTitle = await add(provider, { code: 'F99.9' });
    expect(errorOf(withoutTitle).message).toBe(CLINICAL_RECORD_MESSAGES.titleRequired);
    expect(errorOf(withoutTitle).fields).toEqual([
      expect.objectContaining({ field: 'title', messageId: 'clinicalRecordMessages.titleRequired' }),
    ]);
    const withTitle = await add(provider, { code: 'F99.9', title: 'Mental disorder, site-specific code' });
    expect(withTitle.data!.addDiagnosis).toMatchObject({ code: 'F99.9', listed: false });
  });

  it('refuses a code of the wrong shape, a second entry of one code, a future onset and an unknown status', async () => {
    const before = (await list(provider)).data!.patientDiagnoses.length;
    const refusals: [Record<string, unknown>, string, keyof typeof CLINICAL_RECORD_MESSAGES][] = [
      [{ code: '12345' }, 'code', 'codeInvalid'],
      [{ code: '' }, 'code', 'codeRequired'],
      [{ code: 'F41.1' }, 'code', 'alreadyOnList'],
      [{ code: 'F32.A', onsetDate: '2999-01-01' }, 'onsetDate', 'dateInFuture'],
      [{ code: 'F32.A', onsetDate: '2024-02-30' }, 'onsetDate', 'dateInvalid'],
      [{ code: 'F32.A', status: 'cured' }, 'status', 'chooseStatus'],
    ];
    for (const [input, field, key] of refusals) {
      const refused = errorOf(await add(provider, input));
      expect(refused.code).toBe('BAD_USER_INPUT');
      expect(refused.message).toContain(CLINICAL_RECORD_MESSAGES[key]);
      expect(refused.fields).toEqual([{ field, messageId: `clinicalRecordMessages.${key}`, params: {} }]);
    }
    expect((await list(provider)).data!.patientDiagnoses).toHaveLength(before);
  });

  it('keeps one primary diagnosis: making another primary moves it, each change a new version with its history', async () => {
    const depression = (await add(provider, { code: 'F33.1', primary: true })).data!.addDiagnosis;
    expect(depression.primary).toBe(true);
    const ptsd = (await add(provider, { code: 'F43.10', status: 'rule-out', primary: true })).data!.addDiagnosis;
    const listed = (await list(provider)).data!.patientDiagnoses;
    expect(listed[0]!.id).toBe(ptsd.id);
    expect(listed.filter((d) => d.primary).map((d) => d.id)).toEqual([ptsd.id]);
    expect(listed.find((d) => d.id === depression.id)!.version).toBe(2);

    const changed = await provider.gql<{ updateDiagnosis: Diagnosis }>(UPDATE, {
      input: { id: depression.id, status: 'in-remission', primary: true, comment: 'Remitted on sertraline' },
    });
    expect(changed.data!.updateDiagnosis).toMatchObject({ status: 'in-remission', primary: true, version: 3 });
    const history = await provider.gql<{ diagnosisHistory: { version: number; status: string; primary: boolean }[] }>(
      HISTORY,
      { id: depression.id },
    );
    expect(history.data!.diagnosisHistory.map((r) => [r.version, r.status, r.primary])).toEqual([
      [3, 'in-remission', true],
      [2, 'active', false],
      [1, 'active', true],
    ]);
    const revisions = await t.runtime.database.db
      .select()
      .from(diagnosisRevisions)
      .where(eq(diagnosisRevisions.diagnosisId, depression.id));
    expect(revisions.find((r) => r.version === 3)!.comment).toMatch(/^enc:/);
    const [update] = await eventsFor('DIAGNOSIS_UPDATE', patientId);
    expect(update!.details).toMatchObject({ fields: ['status', 'primary', 'comment'], primaryMovedFrom: [ptsd.id] });
  });

  it('writes no version when nothing changed', async () => {
    const entry = (await add(provider, { code: 'F90.2' })).data!.addDiagnosis;
    const same = await provider.gql<{ updateDiagnosis: Diagnosis }>(UPDATE, {
      input: { id: entry.id, status: 'active', primary: false, onsetDate: null, comment: null },
    });
    expect(same.data!.updateDiagnosis.version).toBe(1);
  });

  it("lets the patient read their own list, audited, and no one else's", async () => {
    const own = await list(patient);
    expect(own.errors).toBeUndefined();
    expect(own.data!.patientDiagnoses.map((d) => d.code)).toContain('F41.1');
    const views = await eventsFor('CLINICAL_RECORD_VIEW', patientId);
    expect(views.length).toBeGreaterThan(0);
    const written = await patient.gql(ADD, { input: { patientId, code: 'F32.A', status: 'active' } });
    expect(errorOf(written).code).toBe('FORBIDDEN');
    expect(errorOf(written).message).toBe(CLINICAL_RECORD_MESSAGES.cannotWrite);
  });

  it("answers another provider's patient like a missing one, and records the attempt", async () => {
    const read = await list(provider2);
    expect(errorOf(read)).toMatchObject({ code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound });
    const written = await add(provider2, { code: 'F32.A' });
    expect(errorOf(written)).toMatchObject({ code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound });
    const [entry] = (await list(provider)).data!.patientDiagnoses;
    const changed = await provider2.gql(UPDATE, { input: { id: entry!.id, status: 'resolved' } });
    expect(errorOf(changed)).toMatchObject({ code: 'NOT_FOUND', message: CLINICAL_RECORD_MESSAGES.diagnosisNotFound });
    const history = await provider2.gql(HISTORY, { id: entry!.id });
    expect(errorOf(history).message).toBe(CLINICAL_RECORD_MESSAGES.diagnosisNotFound);
    const denials = await eventsFor('UNAUTHORIZED_ACCESS', patientId);
    expect(denials.length).toBeGreaterThanOrEqual(4);
    const missing = await provider.gql(UPDATE, {
      input: { id: '00000000-0000-4000-8000-000000000000', status: 'active' },
    });
    expect(errorOf(missing).message).toBe(CLINICAL_RECORD_MESSAGES.diagnosisNotFound);
  });

  it('shows administrators no clinical content', async () => {
    const read = await list(admin);
    expect(errorOf(read)).toMatchObject({ code: 'FORBIDDEN', message: CLINICAL_RECORD_MESSAGES.cannotView });
    expect(errorOf(await admin.gql(CODES, { search: 'F32' })).code).toBe('FORBIDDEN');
  });

  it('finds codes by their start or by words of their title', async () => {
    const byCode = await provider.gql<{ diagnosisCodes: { code: string; title: string }[] }>(CODES, {
      search: 'f43.1',
    });
    expect(byCode.data!.diagnosisCodes.map((c) => c.code)).toEqual(expect.arrayContaining(['F43.10', 'F43.12']));
    const byWords = await provider.gql<{ diagnosisCodes: { code: string; title: string }[] }>(CODES, {
      search: 'major depressive recurrent severe',
    });
    expect(byWords.data!.diagnosisCodes.length).toBeGreaterThan(0);
    for (const c of byWords.data!.diagnosisCodes) expect(c.code.startsWith('F33')).toBe(true);
  });
});
