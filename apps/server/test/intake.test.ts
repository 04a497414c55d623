/**
 * The intake packet (issue 28, decision 067) against the real server: the patient saves part of it, comes back
 * where they left off, and submits it; nothing reaches the record before their provider accepts it; acceptance
 * updates the details chosen, adds the reported medications and allergies as "reported by patient" (one already
 * listed is skipped, the clinician's entries untouched) and keeps the history, in one transaction, audited with ids
 * only; a provider sends one back with a reason; the practice's sections setting; bad input refused with nothing
 * written; the insurance card's photos uploaded and read only by those who may.
 */
import { buffer } from 'node:stream/consumers';
import { and, eq, gt, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTAKE_CARD_PHOTOS_PATH, PATIENT_MESSAGES } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { intakeCardPhotos, intakes } from '../src/intake/intake.table.ts';
import { measures } from '../src/measures/measures.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { demoClients } from './factories/accounts.ts';
import { dataOf } from './factories/graphql.ts';
import { myIntake, saveIntakeSection, submitIntake, submittedIntake, type IntakeData } from './factories/intake.ts';
import { createPortalPatient } from './factories/patients.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';
import { INTAKE_FIELDS } from './factories/intake.ts';

const PATIENT_INTAKE = `query ($patientId: ID!) { patientIntake(patientId: $patientId) { ${INTAKE_FIELDS} } }`;
const ACCEPT = `mutation ($input: AcceptIntakeInput!) { acceptIntake(input: $input) {
  intake { ${INTAKE_FIELDS} } fieldsUpdated medicationsAdded medicationsSkipped allergiesAdded allergiesSkipped } }`;
const RETURN = `mutation ($input: ReturnIntakeInput!) { returnIntake(input: $input) { ${INTAKE_FIELDS} } }`;
const MEDICATIONS = `query ($patientId: ID!) { patientMedications(patientId: $patientId) {
  medications { id drugName listed source reportedDose status doseAmount strength } } }`;
const ALLERGIES =
  'query ($patientId: ID!) { patientAllergies(patientId: $patientId) { id substance reaction severity source } }';
const START = 'mutation ($input: StartMedicationInput!) { startMedication(input: $input) { id } }';
const ADD_ALLERGY = 'mutation ($input: AddAllergyInput!) { addAllergy(input: $input) { id } }';
const SETTINGS = `mutation ($input: UpdatePracticeSettingsInput!) { updatePracticeSettings(input: $input) { values { intakeSections } } }`;
const RESET = 'mutation ($key: String!) { resetPracticeSetting(key: $key) { values { intakeSections } } }';
const BREAK_GLASS = 'mutation ($input: RequestEmergencyAccessInput!) { requestEmergencyAccess(input: $input) { id } }';
const REQUEST_QUESTIONNAIRES = 'mutation ($patientId: ID!) { requestIntakeQuestionnaires(patientId: $patientId) }';

interface Acceptance {
  intake: IntakeData;
  fieldsUpdated: string[];
  medicationsAdded: number;
  medicationsSkipped: string[];
  allergiesAdded: number;
  allergiesSkipped: string[];
}
interface MedicationData {
  id: string;
  drugName: string;
  listed: boolean;
  source: string;
  reportedDose: string | null;
  status: string;
  doseAmount: number | null;
  strength: string | null;
}

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-card')]);

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let patientId: string;

const db = () => t.runtime.database.db;

const errorOf = (response: GraphQLResponse) => ({
  code: response.errors?.[0]?.extensions?.code,
  messageId: (response.errors?.[0]?.extensions as { messageId?: string } | undefined)?.messageId,
  fields: (response.errors?.[0]?.extensions as { fields?: { field: string; messageId: string }[] } | undefined)?.fields,
});

const DETAILS = {
  firstName: 'Tom',
  lastName: 'Intaker',
  dateOfBirth: '1985-04-12',
  phone: '(212) 555-0142',
  street: '12 Elm Street',
  city: 'Springfield',
  state: 'NY',
  zipCode: '10001',
  emergencyContactName: 'Ana Intaker',
  emergencyContactPhone: '(212) 555-0199',
};

