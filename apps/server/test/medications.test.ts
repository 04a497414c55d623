/**
 * The medication list (issue 27, decision 062) against the real server: a provider starts a medication (from the
 * catalogue, whose class and schedule are filled in, or typed), changes its dose as a dated event with a reason
 * (from a note, the note linked), holds, resumes and stops it; the class screen warns on two of one class and on
 * an MAOI with an SSRI; the patient reads their own; the free text is encrypted; every change is audited.
 */
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLINICAL_RECORD_MESSAGES, PATIENT_MESSAGES } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { medicationEvents, medications } from '../src/clinical-record/medications.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createNote } from './factories/notes.ts';
import { createPortalPatient } from './factories/patients.ts';
import { createTestApp, type GraphQLResponse, type TestApp, type TestClient } from './helpers.ts';

const DOSE = 'strength doseAmount doseUnit route frequency asNeeded asNeededReason';
const FIELDS = `id drugName brandName drugClass listed controlledSchedule form ${DOSE} quantity refills prescriber
  indicationId indicationCode status startDate lastChangeDate
  events { sequence kind effectiveDate ${DOSE} reason noteId recordedByName }`;
const LIST = `query ($patientId: ID!) { patientMedications(patientId: $patientId) {
  medications { ${FIELDS} } warnings { kind drugClass rule medicationIds } } }`;
const PRINT = `query ($patientId: ID!) { patientMedications(patientId: $patientId, forPrint: true) {
  medications { id } } }`;
const START = `mutation ($input: StartMedicationInput!) { startMedication(input: $input) { ${FIELDS} } }`;
const CHANGE = `mutation ($input: ChangeMedicationInput!) { changeMedication(input: $input) { ${FIELDS} } }`;
const ADD_DIAGNOSIS = 'mutation ($input: AddDiagnosisInput!) { addDiagnosis(input: $input) { id } }';

interface Medication {
  id: string;
  drugName: string;
  drugClass: string | null;
  listed: boolean;
  controlledSchedule: string | null;
  doseAmount: number;
  status: string;
  startDate: string;
  indicationCode: string | null;
  prescriber: string | null;
  events: {
    sequence: number;
    kind: string;
    effectiveDate: string;
    doseAmount: number | null;
    reason: string | null;
    noteId: string | null;
  }[];
}
interface Warning {
  kind: string;
  drugClass: string | null;
  rule: string | null;
  medicationIds: string[];
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

const SERTRALINE = {
  drugName: 'Sertraline',
  strength: '50 mg',
  form: 'tablet',
  doseAmount: 50,
  doseUnit: 'mg',
  route: 'oral',
  frequency: 'once-daily',
};

async function start(client: TestClient, input: Record<string, unknown>, id = patientId) {
  return client.gql<{ startMedication: Medication }>(START, { input: { patientId: id, ...input } });
}

async function change(client: TestClient, input: Record<string, unknown>) {
  return client.gql<{ changeMedication: Medication }>(CHANGE, { input });
}

async function list(client: TestClient, id = patientId) {
  return client.gql<{ patientMedications: { medications: Medication[]; warnings: Warning[] } }>(LIST, {
    patientId: id,
  });
}

async function events(event: string) {
  return t.runtime.database.db
    .select({ details: auditEntries.details })
    .from(auditEntries)
    .where(and(eq(auditEntries.event, event), sql`${auditEntries.details}->'patientIds' ? ${patientId}`));
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, provider2 } = await demoClients(t));
  ({ client: patient, patientId } = await createPortalPatient(t, provider, {
    record: { firstName: 'Milo', lastName: 'Doses', email: 'milo.doses@example.net', dateOfBirth: '1979-09-09' },
  }));
});

