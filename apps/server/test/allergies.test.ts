/**
 * The structured allergies (issue 27, decision 062) against the real server: a provider adds their own patient's
 * allergies (one active entry per substance, compared case-insensitively) and removes them, the removal kept with
 * who and when; the patient reads their own; another provider and the administrators do not; every read and change
 * is audited with ids only, the substance, reaction and reason encrypted.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLINICAL_RECORD_MESSAGES, PATIENT_MESSAGES } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { allergies } from '../src/clinical-record/allergies.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createPortalPatient } from './factories/patients.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

const FIELDS =
  'id patientId substance reaction severity category notedDate status createdByName createdAt removedByName removedAt removalReason';
const LIST = `query ($patientId: ID!) { patientAllergies(patientId: $patientId) { ${FIELDS} } }`;
const ADD = `mutation ($input: AddAllergyInput!) { addAllergy(input: $input) { ${FIELDS} } }`;
const REMOVE = `mutation ($input: RemoveAllergyInput!) { removeAllergy(input: $input) { ${FIELDS} } }`;

interface Allergy {
  id: string;
  substance: string;
  reaction: string | null;
  severity: string;
  category: string | null;
  notedDate: string | null;
  status: string;
  createdByName: string;
  removedByName: string | null;
  removedAt: string | null;
  removalReason: string | null;
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
  return client.gql<{ addAllergy: Allergy }>(ADD, { input: { patientId, severity: 'moderate', ...input } });
}

async function remove(client: TestClient, input: Record<string, unknown>) {
  return client.gql<{ removeAllergy: Allergy }>(REMOVE, { input });
}

async function list(client: TestClient, id = patientId) {
  return client.gql<{ patientAllergies: Allergy[] }>(LIST, { patientId: id });
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
    record: { firstName: 'Alma', lastName: 'Allergic', email: 'alma.allergic@example.net', dateOfBirth: '1979-05-06' },
  }));
});

describe('the structured allergies', () => {
  it('adds an allergy, its substance and reaction encrypted, audited with ids only', async () => {
    const added = await add(provider, {
      substance: '  Penicillin ',
      reaction: 'Hives',
      severity: 'severe',
      category: 'medication',
      notedDate: '2019-07-01',
    });
    expect(added.errors).toBeUndefined();
    expect(added.data!.addAllergy).toMatchObject({
      substance: 'Penicillin',
      reaction: 'Hives',
      severity: 'severe',
      category: 'medication',
      notedDate: '2019-07-01',
      status: 'active',
      removedByName: null,
      removedAt: null,
    });
    expect(added.data!.addAllergy.createdByName).not.toBe('');
    const [row] = await t.runtime.database.db
      .select()
      .from(allergies)
      .where(eq(allergies.id, added.data!.addAllergy.id));
    expect(row!.substance).toMatch(/^enc:/);
    expect(row!.reaction).toMatch(/^enc:/);
    expect(row!.severity).toBe('severe');
    const [entry] = await eventsFor('ALLERGY_ADD', patientId);
    expect(entry!.details).toMatchObject({ allergyId: added.data!.addAllergy.id, patientIds: [patientId] });
    // The audit entry names ids, never the substance or the reaction.
    expect(JSON.stringify(entry!.details)).not.toMatch(/penicillin|hives/i);
  });

  it('refuses the same substance active twice (in any case), a blank substance, a future date and unknown options', async () => {
    const before = (await list(provider)).data!.patientAllergies.length;
    const refusals: [Record<string, unknown>, string, keyof typeof CLINICAL_RECORD_MESSAGES][] = [
      [{ substance: 'PENICILLIN' }, 'substance', 'allergyAlreadyListed'],
      [{ substance: '   ' }, 'substance', 'substanceRequired'],
      [{ substance: 'Latex', notedDate: '2999-01-01' }, 'notedDate', 'dateInFuture'],
      [{ substance: 'Latex', severity: 'deadly' }, 'severity', 'chooseSeverity'],
      [{ substance: 'Latex', category: 'animal' }, 'category', 'chooseCategory'],
    ];
    for (const [input, field, key] of refusals) {
      const refused = errorOf(await add(provider, input));
      expect(refused.code).toBe('BAD_USER_INPUT');
      expect(refused.message).toContain(CLINICAL_RECORD_MESSAGES[key]);
      expect(refused.fields).toEqual([{ field, messageId: `clinicalRecordMessages.${key}`, params: {} }]);
    }
    expect((await list(provider)).data!.patientAllergies).toHaveLength(before);
  });

  it('removes an allergy: kept, marked removed with who and when and why; then the substance may be added again', async () => {
    const peanuts = (await add(provider, { substance: 'Peanuts', severity: 'mild', category: 'food' })).data!
      .addAllergy;
    const removed = await remove(provider, { id: peanuts.id, reason: 'Oral challenge passed' });
    expect(removed.errors).toBeUndefined();
    expect(removed.data!.removeAllergy).toMatchObject({
      id: peanuts.id,
      status: 'removed',
      removalReason: 'Oral challenge passed',
      removedByName: peanuts.createdByName,
    });
    expect(Date.parse(removed.data!.removeAllergy.removedAt!)).not.toBeNaN();
    const [row] = await t.runtime.database.db.select().from(allergies).where(eq(allergies.id, peanuts.id));
    expect(row!.removalReason).toMatch(/^enc:/);

    const again = errorOf(await remove(provider, { id: peanuts.id }));
    expect(again).toMatchObject({ code: 'BAD_USER_INPUT', message: CLINICAL_RECORD_MESSAGES.allergyAlreadyRemoved });

    const [entry] = await eventsFor('ALLERGY_REMOVE', patientId);
    expect(entry!.details).toMatchObject({ allergyId: peanuts.id, withReason: true });
    expect(JSON.stringify(entry!.details)).not.toMatch(/peanut|challenge/i);

    // A removed substance no longer blocks a new entry of it; the list shows active ones first.
    const readded = await add(provider, { substance: 'peanuts', severity: 'unknown' });
    expect(readded.errors).toBeUndefined();
    const listed = (await list(provider)).data!.patientAllergies;
    expect(listed.map((a) => a.status)).toEqual(['active', 'active', 'removed']);
    expect(listed[0]!.severity).toBe('severe');
    expect(listed.at(-1)!.id).toBe(peanuts.id);
  });

  it('lets the patient read their own list, audited, and not change it', async () => {
    const own = await list(patient);
    expect(own.errors).toBeUndefined();
    expect(own.data!.patientAllergies.map((a) => a.substance)).toContain('Penicillin');
    const views = (await eventsFor('CLINICAL_RECORD_VIEW', patientId)).filter(
      (e) => (e.details as { part?: string }).part === 'allergies',
    );
    expect(views.length).toBeGreaterThan(0);
    expect(JSON.stringify(views.map((v) => v.details))).not.toMatch(/penicillin/i);
    const written = await add(patient, { substance: 'Latex' });
    expect(errorOf(written)).toMatchObject({ code: 'FORBIDDEN', message: CLINICAL_RECORD_MESSAGES.cannotWrite });
  });

  it("answers another provider's patient like a missing one, and records the attempt", async () => {
    const deniedBefore = (await eventsFor('UNAUTHORIZED_ACCESS', patientId)).length;
    const read = await list(provider2);
    expect(errorOf(read)).toMatchObject({ code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound });
    const written = await add(provider2, { substance: 'Latex' });
    expect(errorOf(written)).toMatchObject({ code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound });
    const [entry] = (await list(provider)).data!.patientAllergies;
    const removed = await remove(provider2, { id: entry!.id });
    expect(errorOf(removed)).toMatchObject({ code: 'NOT_FOUND', message: CLINICAL_RECORD_MESSAGES.allergyNotFound });
    const denials = await eventsFor('UNAUTHORIZED_ACCESS', patientId);
    expect(denials.length - deniedBefore).toBe(3);
    expect(denials.some((d) => JSON.stringify(d.details).includes(entry!.id))).toBe(true);
    expect((await list(provider)).data!.patientAllergies[0]!.status).toBe('active');
    const missing = await remove(provider, { id: '00000000-0000-4000-8000-000000000000' });
    expect(errorOf(missing)).toMatchObject({ code: 'NOT_FOUND', message: CLINICAL_RECORD_MESSAGES.allergyNotFound });
  });

  it('shows administrators no allergies and lets them change none', async () => {
    const read = await list(admin);
    expect(errorOf(read)).toMatchObject({ code: 'FORBIDDEN', message: CLINICAL_RECORD_MESSAGES.cannotView });
    expect(errorOf(await add(admin, { substance: 'Latex' })).code).toBe('FORBIDDEN');
  });
});