async function medicationsOf(id: string): Promise<MedicationData[]> {
  return dataOf(
    await provider.gql<{ patientMedications: { medications: MedicationData[] } }>(MEDICATIONS, { patientId: id }),
  ).patientMedications.medications;
}

async function allergiesOf(id: string) {
  return dataOf(
    await provider.gql<{ patientAllergies: { substance: string; source: string; reaction: string | null }[] }>(
      ALLERGIES,
      { patientId: id },
    ),
  ).patientAllergies;
}

async function lastAuditId(): Promise<number> {
  const [row] = await db()
    .select({ id: sql<number>`coalesce(max(${auditEntries.id}), 0)::int` })
    .from(auditEntries);
  return row!.id;
}

async function auditSince(since: number) {
  return db()
    .select({ event: auditEntries.event, details: auditEntries.details })
    .from(auditEntries)
    .where(gt(auditEntries.id, since));
}

function answersOf(intake: IntakeData): Record<string, unknown> {
  return JSON.parse(intake.answers) as Record<string, unknown>;
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, provider2 } = await demoClients(t));
  ({ client: patient, patientId } = await createPortalPatient(t, provider, {
    record: {
      firstName: 'Tomas',
      lastName: 'Intaker',
      email: 'tomas.intaker@example.net',
      dateOfBirth: '1985-04-12',
      street: '1 Old Road',
    },
  }));
});

afterAll(async () => {
  await admin.gql(RESET, { key: 'intakeSections' });
});

describe('filling in the intake', () => {
  it('starts not started, with the details of the record to begin from', async () => {
    const intake = await myIntake(patient);
    expect(intake).toMatchObject({ id: null, status: 'not-started', currentSection: 'details' });
    expect(intake.steps[0]).toBe('details');
    expect(intake.steps.at(-1)).toBe('questionnaires');
    expect(intake.recordDetails).toContainEqual({ field: 'firstName', value: 'Tomas' });
    expect(await t.runtime.services.intake.statusFor(patientId)).toBe('not-started');
  });

  it('saves part-way, encrypted, and comes back where the patient left off', async () => {
    dataOf(await saveIntakeSection(patient, patientId, 'details', DETAILS, 'insurance'));
    dataOf(
      await saveIntakeSection(
        patient,
        patientId,
        'insurance',
        { company: 'Acme Health', memberId: 'XZ1234567', groupNumber: 'G-77' },
        'pharmacy',
      ),
    );
    const resumed = await myIntake(patient);
    expect(resumed).toMatchObject({ status: 'in-progress', currentSection: 'pharmacy' });
    expect(answersOf(resumed)).toMatchObject({ details: DETAILS, insurance: { company: 'Acme Health' } });
    const [row] = await db().select().from(intakes).where(eq(intakes.patientId, patientId));
    expect(row!.answers).toMatch(/^enc:/);
    expect(row!.answers).not.toMatch(/Acme|Elm/);
    expect(await t.runtime.services.intake.statusFor(patientId)).toBe('in-progress');
  });

  it('refuses bad input with its field and writes nothing', async () => {
    const before = await db()
      .select({ answers: intakes.answers })
      .from(intakes)
      .where(eq(intakes.patientId, patientId));
    const refusals: [Parameters<typeof saveIntakeSection>[2], Record<string, unknown>, string, string][] = [
      [
        'medications',
        { medications: [{ name: ' ', dose: '50 mg' }] },
        'medications.0.name',
        'intakeMessages.medicationNameRequired',
      ],
      ['medications', { allergies: [{ substance: '' }] }, 'allergies.0.substance', 'intakeMessages.substanceRequired'],
      [
        'medications',
        { medications: Array.from({ length: 31 }, (_, i) => ({ name: `Drug ${i}` })) },
        'medications',
        'intakeMessages.tooManyItems',
      ],
      ['reason', { reason: 'Low mood\u0000' }, 'reason', 'fieldMessages.invalidCharacters'],
      ['pharmacy', { name: '<b>Corner</b>' }, 'name', 'fieldMessages.markup'],
      ['details', { ...DETAILS, firstName: '' }, 'firstName', ''],
    ];
    for (const [section, answers, field, messageId] of refusals) {
      const refused = errorOf(await saveIntakeSection(patient, patientId, section, answers));
      expect(refused.code, field).toBe('BAD_USER_INPUT');
      expect(refused.fields?.[0]?.field, field).toBe(field);
      if (messageId) expect(refused.fields?.[0]?.messageId).toBe(messageId);
    }
    const unknown = errorOf(
      await patient.gql('mutation ($input: SaveIntakeSectionInput!) { saveIntakeSection(input: $input) { id } }', {
        input: { patientId, section: 'horoscope', answers: '{}' },
      }),
    );
    expect(unknown.code).toBe('BAD_USER_INPUT');
    const after = await db().select({ answers: intakes.answers }).from(intakes).where(eq(intakes.patientId, patientId));
    expect(after).toEqual(before);
  });

  it("refuses another patient's intake like a missing patient", async () => {
    const other = await createPortalPatient(t, provider2);
    const refused = await saveIntakeSection(patient, other.patientId, 'reason', { reason: 'Not mine' });
    expect(refused.errors?.[0]?.message).toBe(PATIENT_MESSAGES.notFound);
    expect(await db().select().from(intakes).where(eq(intakes.patientId, other.patientId))).toEqual([]);
  });

  it('sends the baseline PHQ-9 and GAD-7 once, through the questionnaires', async () => {
    const sent = dataOf(
      await patient.gql<{ requestIntakeQuestionnaires: number }>(REQUEST_QUESTIONNAIRES, { patientId }),
    );
    expect(sent.requestIntakeQuestionnaires).toBe(2);
    const again = dataOf(
      await patient.gql<{ requestIntakeQuestionnaires: number }>(REQUEST_QUESTIONNAIRES, { patientId }),
    );
    expect(again.requestIntakeQuestionnaires).toBe(0);
    const rows = await db().select().from(measures).where(eq(measures.patientId, patientId));
    expect(rows.map((r) => r.instrument).sort()).toEqual(['gad7', 'phq9']);
  });
});