describe('the medication list', () => {
  let sertraline: Medication;

  it('starts a catalogue drug with its class and schedule filled in, its indication, encrypted names', async () => {
    const diagnosis = await provider.gql<{ addDiagnosis: { id: string } }>(ADD_DIAGNOSIS, {
      input: { patientId, code: 'F33.1', status: 'active' },
    });
    const started = await start(provider, {
      ...SERTRALINE,
      quantity: 30,
      refills: 2,
      prescriber: 'Dr. Maya Okafor',
      indicationId: diagnosis.data!.addDiagnosis.id,
      startDate: '2026-08-01',
      reason: 'Recurrent depression, moderate',
    });
    expect(started.errors).toBeUndefined();
    sertraline = started.data!.startMedication;
    expect(sertraline).toMatchObject({
      drugName: 'sertraline',
      drugClass: 'ssri',
      listed: true,
      controlledSchedule: null,
      doseAmount: 50,
      status: 'active',
      indicationCode: 'F33.1',
      prescriber: 'Dr. Maya Okafor',
    });
    expect(sertraline.events).toEqual([
      expect.objectContaining({ sequence: 1, kind: 'started', effectiveDate: '2026-08-01', doseAmount: 50 }),
    ]);
    const [row] = await t.runtime.database.db.select().from(medications).where(eq(medications.id, sertraline.id));
    expect(row!.drugName).toMatch(/^enc:/);
    expect(row!.prescriber).toMatch(/^enc:/);
    const [event] = await t.runtime.database.db
      .select()
      .from(medicationEvents)
      .where(eq(medicationEvents.medicationId, sertraline.id));
    expect(event!.reason).toMatch(/^enc:/);
    const [entry] = await events('MEDICATION_START');
    expect(JSON.stringify(entry!.details)).not.toMatch(/sertraline|depress/i);
  });

  it('fills the schedule of a controlled drug, and takes a typed drug with the class the provider chose', async () => {
    const clonazepam = await start(provider, {
      ...SERTRALINE,
      drugName: 'clonazepam',
      strength: '0.5 mg',
      doseAmount: 0.5,
    });
    expect(clonazepam.data!.startMedication).toMatchObject({ drugClass: 'benzodiazepine', controlledSchedule: 'IV' });
    const typed = await start(provider, {
      ...SERTRALINE,
      drugName: 'Zuclopenthixol',
      drugClass: 'antipsychotic-first-generation',
    });
    expect(typed.data!.startMedication).toMatchObject({ listed: false, drugClass: 'antipsychotic-first-generation' });
    await change(provider, { id: clonazepam.data!.startMedication.id, kind: 'stopped', reason: 'Tapered off' });
    await change(provider, { id: typed.data!.startMedication.id, kind: 'stopped', reason: 'Entered in error' });
  });

  it('changes the dose from a note as a new dated event with the note linked, and keeps the history', async () => {
    const noteId = await createNote(provider, { patientId, title: 'Medication management', content: 'Increase.' });
    const changed = await change(provider, {
      id: sertraline.id,
      kind: 'dose-changed',
      effectiveDate: '2026-09-01',
      reason: 'Partial response at 4 weeks',
      noteId,
      dose: { strength: '100 mg', doseAmount: 100, doseUnit: 'mg', route: 'oral', frequency: 'once-daily' },
    });
    expect(changed.errors).toBeUndefined();
    const after = changed.data!.changeMedication;
    expect(after.doseAmount).toBe(100);
    expect(after.events.map((e) => [e.sequence, e.kind, e.effectiveDate, e.doseAmount, e.noteId])).toEqual([
      [1, 'started', '2026-08-01', 50, null],
      [2, 'dose-changed', '2026-09-01', 100, noteId],
    ]);
    const entry = (await events('MEDICATION_CHANGE')).find(
      (e) => (e.details as { change?: string }).change === 'dose-changed',
    );
    expect(entry!.details).toMatchObject({ change: 'dose-changed', noteId, medicationId: sertraline.id });
  });

  it('holds, resumes and stops in order, refusing a change out of order or dated before the last one', async () => {
    const early = await change(provider, {
      id: sertraline.id,
      kind: 'held',
      effectiveDate: '2026-08-15',
      reason: 'Surgery',
    });
    expect(errorOf(early).fields).toEqual([
      {
        field: 'effectiveDate',
        messageId: 'clinicalRecordMessages.dateBeforeLastChange',
        params: { date: '2026-09-01' },
      },
    ]);
    expect(errorOf(await change(provider, { id: sertraline.id, kind: 'resumed', reason: 'x' })).message).toBe(
      CLINICAL_RECORD_MESSAGES.notHeld,
    );
    expect(
      (await change(provider, { id: sertraline.id, kind: 'held', effectiveDate: '2026-10-01', reason: 'Surgery' }))
        .data!.changeMedication.status,
    ).toBe('held');
    expect(errorOf(await change(provider, { id: sertraline.id, kind: 'held', reason: 'Again' })).message).toBe(
      CLINICAL_RECORD_MESSAGES.alreadyHeld,
    );
    expect(
      (await change(provider, { id: sertraline.id, kind: 'resumed', effectiveDate: '2026-10-08', reason: 'Recovered' }))
        .data!.changeMedication.status,
    ).toBe('active');
    const withoutReason = await change(provider, { id: sertraline.id, kind: 'stopped', reason: '' });
    expect(errorOf(withoutReason).fields?.[0]).toMatchObject({
      field: 'reason',
      messageId: 'clinicalRecordMessages.reasonRequired',
    });
    const withoutDose = await change(provider, { id: sertraline.id, kind: 'dose-changed', reason: 'More' });
    expect(errorOf(withoutDose).fields?.[0]).toMatchObject({ field: 'dose' });
    const rows = await t.runtime.database.db
      .select()
      .from(medicationEvents)
      .where(eq(medicationEvents.medicationId, sertraline.id));
    expect(rows).toHaveLength(4);
  });

  it('warns on two active drugs of one class and on an MAOI with an SSRI; a stopped drug counts no more', async () => {
    const escitalopram = (await start(provider, { ...SERTRALINE, drugName: 'escitalopram', doseAmount: 10 })).data!
      .startMedication;
    let warnings = (await list(provider)).data!.patientMedications.warnings;
    const sameClass = warnings.find((w) => w.kind === 'same-class');
    expect(sameClass).toMatchObject({ drugClass: 'ssri', rule: null });
    expect([...sameClass!.medicationIds].sort()).toEqual([sertraline.id, escitalopram.id].sort());
    const phenelzine = (await start(provider, { ...SERTRALINE, drugName: 'Nardil', doseAmount: 15 })).data!
      .startMedication;
    expect(phenelzine.drugName).toBe('phenelzine');
    warnings = (await list(provider)).data!.patientMedications.warnings;
    expect(warnings.find((w) => w.rule === 'maoi-serotonergic')?.medicationIds).toEqual(
      expect.arrayContaining([phenelzine.id, sertraline.id, escitalopram.id]),
    );
    await change(provider, { id: phenelzine.id, kind: 'stopped', reason: 'Warning heeded' });
    await change(provider, { id: escitalopram.id, kind: 'stopped', reason: 'Duplicate' });
    expect((await list(provider)).data!.patientMedications.warnings).toEqual([]);
    expect(errorOf(await change(provider, { id: escitalopram.id, kind: 'resumed', reason: 'x' })).message).toBe(
      CLINICAL_RECORD_MESSAGES.stoppedCannotChange,
    );
  });

  it("refuses an indication of another patient, a note not the caller's, a dose of 0 and an unknown unit", async () => {
    const other = await createPortalPatient(t, provider, {
      record: { firstName: 'Ola', lastName: 'Other', email: 'ola.other@example.net', dateOfBirth: '1990-01-01' },
    });
    const foreign = await provider.gql<{ addDiagnosis: { id: string } }>(ADD_DIAGNOSIS, {
      input: { patientId: other.patientId, code: 'F41.1', status: 'active' },
    });
    const wrongIndication = await start(provider, { ...SERTRALINE, indicationId: foreign.data!.addDiagnosis.id });
    expect(errorOf(wrongIndication).fields?.[0]).toMatchObject({ field: 'indicationId' });
    const otherNote = await createNote(provider, { patientId: other.patientId, title: 'Other', content: 'Other.' });
    const wrongNote = await start(provider, { ...SERTRALINE, noteId: otherNote });
    expect(errorOf(wrongNote).fields?.[0]).toMatchObject({
      field: 'noteId',
      messageId: 'clinicalRecordMessages.noteNotPatients',
    });
    expect(errorOf(await start(provider, { ...SERTRALINE, doseAmount: 0 })).fields?.[0]).toMatchObject({
      field: 'doseAmount',
    });
    expect(errorOf(await start(provider, { ...SERTRALINE, doseUnit: 'bucket' })).fields?.[0]).toMatchObject({
      field: 'doseUnit',
    });
  });

  it('lets the patient read their list but not change it; another provider and administrators reach nothing', async () => {
    const own = await list(patient);
    expect(own.errors).toBeUndefined();
    expect(own.data!.patientMedications.medications.map((m) => m.id)).toContain(sertraline.id);
    expect(errorOf(await start(patient, SERTRALINE)).message).toBe(CLINICAL_RECORD_MESSAGES.cannotWrite);
    // Read to be printed: recorded as the printing of health information.
    const printed = await patient.gql(PRINT, { patientId });
    expect(printed.errors).toBeUndefined();
    const [print] = await events('PHI_PRINT');
    expect(print!.details).toMatchObject({ part: 'medication-list', patientIds: [patientId] });
    expect(errorOf(await list(provider2))).toMatchObject({ code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound });
    const foreignChange = await change(provider2, { id: sertraline.id, kind: 'stopped', reason: 'Not mine' });
    expect(errorOf(foreignChange)).toMatchObject({
      code: 'NOT_FOUND',
      message: CLINICAL_RECORD_MESSAGES.medicationNotFound,
    });
    expect(errorOf(await list(admin))).toMatchObject({
      code: 'FORBIDDEN',
      message: CLINICAL_RECORD_MESSAGES.cannotView,
    });
    const denials = await events('UNAUTHORIZED_ACCESS');
    expect(denials.some((d) => JSON.stringify(d.details).includes(sertraline.id))).toBe(true);
  });
});