describe('the card photos', () => {
  async function upload(client: TestClient, side: string, bytes: Buffer) {
    return t.app.inject({
      method: 'POST',
      url: `${INTAKE_CARD_PHOTOS_PATH}/${side}`,
      headers: { cookie: client.cookie ?? '', 'content-type': 'image/png' },
      payload: bytes,
    });
  }
  async function download(client: TestClient, id: string) {
    return t.app.inject({
      method: 'GET',
      url: `${INTAKE_CARD_PHOTOS_PATH}/${id}`,
      headers: { cookie: client.cookie ?? '' },
    });
  }

  it('keeps a photo encrypted, refuses a file that is no image, and lets only those who may read it', async () => {
    const uploaded = await upload(patient, 'front', PNG);
    expect(uploaded.statusCode).toBe(201);
    const { id } = uploaded.json<{ id: string }>();
    const [row] = await db().select().from(intakeCardPhotos).where(eq(intakeCardPhotos.id, id));
    // The bytes are in the blob store (decision 070), sealed: none in the row.
    expect(row!.data).toBeNull();
    expect((await buffer(await t.runtime.blobStore.get(row!.blobKey!))).includes(Buffer.from('IHDR-card'))).toBe(false);

    expect((await upload(patient, 'front', Buffer.from('plain text, not an image'))).statusCode).toBe(400);
    expect((await upload(patient, 'middle', PNG)).statusCode).toBe(400);
    expect((await upload(provider, 'back', PNG)).statusCode).toBe(403);

    const byProvider = await download(provider, id);
    expect(byProvider.statusCode).toBe(200);
    expect(byProvider.rawPayload.equals(PNG)).toBe(true);
    expect(byProvider.headers['content-disposition']).toMatch(/^attachment/);
    expect((await download(patient, id)).statusCode).toBe(200);
    expect((await download(provider2, id)).statusCode).toBe(404);
    expect((await download(admin, id)).statusCode).toBe(403);

    const intake = await myIntake(patient);
    expect(intake.cardPhotos).toEqual([expect.objectContaining({ id, side: 'front', mediaType: 'image/png' })]);
  });
});

describe('submitting and accepting', () => {
  let sertralineId: string;
  let submitted: IntakeData;

  it('submits, and writes nothing to the record before acceptance', async () => {
    sertralineId = dataOf(
      await provider.gql<{ startMedication: { id: string } }>(START, {
        input: {
          patientId,
          drugName: 'Sertraline',
          strength: '50 mg',
          form: 'tablet',
          doseAmount: 50,
          doseUnit: 'mg',
          route: 'oral',
          frequency: 'once-daily',
        },
      }),
    ).startMedication.id;
    dataOf(await provider.gql(ADD_ALLERGY, { input: { patientId, substance: 'Latex', severity: 'moderate' } }));

    dataOf(
      await saveIntakeSection(patient, patientId, 'medications', {
        medications: [
          { name: 'sertraline', dose: '100 mg', frequency: 'daily' },
          { name: 'Lamotrigine', dose: '25 mg', frequency: 'twice a day' },
          { name: 'Fish oil', dose: '1 capsule', frequency: 'daily' },
        ],
        allergies: [
          { substance: 'Penicillin', reaction: 'Hives' },
          { substance: 'latex', reaction: 'Rash' },
        ],
      }),
    );
    dataOf(
      await saveIntakeSection(patient, patientId, 'psychiatricHistory', {
        diagnoses: 'Depression in 2015',
        hospitalisations: null,
        pastMedications: [{ name: 'Fluoxetine', response: 'Helped a little' }],
      }),
    );
    dataOf(await saveIntakeSection(patient, patientId, 'familyHistory', { history: 'Mother: bipolar disorder' }));
    submitted = dataOf(await submitIntake(patient, patientId)).submitIntake;
    expect(submitted.status).toBe('submitted');

    const refused = errorOf(await saveIntakeSection(patient, patientId, 'reason', { reason: 'More' }));
    expect(refused.messageId).toBe('intakeMessages.notEditable');

    const [record] = await db().select().from(patients).where(eq(patients.id, patientId));
    expect(record).toMatchObject({ firstName: 'Tomas', phone: null, street: '1 Old Road' });
    const medications = await medicationsOf(patientId);
    expect(medications.map((m) => m.source)).toEqual(['clinician']);
    expect((await allergiesOf(patientId)).map((a) => a.source)).toEqual(['clinician']);
    expect(await t.runtime.services.intake.statusFor(patientId)).toBe('submitted');
  });

  it('shows the provider what differs from the record, with the default: fill what is empty, keep what is there', async () => {
    const seen = dataOf(await provider.gql<{ patientIntake: IntakeData }>(PATIENT_INTAKE, { patientId })).patientIntake;
    expect(seen.status).toBe('submitted');
    const byField = Object.fromEntries(seen.detailChanges.map((c) => [c.field, c]));
    expect(byField['firstName']).toMatchObject({ current: 'Tomas', reported: 'Tom', defaultChoice: 'current' });
    expect(byField['phone']).toMatchObject({ current: null, defaultChoice: 'reported' });
    expect(byField['street']).toMatchObject({
      current: '1 Old Road',
      reported: '12 Elm Street',
      defaultChoice: 'current',
    });
    expect(byField['lastName']).toBeUndefined();
  });

  it('is not reached by another provider nor refused to read by an administrator', async () => {
    const other = await provider2.gql(PATIENT_INTAKE, { patientId });
    expect(other.errors?.[0]?.message).toBe(PATIENT_MESSAGES.notFound);
    const accepted = errorOf(await provider2.gql(ACCEPT, { input: { intakeId: submitted.id } }));
    expect(accepted).toMatchObject({ code: 'NOT_FOUND', messageId: 'intakeMessages.notFound' });
    expect(errorOf(await admin.gql(PATIENT_INTAKE, { patientId })).code).toBe('FORBIDDEN');
  });

  it('accepts in one transaction: the details chosen, the reported medications and allergies, the history', async () => {
    const since = await lastAuditId();
    const accepted = dataOf(
      await provider.gql<{ acceptIntake: Acceptance }>(ACCEPT, {
        input: { intakeId: submitted.id, choices: [{ field: 'street', choice: 'reported' }] },
      }),
    ).acceptIntake;
    expect(accepted.intake.status).toBe('accepted');
    expect(accepted.fieldsUpdated.sort()).toEqual(
      ['city', 'emergencyContactName', 'emergencyContactPhone', 'phone', 'state', 'street', 'zipCode'].sort(),
    );
    expect(accepted).toMatchObject({
      medicationsAdded: 2,
      medicationsSkipped: ['sertraline'],
      allergiesAdded: 1,
      allergiesSkipped: ['latex'],
    });

    const [record] = await db().select().from(patients).where(eq(patients.id, patientId));
    expect(record).toMatchObject({ firstName: 'Tomas', phone: '(212) 555-0142', street: '12 Elm Street' });

    const medications = await medicationsOf(patientId);
    const sertraline = medications.find((m) => m.id === sertralineId)!;
    expect(sertraline).toMatchObject({ source: 'clinician', doseAmount: 50, strength: '50 mg', status: 'active' });
    const reported = medications.filter((m) => m.source === 'patient');
    expect(reported.map((m) => [m.drugName, m.listed, m.reportedDose]).sort()).toEqual([
      ['Fish oil', false, '1 capsule, daily'],
      ['lamotrigine', true, '25 mg, twice a day'],
    ]);
    expect(reported.every((m) => m.doseAmount === null)).toBe(true);
    const allergies = await allergiesOf(patientId);
    expect(allergies.map((a) => [a.substance, a.source]).sort()).toEqual([
      ['Latex', 'clinician'],
      ['Penicillin', 'patient'],
    ]);

    const history = dataOf(
      await provider.gql<{ patientIntake: IntakeData }>(PATIENT_INTAKE, { patientId }),
    ).patientIntake;
    expect(answersOf(history)).toMatchObject({
      familyHistory: { history: 'Mother: bipolar disorder' },
      psychiatricHistory: { pastMedications: [{ name: 'Fluoxetine' }] },
    });

    const entries = await auditSince(since);
    const events = entries.map((e) => e.event);
    expect(events).toEqual(
      expect.arrayContaining(['PATIENT_UPDATE', 'MEDICATION_START', 'ALLERGY_ADD', 'INTAKE_ACCEPT']),
    );
    expect(events.filter((e) => e === 'MEDICATION_START')).toHaveLength(2);
    expect(JSON.stringify(entries)).not.toMatch(/Lamotrigine|lamotrigine|Fish|Penicillin|Elm|bipolar|555-0142/);
    expect(await t.runtime.services.intake.statusFor(patientId)).toBe('accepted');

    const again = errorOf(await provider.gql(ACCEPT, { input: { intakeId: submitted.id } }));
    expect(again.messageId).toBe('intakeMessages.alreadyAccepted');
  });
});

describe('emergency access', () => {
  it('opens the intake read only', async () => {
    const other = await createPortalPatient(t, provider);
    const intake = await submittedIntake(other.client, other.patientId, {
      details: { ...DETAILS, lastName: 'Crisis' },
    });
    const grant = await provider2.gql(BREAK_GLASS, {
      input: { patientId: other.patientId, reason: 'Patient in crisis, primary provider unreachable' },
    });
    expect(grant.errors).toBeUndefined();
    const read = await provider2.gql<{ patientIntake: IntakeData }>(PATIENT_INTAKE, { patientId: other.patientId });
    expect(read.data?.patientIntake.status).toBe('submitted');
    const [viewed] = await db()
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(
        and(eq(auditEntries.event, 'INTAKE_VIEW'), sql`${auditEntries.details}->'patientIds' ? ${other.patientId}`),
      )
      .orderBy(sql`${auditEntries.id} DESC`)
      .limit(1);
    expect(viewed!.details).toHaveProperty('emergencyAccessIds');
    const accepted = errorOf(await provider2.gql(ACCEPT, { input: { intakeId: intake.id } }));
    expect(accepted).toMatchObject({ code: 'NOT_FOUND', messageId: 'intakeMessages.notFound' });
  });
});

describe('sending an intake back', () => {
  it('returns it to the patient with the reason, who changes it and submits it again', async () => {
    const other = await createPortalPatient(t, provider);
    const intake = await submittedIntake(other.client, other.patientId, {
      details: { ...DETAILS, firstName: 'Nina', lastName: 'Returned' },
    });
    const before = await db().select().from(patients).where(eq(patients.id, other.patientId));
    const refused = errorOf(await provider.gql(RETURN, { input: { intakeId: intake.id, reason: ' ' } }));
    expect(refused.fields?.[0]?.messageId).toBe('intakeMessages.returnReasonRequired');
    const returned = dataOf(
      await provider.gql<{ returnIntake: IntakeData }>(RETURN, {
        input: { intakeId: intake.id, reason: 'Please complete the medications' },
      }),
    ).returnIntake;
    expect(returned.status).toBe('in-progress');
    const seen = await myIntake(other.client);
    expect(seen).toMatchObject({ status: 'in-progress', returnReason: 'Please complete the medications' });
    dataOf(
      await saveIntakeSection(other.client, other.patientId, 'medications', { medications: [{ name: 'Bupropion' }] }),
    );
    expect(dataOf(await submitIntake(other.client, other.patientId)).submitIntake.status).toBe('submitted');
    expect(await db().select().from(patients).where(eq(patients.id, other.patientId))).toEqual(before);
    const [row] = await db().select().from(intakes).where(eq(intakes.patientId, other.patientId));
    expect(row!.returnReason).toMatch(/^enc:/);
    const statuses = await t.runtime.services.intake.statusesFor([other.patientId, patientId, intake.patientId]);
    expect(statuses.get(other.patientId)).toBe('submitted');
    expect(statuses.get(patientId)).toBe('accepted');
  });

  it('refuses submitting without the details', async () => {
    const other = await createPortalPatient(t, provider);
    dataOf(await saveIntakeSection(other.client, other.patientId, 'reason', { reason: 'Sleep' }));
    expect(errorOf(await submitIntake(other.client, other.patientId)).messageId).toBe('intakeMessages.detailsMissing');
  });
});

describe("the practice's sections", () => {
  it('leaves out the sections an administrator turned off; the details stay', async () => {
    const set = dataOf(
      await admin.gql<{ updatePracticeSettings: { values: { intakeSections: string[] } } }>(SETTINGS, {
        input: { intakeSections: ['questionnaires', 'medications'] },
      }),
    );
    expect(set.updatePracticeSettings.values.intakeSections).toEqual(['medications', 'questionnaires']);
    const other = await createPortalPatient(t, provider);
    const intake = await myIntake(other.client);
    expect(intake.steps).toEqual(['details', 'medications', 'questionnaires']);
    const off = errorOf(await saveIntakeSection(other.client, other.patientId, 'pharmacy', { name: 'Corner' }));
    expect(off.fields?.[0]).toMatchObject({ field: 'section', messageId: 'intakeMessages.sectionOff' });
    const refused = errorOf(await admin.gql(SETTINGS, { input: { intakeSections: ['details'] } }));
    expect(refused.code).toBe('BAD_USER_INPUT');
    await admin.gql(RESET, { key: 'intakeSections' });
    expect((await myIntake(other.client)).steps).toContain('pharmacy');
    expect(
      await db()
        .select()
        .from(intakes)
        .where(and(eq(intakes.patientId, other.patientId))),
    ).toEqual([]);
  });
});
