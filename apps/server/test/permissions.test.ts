/**
 * The permission matrix, walked from the shared table: every role x every action x the caller's own record and
 * another's, through the real GraphQL operations. What each cell expects is derived from ROLE_PERMISSIONS and
 * OWN_RECORDS, never written here, so changing a grant changes the expectations; declaring a permission without
 * a cell below fails the first test.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  addDays,
  APPOINTMENT_MESSAGES,
  CLINICAL_RECORD_MESSAGES,
  DEFAULT_PRACTICE_TIME_ZONE,
  DEMO_ACCOUNTS,
  todayIn,
  DEMO_PASSWORD,
  isValidNpi,
  ownershipField,
  PATIENT_MESSAGES,
  PORTAL_RECORD_MESSAGES,
  messageText,
  NOTE_MESSAGES,
  OUTCOME_MESSAGES,
  MEASURE_MESSAGES,
  PERMISSION_DENIED_MESSAGES,
  parsePermission,
  PERMISSIONS,
  ROLES,
  scopeOf,
  type MessageId,
  type Permission,
  type ResourceAction,
  type Role,
  VIDEO_MESSAGES,
  SECURE_MESSAGE_MESSAGES,
} from '@telehealth/shared';
import { randomUUID } from 'node:crypto';
import { auditEntries } from '../src/audit/audit.table.ts';
import { measures, safetyAlerts } from '../src/measures/measures.table.ts';
import { notes } from '../src/notes/notes.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { noteShares } from '../src/portal-records/portal-records.table.ts';
import { measuresEncrypted, notesEncrypted } from '../src/keys/encrypted-columns.ts';
import { insertConversation } from '../src/messages/messages.repository.ts';
import { insertDraft, lockPlanOfPatient, signVersion } from '../src/clinical-record/treatment-plans.repository.ts';
import { intakes } from '../src/intake/intake.table.ts';
import { insertIntake, markIntakeSubmitted } from '../src/intake/intake.repository.ts';
import { createTestApp, TestClient, type GraphQLResponse, type TestApp } from './helpers.ts';

/** own: the caller's own record; other: another's record; none: the action has no records to own. */
type Target = 'own' | 'other' | 'none';

interface Fixture {
  role: Role;
  client: TestClient;
  userId: string;
}

/** A cell's operations as one caller, against one target; `answers` says whether the call succeeded. */
interface Cell {
  /** The action acts on records that can be someone's own (both targets are walked), or on none. */
  perRecord: boolean;
  /** The own target is an existing record the caller owns (a role that owns none has no such target). */
  ownTargetIsExisting?: boolean;
  /** The message of a caller without the action, when not the table's default. */
  deniedMessage?: MessageId;
  /**
   * Runs the operation. Answers the response and, for a list, whether the target record was in it (a list
   * answers a caller out of reach with fewer records, not with an error).
   */
  run(caller: Fixture, target: Target): Promise<{ response: GraphQLResponse; listed?: boolean }>;
  /** How a record out of reach is answered: like a missing one, or refused. */
  outOfReach?: { code: 'NOT_FOUND' | 'FORBIDDEN'; message: string };
  /**
   * A record asked for by id by a role without the action is answered like one out of reach, not refused (issue
   * 24: a refusal would tell that the id exists, as for an administrator naming a clinical conversation).
   */
  deniedByIdAsMissing?: boolean;
}

const PATIENT_FIELDS = 'id firstName lastName owner';
const GET = `query ($id: ID!) { getPatient(id: $id) { ${PATIENT_FIELDS} } }`;
const LIST = `query ($filter: PatientFilterInput) { listPatients(limit: 100, filter: $filter) { items { id } nextToken } }`;
const COUNT = 'query ($filter: PatientFilterInput) { countPatients(filter: $filter) }';
const CREATE = `mutation ($input: CreatePatientInput!) { createPatient(input: $input) { ${PATIENT_FIELDS} } }`;
const UPDATE = `mutation ($input: UpdatePatientInput!) { updatePatient(input: $input) { ${PATIENT_FIELDS} } }`;
const DELETE = 'mutation ($input: DeletePatientInput!) { deletePatient(input: $input) { id } }';
const LIST_DOCTORS = '{ listDoctors(limit: 100) { items { id } nextToken } }';
const CREATE_DOCTOR = 'mutation ($input: CreateDoctorInput!) { createDoctor(input: $input) { id } }';
const LIST_REQUESTS = '{ listAccessRequests { items { id } nextToken } accessRequestCounts { new } }';
const OUTBOX = '{ listOutbox(limit: 5) { items { id } nextToken } }';
const STORED_TEXT_FINDINGS = '{ storedTextFindings(includeResolved: true) { id table field problem } }';
const PRACTICE_SETTINGS = '{ practiceSettings { values { practiceName } } }';
/** Every operation that manages another account: resend its invitation, reset its two-factor sign-in. */
const MANAGE_ACCOUNT =
  'mutation ($id: ID!) { sendInvitation(accountId: $id) { success } resetTwoFactor(accountId: $id) }';

let t: TestApp;
const callers = new Map<Role, Fixture>();
/** A provider that no caller is: whose records are "another's" for everyone. */
let otherProviderId: string;
/** That provider, signed in: writes the notes that are "another's". */
let otherProvider: TestClient;
/** An account without a password, to which an invitation can be sent again and again. */
let invitedAccountId: string;
let serial = 0;

const uniqueEmail = (label: string) => `${label}.${++serial}@matrix.example`;

/**
 * A fresh patient record for the target: the caller's own (its ownership field holds the caller's id), or
 * another provider's. A patient account has one linked record at a time, so that one is reused.
 */
async function patientRecord(caller: Fixture, target: 'own' | 'other'): Promise<{ id: string; email: string }> {
  const db = t.runtime.database.db;
  const field = target === 'own' ? ownershipField(caller.role, 'patient') : null;
  if (target === 'own' && !field) throw new Error(`${caller.role} owns no patient record`);
  if (field === 'accountId') {
    const [linked] = await db
      .select({ id: patients.id, email: patients.email })
      .from(patients)
      .where(and(eq(patients.accountId, caller.userId), isNull(patients.deletedAt)));
    if (linked) return linked;
  }
  const email = uniqueEmail(`patient-${caller.role}-${target}`);
  const [row] = await db
    .insert(patients)
    .values({
      firstName: 'Matrix',
      lastName: `Cell${serial}`,
      email,
      dateOfBirth: '1980-04-02',
      ownerId: field === 'ownerId' ? caller.userId : otherProviderId,
      accountId: field === 'accountId' ? caller.userId : null,
    })
    .returning({ id: patients.id, email: patients.email });
  return row!;
}

const record = (caller: Fixture, target: Target) => patientRecord(caller, target === 'own' ? 'own' : 'other');

const PATIENT_DOCUMENTS = 'query ($patientId: ID!) { patientPracticeDocuments(patientId: $patientId) { status } }';
const SIGN_DOCUMENT =
  'mutation ($input: SignPracticeDocumentInput!) { signPracticeDocument(input: $input) { status } }';
const RECORD_PAPER = 'mutation ($input: RecordPaperSignatureInput!) { recordPaperSignature(input: $input) { status } }';
const CREATE_DOCUMENT =
  'mutation ($input: CreatePracticeDocumentInput!) { createPracticeDocument(input: $input) { id currentVersion { id } } }';

/** A new custom document that asks for a signature (created by the demo administrator): its id and current version. */
async function freshDocument(): Promise<{ id: string; versionId: string }> {
  const response = await callers.get('admin')!.client.gql<{
    createPracticeDocument: { id: string; currentVersion: { id: string } };
  }>(CREATE_DOCUMENT, {
    input: {
      kind: 'custom',
      titleEn: `Matrix document ${++serial}`,
      bodyEn: 'Read and sign.',
      requiresSignature: true,
      active: true,
    },
  });
  const created = response.data!.createPracticeDocument;
  return { id: created.id, versionId: created.currentVersion.id };
}
const freshDocumentVersion = async () => (await freshDocument()).versionId;

const APPOINTMENT_GET = 'query ($id: ID!) { getAppointment(id: $id) { id } }';
const APPOINTMENT_LIST =
  'query ($filter: AppointmentFilterInput) { listAppointments(filter: $filter, limit: 100) { items { id } } }';
const SEE_NOW = 'mutation ($input: SeeNowInput!) { seeNow(input: $input) { id } }';
const APPOINTMENT_CREATE = 'mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { id } }';
const APPOINTMENT_STATUS =
  'mutation ($input: SetAppointmentStatusInput!) { setAppointmentStatus(input: $input) { id } }';
const VIDEO_VISIT = 'query ($appointmentId: ID!) { videoVisit(appointmentId: $appointmentId) { room role } }';
const AVAILABILITY = 'query ($providerId: ID!) { providerAvailability(providerId: $providerId) { providerId } }';
const NOTE_GET = 'query ($id: ID!) { getNote(id: $id) { id title } }';
const NOTE_HISTORY = 'query ($id: ID!) { noteHistory(id: $id) { versions { version } } }';
const NOTE_UPDATE = 'mutation ($input: UpdateNoteInput!) { updateNote(input: $input) { id } }';
const SAVE_TEMPLATE = 'mutation ($input: NoteTemplateInput!) { saveNoteTemplate(input: $input) { id } }';
const SEND_QUESTIONNAIRE = 'mutation ($input: SendQuestionnaireInput!) { sendQuestionnaire(input: $input) { id } }';
const QUESTIONNAIRE_RESULTS = 'query ($patientId: ID!) { questionnaireResults(patientId: $patientId) { id } }';
const SUBMIT_QUESTIONNAIRE =
  'mutation ($input: SubmitQuestionnaireInput!) { submitQuestionnaire(input: $input) { safetyAlert } }';
const ACKNOWLEDGE_ALERT =
  'mutation ($input: AcknowledgeSafetyAlertInput!) { acknowledgeSafetyAlert(input: $input) { id } }';

/** A GAD-7 of the patient, waiting or filled in (all answers 0), written straight to the table. */
async function questionnaireRecord(patientId: string, status: 'pending' | 'completed'): Promise<string> {
  const id = randomUUID();
  const completed =
    status === 'completed'
      ? {
          ...measuresEncrypted.seal(t.runtime.keyring, id, {
            answers: JSON.stringify({ items: [], difficulty: null }),
          }),
          total: 0,
          band: 'minimal',
          completedAt: new Date(),
        }
      : {};
  await t.runtime.database.db.insert(measures).values({ id, patientId, instrument: 'gad7', status, ...completed });
  return id;
}
let appointmentDay = 0;

/** A draft note for the target: written by the caller (a provider), or by another provider. */
async function noteRecord(caller: Fixture, target: Target): Promise<string> {
  const author = target === 'own' && caller.role === 'provider' ? caller.client : otherProvider;
  const response = await author.gql<{ createNote: { id: string } }>(
    'mutation ($input: CreateNoteInput!) { createNote(input: $input) { id } }',
    { input: { title: 'Matrix note', content: 'Cell' } },
  );
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.createNote.id;
}

const PATIENT_DIAGNOSES = 'query ($patientId: ID!) { patientDiagnoses(patientId: $patientId) { id } }';
const ADD_DIAGNOSIS = 'mutation ($input: AddDiagnosisInput!) { addDiagnosis(input: $input) { id } }';
const ACKNOWLEDGE_PLAN = 'mutation ($versionId: ID!) { acknowledgeTreatmentPlan(versionId: $versionId) { id } }';

/** A new signed version of the target patient's treatment plan (its latest, so the patient may acknowledge it). */
async function signedPlanVersion(caller: Fixture, target: Target): Promise<string> {
  const db = t.runtime.database.db;
  const patientId = (await record(caller, target)).id;
  return db.transaction(async (tx) => {
    const plan = await lockPlanOfPatient(tx, patientId, otherProviderId);
    const { id } = await insertDraft(
      tx,
      t.runtime.keyring,
      plan.id,
      {
        status: 'active',
        content: { problems: [], goals: [], interventions: ['Weekly therapy'] },
        targetDate: null,
        reviewDate: '2030-01-01',
      },
      otherProviderId,
    );
    await signVersion(tx, id, otherProviderId);
    return id;
  });
}
const SAVE_INTAKE = 'mutation ($input: SaveIntakeSectionInput!) { saveIntakeSection(input: $input) { id status } }';
const PATIENT_INTAKE = 'query ($patientId: ID!) { patientIntake(patientId: $patientId) { status } }';
const RETURN_INTAKE = 'mutation ($input: ReturnIntakeInput!) { returnIntake(input: $input) { status } }';
/** A submitted intake of the target's patient record (written by the repository: the patient did not fill it). */
async function submittedIntake(caller: Fixture, target: Target): Promise<string> {
  const db = t.runtime.database.db;
  const patientId = (await record(caller, target)).id;
  return db.transaction(async (tx) => {
    await tx.delete(intakes).where(eq(intakes.patientId, patientId));
    const id = await insertIntake(tx, t.runtime.keyring, {
      patientId,
      answers: { reason: { reason: 'Matrix' } },
      currentSection: 'reason',
    });
    await markIntakeSubmitted(tx, id);
    return id;
  });
}
const SHARE_NOTE = 'mutation ($noteId: ID!) { shareNote(noteId: $noteId) { sharedAt } }';
const SHARED_NOTE = 'query ($id: ID!) { sharedNote(id: $id) { id content } }';
const REQUEST_CORRECTION =
  'mutation ($input: RecordCorrectionInput!) { requestRecordCorrection(input: $input) { id status } }';
const RECORD_CORRECTIONS = 'query ($patientId: ID!) { recordCorrections(patientId: $patientId) { id } }';
const RECORD_ACCESS_LOG = 'query ($patientId: ID) { recordAccessLog(patientId: $patientId) { items { id } } }';

/** A patient record for the target: the caller's own where the role owns patient records, else another's. */
const recordOrOther = (caller: Fixture, target: Target) =>
  patientRecord(caller, target === 'own' && ownershipField(caller.role, 'patient') ? 'own' : 'other');

/**
 * A signed note about a patient, written straight to the table (a signature needs the author's password): by
 * the caller (a provider, about their own patient) for the own target, else by another provider about theirs.
 * With `share`, also shared with that patient.
 */
async function signedNoteRecord(caller: Fixture, target: Target, options: { share?: boolean } = {}) {
  const own = target === 'own' && caller.role === 'provider';
  const authorId = own ? caller.userId : otherProviderId;
  const patient = options.share
    ? await recordOrOther(caller, target)
    : await patientRecord(caller, own ? 'own' : 'other');
  const id = randomUUID();
  const db = t.runtime.database.db;
  await db.insert(notes).values({
    ...notesEncrypted.seal(t.runtime.keyring, id, { title: 'Matrix', content: 'Signed', tags: '[]' }),
    id,
    authorId,
    patientId: patient.id,
    searchTokens: [],
    searchKeyId: 'matrix',
    signedAt: new Date(),
    signedBy: authorId,
  });
  if (options.share) await db.insert(noteShares).values({ noteId: id, patientId: patient.id, sharedBy: authorId });
  return id;
}

/** A free date and time for a new appointment: one day after another, from a year ahead. */
function nextSlot(): { date: string; time: string; allowOutsideHours: true } {
  return {
    date: addDays(todayIn(DEFAULT_PRACTICE_TIME_ZONE), 365 + ++appointmentDay),
    time: '10:00',
    allowOutsideHours: true,
  };
}

/**
 * An appointment for the target: the caller's own (a provider's, or of a patient's own record) or another
 * provider's, booked by the administrator.
 */
async function appointmentRecord(caller: Fixture, target: Target): Promise<{ id: string; patientId: string }> {
  const own = target === 'own';
  const patient = await patientRecord(caller, own && ownershipField(caller.role, 'patient') ? 'own' : 'other');
  const providerId = own && caller.role === 'provider' ? caller.userId : otherProviderId;
  const response = await callers.get('admin')!.client.gql<{ createAppointment: { id: string } }>(APPOINTMENT_CREATE, {
    input: { patientId: patient.id, providerId, reason: 'Follow-up', ...nextSlot() },
  });
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return { id: response.data.createAppointment.id, patientId: patient.id };
}

const SAVE_FEE_ITEM = 'mutation ($input: FeeScheduleItemInput!) { saveFeeScheduleItem(input: $input) { id } }';
const UPDATE_PROVIDER_BILLING = `mutation ($providerId: ID!, $input: ProviderBillingInput!) {
  updateProviderBilling(providerId: $providerId, input: $input) { providerId npi } }`;

/** A valid NPI no other call of this file has used: nine digits from the serial, then their check digit. */
function matrixNpi(): string {
  const first = String(100_000_000 + ++serial);
  const check = [...'0123456789'].find((digit) => isValidNpi(`${first}${digit}`))!;
  return `${first}${check}`;
}

const CELLS: Record<ResourceAction, Cell> = {
  // The audit trail and API tokens (decision 034); the full matrix with tokens is in audit-trail.test.ts.
  'audit:read': {
    perRecord: false,
    run: async (caller) => ({
      response: await caller.client.gql('query { auditEntries(first: 1) { entries { id } nextCursor } }'),
    }),
  },
  'api-token:manage': {
    perRecord: false,
    run: async (caller) => ({ response: await caller.client.gql('query { apiTokens { id } }') }),
  },
  'patient:read': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    async run(caller, target) {
      const { id, email } = await record(caller, target);
      const filter = { search: email };
      const list = await caller.client.gql<{ listPatients: { items: { id: string }[] } }>(LIST, { filter });
      const count = await caller.client.gql<{ countPatients: number }>(COUNT, { filter });
      const listed = list.data?.listPatients.items.some((p) => p.id === id);
      // The list and the count agree with each other; getPatient is the cell's verdict.
      expect(count.data?.countPatients ?? null).toBe(list.data ? list.data.listPatients.items.length : null);
      if (!list.data) expect(list.errors?.[0]?.message).toBe(PATIENT_MESSAGES.cannotView);
      const response = await caller.client.gql(GET, { id });
      return { response, ...(list.data ? { listed: listed ?? false } : {}) };
    },
    deniedMessage: 'patientMessages.cannotViewOne',
  },
  'patient:create': {
    perRecord: true,
    outOfReach: { code: 'FORBIDDEN', message: PATIENT_MESSAGES.cannotAssign },
    run: async (caller, target) => ({
      // Own: naming no one, so the record is the caller's own (or nobody's, for a caller reaching every record).
      response: await caller.client.gql(CREATE, {
        input: {
          firstName: 'Matrix',
          lastName: 'Created',
          email: uniqueEmail('created'),
          dateOfBirth: '1979-09-30',
          ...(target === 'other' ? { owner: otherProviderId } : {}),
        },
      }),
    }),
  },
  'patient:update': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    async run(caller, target) {
      const { id } = await record(caller, target);
      return { response: await caller.client.gql(UPDATE, { input: { id, city: 'Salem' } }) };
    },
  },
  'patient:delete': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    async run(caller, target) {
      const { id } = await record(caller, target);
      return { response: await caller.client.gql(DELETE, { input: { id } }) };
    },
  },
  'provider:read': {
    perRecord: false,
    run: async (caller) => ({ response: await caller.client.gql(LIST_DOCTORS) }),
  },
  'provider:create': {
    perRecord: false,
    run: async (caller) => ({
      response: await caller.client.gql(CREATE_DOCTOR, {
        input: {
          firstName: 'Matrix',
          lastName: 'Doctor',
          email: uniqueEmail('doctor'),
          specialty: 'Psychiatry',
          sendInvitation: false,
        },
      }),
    }),
  },
  'access-request:review': {
    perRecord: false,
    run: async (caller) => ({ response: await caller.client.gql(LIST_REQUESTS) }),
  },
  'mail:read': {
    perRecord: false,
    run: async (caller) => ({ response: await caller.client.gql(OUTBOX) }),
  },
  'stored-text:review': {
    perRecord: false,
    run: async (caller) => ({ response: await caller.client.gql(STORED_TEXT_FINDINGS) }),
  },
  // The practice's documents (decision 066): the documents themselves, a patient's documents, a signature of a
  // fresh document's current version, a paper signature recorded.
  'practice-document:manage': {
    perRecord: false,
    run: async (caller) => ({ response: await caller.client.gql('{ practiceDocuments { id kind } }') }),
  },
  'practice-document:read': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(PATIENT_DOCUMENTS, { patientId: (await record(caller, target)).id }),
    }),
  },
  'practice-document:sign': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(SIGN_DOCUMENT, {
        input: {
          versionId: await freshDocumentVersion(),
          patientId: (await record(caller, target)).id,
          typedName: 'Matrix Cell',
          agreed: true,
        },
      }),
    }),
  },
  'practice-document:record-paper': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(RECORD_PAPER, {
        input: {
          patientId: (await record(caller, target)).id,
          documentId: (await freshDocument()).id,
          signedOn: '2026-01-05',
        },
      }),
    }),
  },
  'settings:manage': {
    perRecord: false,
    run: async (caller) => ({ response: await caller.client.gql(PRACTICE_SETTINGS) }),
  },
  'appointment:read': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: APPOINTMENT_MESSAGES.notFound },
    async run(caller, target) {
      const { id, patientId } = await appointmentRecord(caller, target);
      const list = await caller.client.gql<{ listAppointments: { items: { id: string }[] } }>(APPOINTMENT_LIST, {
        filter: { patientId },
      });
      if (!list.data) expect(list.errors?.[0]?.message).toBe(APPOINTMENT_MESSAGES.cannotView);
      const response = await caller.client.gql(APPOINTMENT_GET, { id });
      return {
        response,
        ...(list.data ? { listed: list.data.listAppointments.items.some((a) => a.id === id) } : {}),
      };
    },
  },
  'appointment:create': {
    perRecord: true,
    outOfReach: { code: 'FORBIDDEN', message: APPOINTMENT_MESSAGES.cannotCreate },
    async run(caller, target) {
      // Own: a provider books for themselves and their own patient; anyone else names another provider.
      const own = target === 'own' && caller.role === 'provider';
      const patient = await patientRecord(caller, own ? 'own' : 'other');
      return {
        response: await caller.client.gql(APPOINTMENT_CREATE, {
          input: {
            patientId: patient.id,
            providerId: own ? caller.userId : otherProviderId,
            reason: 'Follow-up',
            ...nextSlot(),
          },
        }),
      };
    },
  },
  'appointment:update': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: APPOINTMENT_MESSAGES.notFound },
    async run(caller, target) {
      const { id } = await appointmentRecord(caller, target);
      return { response: await caller.client.gql(APPOINTMENT_STATUS, { input: { id, status: 'confirmed' } }) };
    },
  },
  'availability:manage': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'FORBIDDEN', message: APPOINTMENT_MESSAGES.cannotManageAvailability },
    run: async (caller, target) => ({
      response: await caller.client.gql(AVAILABILITY, {
        providerId: target === 'own' ? caller.userId : otherProviderId,
      }),
    }),
  },
  'visit:join': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: VIDEO_MESSAGES.notFound },
    async run(caller, target) {
      const { id } = await appointmentRecord(caller, target);
      return { response: await caller.client.gql(VIDEO_VISIT, { appointmentId: id }) };
    },
  },
  'visit:start': {
    perRecord: true,
    // A patient out of reach is answered like a missing one (the visit would be with that patient).
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    async run(caller, target) {
      const own = target === 'own' && caller.role === 'provider';
      const patient = await patientRecord(caller, own ? 'own' : 'other');
      return { response: await caller.client.gql(SEE_NOW, { input: { patientId: patient.id } }) };
    },
  },
  'note:read': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: NOTE_MESSAGES.notFound },
    // The content of a note, with its signed versions: what only note:read gives.
    run: async (caller, target) => ({
      response: await caller.client.gql(NOTE_HISTORY, { id: await noteRecord(caller, target) }),
    }),
  },
  'note:index': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: NOTE_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(NOTE_GET, { id: await noteRecord(caller, target) }),
    }),
  },
  'note:write': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: NOTE_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(NOTE_UPDATE, {
        input: { id: await noteRecord(caller, target), title: 'Matrix', content: 'Changed' },
      }),
    }),
  },
  'note-template:manage': {
    perRecord: false,
    run: async (caller) => ({
      response: await caller.client.gql(SAVE_TEMPLATE, { input: { name: `Matrix ${++serial}`, body: '## Part' } }),
    }),
  },
  'measure:send': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(SEND_QUESTIONNAIRE, {
        input: { patientId: (await record(caller, target)).id, instrument: 'gad7' },
      }),
    }),
  },
  'measure:read': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    async run(caller, target) {
      const patient = await record(caller, target);
      const measureId = await questionnaireRecord(patient.id, 'completed');
      const response = await caller.client.gql<{ questionnaireResults: { id: string }[] }>(QUESTIONNAIRE_RESULTS, {
        patientId: patient.id,
      });
      const listed = response.data ? response.data.questionnaireResults.some((m) => m.id === measureId) : undefined;
      return { response, ...(listed === undefined ? {} : { listed }) };
    },
  },
  'measure:respond': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: MEASURE_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(SUBMIT_QUESTIONNAIRE, {
        input: {
          id: await questionnaireRecord((await record(caller, target)).id, 'pending'),
          answers: [0, 0, 0, 0, 0, 0, 0],
        },
      }),
    }),
  },
  'alert:acknowledge': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: MEASURE_MESSAGES.alertNotFound },
    async run(caller, target) {
      const patientId = (await record(caller, target)).id;
      const measureId = await questionnaireRecord(patientId, 'completed');
      const alertId = randomUUID();
      await t.runtime.database.db.insert(safetyAlerts).values({ id: alertId, patientId, measureId });
      return {
        response: await caller.client.gql(ACKNOWLEDGE_ALERT, { input: { id: alertId, note: 'Called the patient.' } }),
      };
    },
  },
  'clinical-record:read': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(PATIENT_DIAGNOSES, { patientId: (await record(caller, target)).id }),
    }),
  },
  'clinical-record:write': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(ADD_DIAGNOSIS, {
        input: { patientId: (await record(caller, target)).id, code: 'F41.1', status: 'active' },
      }),
    }),
  },
  // Getting paid (decision 073): a patient's ledger, read by their primary provider, the patient and the
  // administrators; written (here an adjustment) by the primary provider and the administrators.
  'billing:read': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(
        'query ($patientId: ID!) { patientLedger(patientId: $patientId) { balanceCents } }',
        {
          patientId: (await record(caller, target)).id,
        },
      ),
    }),
  },
  'billing:write': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(
        'mutation ($input: AdjustmentInput!) { recordAdjustment(input: $input) { id } }',
        {
          input: {
            patientId: (await record(caller, target)).id,
            amountCents: 100,
            direction: 'increase',
            reason: 'Matrix cell',
          },
        },
      ),
    }),
  },
  'treatment-plan:acknowledge': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: CLINICAL_RECORD_MESSAGES.treatmentPlanNotFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(ACKNOWLEDGE_PLAN, { versionId: await signedPlanVersion(caller, target) }),
    }),
  },
  // Before the first visit (decision 068): a patient's own checklist; the readiness of a provider's own patients.
  'first-visit:read': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(
        'query ($patientId: ID) { myFirstVisitChecklist(patientId: $patientId) { kind } }',
        {
          patientId: (await record(caller, target)).id,
        },
      ),
    }),
  },
  'readiness:read': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(
        'query ($ids: [ID!]!) { patientReadiness(patientIds: $ids) { patientId intakeBadge consentMissing } }',
        { ids: [(await record(caller, target)).id] },
      ),
    }),
  },
  'intake:fill': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => {
      const patientId = (await record(caller, target)).id;
      await t.runtime.database.db.delete(intakes).where(eq(intakes.patientId, patientId));
      return {
        response: await caller.client.gql(SAVE_INTAKE, {
          input: { patientId, section: 'reason', answers: JSON.stringify({ reason: 'Matrix reason' }) },
        }),
      };
    },
  },
  'intake:read': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(PATIENT_INTAKE, { patientId: (await record(caller, target)).id }),
    }),
  },
  'intake:review': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: messageText('intakeMessages.notFound') },
    run: async (caller, target) => ({
      response: await caller.client.gql(RETURN_INTAKE, {
        input: { intakeId: await submittedIntake(caller, target), reason: 'Please complete the medications' },
      }),
    }),
  },
  'note:share': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: NOTE_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(SHARE_NOTE, { noteId: await signedNoteRecord(caller, target) }),
    }),
  },
  'shared-note:read': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PORTAL_RECORD_MESSAGES.sharedNoteNotFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(SHARED_NOTE, { id: await signedNoteRecord(caller, target, { share: true }) }),
    }),
  },
  'correction:request': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(REQUEST_CORRECTION, {
        input: { patientId: (await record(caller, target)).id, field: 'contact', request: 'My street is Elm.' },
      }),
    }),
  },
  'correction:review': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(RECORD_CORRECTIONS, { patientId: (await record(caller, target)).id }),
    }),
  },
  'record-access:read': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: PATIENT_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(RECORD_ACCESS_LOG, { patientId: (await record(caller, target)).id }),
    }),
  },
  // Setting up billing (decision 073): the fee schedule is the practice's; a provider keeps their own billing
  // identity, an administrator anyone's.
  'fee-schedule:manage': {
    perRecord: false,
    run: async (caller) => ({
      response: await caller.client.gql(SAVE_FEE_ITEM, {
        input: {
          code: `G${String(1000 + (++serial % 9000))}`,
          shortName: 'Matrix service',
          feeCents: 5000,
          addOn: false,
          active: true,
        },
      }),
    }),
  },
  'provider-billing:manage': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: APPOINTMENT_MESSAGES.providerNotFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(UPDATE_PROVIDER_BILLING, {
        providerId: target === 'own' ? caller.userId : otherProviderId,
        input: { npi: matrixNpi(), taxonomyCode: '2084P0800X', licenseState: 'NY', licenseNumber: 'MD-1' },
      }),
    }),
  },
  'user:manage': {
    perRecord: false,
    run: async (caller) => ({ response: await caller.client.gql(MANAGE_ACCOUNT, { id: invitedAccountId }) }),
  },
  // Own is the patient's own provider; another's, any other provider.
  'appointment:book': {
    perRecord: true,
    outOfReach: { code: 'FORBIDDEN', message: APPOINTMENT_MESSAGES.cannotCreate },
    async run(caller, target) {
      const patient = caller.role === 'patient' ? await patientRecord(caller, 'own') : null;
      const [linked] = patient
        ? await t.runtime.database.db
            .select({ ownerId: patients.ownerId })
            .from(patients)
            .where(eq(patients.id, patient.id))
        : [];
      const notOwn = linked?.ownerId === otherProviderId ? callers.get('provider')!.userId : otherProviderId;
      const slot = await bookableSlot(caller);
      return {
        response: await caller.client.gql(BOOK, {
          input: {
            appointmentType: 'video',
            reason: 'Follow-up',
            ...slot,
            ...(target === 'other' ? { providerId: notOwn } : {}),
          },
        }),
      };
    },
  },
  'appointment:manage': {
    perRecord: true,
    ownTargetIsExisting: true,
    outOfReach: { code: 'NOT_FOUND', message: APPOINTMENT_MESSAGES.notFound },
    async run(caller, target) {
      const { id } = await appointmentRecord(caller, target);
      return { response: await caller.client.gql(CONFIRM_MINE, { id }) };
    },
  },
  // A clinical conversation about the caller's own patient record or another's.
  'message:read': {
    perRecord: true,
    ownTargetIsExisting: true,
    deniedByIdAsMissing: true,
    outOfReach: { code: 'NOT_FOUND', message: SECURE_MESSAGE_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(CONVERSATION_GET, { id: await conversationRecord(caller, target, 'clinical') }),
    }),
  },
  'message:send': {
    perRecord: true,
    ownTargetIsExisting: true,
    deniedByIdAsMissing: true,
    outOfReach: { code: 'NOT_FOUND', message: SECURE_MESSAGE_MESSAGES.notFound },
    run: async (caller, target) => ({
      response: await caller.client.gql(MESSAGE_SEND, {
        input: { conversationId: await conversationRecord(caller, target, 'clinical'), body: 'Matrix message' },
      }),
    }),
  },
  // Issue 16, Data: what the FHIR export holds (the downloads are tested in data-export.test.ts); the backups.
  'data:export': {
    perRecord: false,
    run: async (caller) => ({ response: await caller.client.gql('{ fhirExportCounts { patients } }') }),
  },
  'backup:manage': {
    perRecord: false,
    run: async (caller) => ({ response: await caller.client.gql('{ backupRuns(limit: 1) { id status } }') }),
  },
  // Writing as the office: a new office conversation with a patient who is not the caller.
  'message:office': {
    perRecord: false,
    async run(caller) {
      // A patient with a portal account (any account will do; it is never signed in here), made once.
      officePatientId ??= (
        await t.runtime.database.db
          .insert(patients)
          .values({
            firstName: 'Matrix',
            lastName: 'Office',
            email: uniqueEmail('office'),
            dateOfBirth: '1980-04-02',
            ownerId: otherProviderId,
            accountId: invitedAccountId,
          })
          .returning({ id: patients.id })
      )[0]!.id;
      return {
        response: await caller.client.gql(CONVERSATION_START, {
          input: { patientId: officePatientId, kind: 'office', subject: 'Billing', body: 'About your invoice.' },
        }),
      };
    },
  },
  'report:read': {
    perRecord: false,
    run: async (caller) => ({ response: await caller.client.gql(PRACTICE_REPORT, { input: REPORT_PERIOD }) }),
  },
  // Response and remission (decision 064): a provider's own patients' (naming no one, or themselves), or another
  // provider's patients (named), which only the roles reaching any patient's outcomes read.
  'outcome:read': {
    perRecord: true,
    outOfReach: { code: 'FORBIDDEN', message: OUTCOME_MESSAGES.cannotView },
    run: async (caller, target) => ({
      response: await caller.client.gql(PRACTICE_OUTCOMES, {
        input: {
          ...REPORT_PERIOD,
          instrument: 'phq9',
          ...(target === 'other' ? { providerId: otherProviderId } : {}),
        },
      }),
    }),
  },
  // Breaking the glass for another provider's patient (decision 036); reviewing the uses.
  'emergency-access:request': {
    perRecord: false,
    run: async (caller) => ({
      response: await caller.client.gql(REQUEST_EMERGENCY, {
        input: { patientId: (await patientRecord(caller, 'other')).id, reason: 'Matrix: the patient is in crisis now' },
      }),
    }),
  },
  'emergency-access:review': {
    perRecord: false,
    run: async (caller) => ({ response: await caller.client.gql(EMERGENCY_USES) }),
  },
  // The console's figures and the system's health (decision 038): both operations, one verdict.
  'system:monitor': {
    perRecord: false,
    run: async (caller) => ({
      response: await caller.client.gql('{ adminConsoleStats { activePatients } systemHealth { overall } }'),
    }),
  },
};

const PRACTICE_REPORT = 'query ($input: ReportPeriodInput!) { practiceReport(input: $input) { appointmentsTotal } }';
const REPORT_PERIOD = { startDate: '2026-01-01', endDate: '2026-01-31' };
const PRACTICE_OUTCOMES =
  'query ($input: PracticeOutcomesInput!) { practiceOutcomes(input: $input) { patients byProvider { key } } }';

const REQUEST_EMERGENCY =
  'mutation ($input: RequestEmergencyAccessInput!) { requestEmergencyAccess(input: $input) { id endsAt } }';
const EMERGENCY_USES =
  '{ emergencyAccessAwaitingReview emergencyAccessUses(filter: "all", limit: 5) { items { id } nextToken } }';
const BOOK = 'mutation ($input: BookAppointmentInput!) { bookAppointment(input: $input) { id } }';
const CONFIRM_MINE = 'mutation ($id: ID!) { confirmMyAppointment(id: $id) { id } }';

/** A time the patient may book with their own provider (two weeks ahead, a free one); any time for others. */
async function bookableSlot(caller: Fixture): Promise<{ date: string; time: string }> {
  let date = addDays(todayIn(DEFAULT_PRACTICE_TIME_ZONE), 14);
  if (caller.role !== 'patient') return { date, time: '10:00' };
  for (let tries = 0; tries < 30; tries++, date = addDays(date, 1)) {
    const slots = await caller.client.gql<{ myAvailableSlots: { time: string; available: boolean }[] }>(
      'query ($date: String!) { myAvailableSlots(date: $date) { time available } }',
      { date },
    );
    const free = slots.data?.myAvailableSlots.find((s) => s.available);
    if (free) return { date, time: free.time };
  }
  throw new Error('no bookable time in a month');
}

let officePatientId: string | undefined;
const CONVERSATION_GET = 'query ($id: ID!) { conversation(id: $id) { id subject } }';
const MESSAGE_SEND = 'mutation ($input: SendMessageInput!) { sendMessage(input: $input) { id } }';
const CONVERSATION_START = 'mutation ($input: StartConversationInput!) { startConversation(input: $input) { id } }';

/** A conversation of this kind about the caller's own patient record, or another provider's patient. */
async function conversationRecord(caller: Fixture, target: Target, kind: 'clinical' | 'office'): Promise<string> {
  const patient = await record(caller, target);
  return insertConversation(t.runtime.database.db, t.runtime.keyring, {
    patientId: patient.id,
    kind,
    subject: 'Matrix conversation',
    createdBy: caller.userId,
    searchTokens: [],
    searchKeyId: 'matrix',
  });
}

/** What the table says about one cell. */
function expectedOutcome(role: Role, action: ResourceAction, target: Target): 'allowed' | 'denied' | 'out-of-reach' {
  const scope = scopeOf(role, action);
  if (!scope) return 'denied';
  if (scope === 'any' || target !== 'other') return 'allowed';
  return 'out-of-reach';
}

async function denialsOf(userId: string, since: number) {
  return t.runtime.database.db
    .select({ id: auditEntries.id, url: auditEntries.url, details: auditEntries.details })
    .from(auditEntries)
    .where(
      and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), eq(auditEntries.userId, userId), gt(auditEntries.id, since)),
    );
}

async function lastAuditId(): Promise<number> {
  const [row] = await t.runtime.database.db
    .select({ id: sql<number>`coalesce(max(${auditEntries.id}), 0)::int` })
    .from(auditEntries);
  return row?.id ?? 0;
}

beforeAll(async () => {
  t = await createTestApp();
  for (const role of ROLES) {
    const account = DEMO_ACCOUNTS.find((a) => a.role === role);
    if (!account) throw new Error(`no demo account for ${role}`);
    const client = new TestClient(t.app);
    const signedIn = await client.signIn(account.email, DEMO_PASSWORD);
    callers.set(role, { role, client, userId: signedIn.user!.userId });
  }
  otherProvider = new TestClient(t.app);
  otherProviderId = (await otherProvider.signIn('provider2@demo.test', DEMO_PASSWORD)).user!.userId;
  const admin = callers.get('admin')!.client;
  const invited = await admin.gql<{ createDoctor: { id: string } }>(CREATE_DOCTOR, {
    input: {
      firstName: 'Invited',
      lastName: 'Later',
      email: uniqueEmail('invited'),
      specialty: 'Psychology',
      sendInvitation: false,
    },
  });
  invitedAccountId = invited.data!.createDoctor.id;
});

describe('the permission matrix', () => {
  it('has a cell for every declared permission', () => {
    for (const permission of PERMISSIONS) {
      const { action, scope } = parsePermission(permission);
      const cell = (CELLS as Partial<Record<string, Cell>>)[action];
      expect(cell, `no test cell for ${permission}`).toBeDefined();
      if (scope === 'own') expect(cell?.perRecord, `${permission} needs an own-record cell`).toBe(true);
    }
  });

  for (const role of ROLES) {
    for (const action of Object.keys(CELLS) as ResourceAction[]) {
      const cell = CELLS[action];
      const targets: Target[] = cell.perRecord ? ['own', 'other'] : ['none'];
      for (const target of targets) {
        const denied = expectedOutcome(role, action, target);
        const expected =
          denied === 'denied' && cell.deniedByIdAsMissing && target === 'other' ? 'out-of-reach' : denied;
        it(`${role} ${action} on ${target === 'none' ? 'the resource' : `${target === 'own' ? 'its own' : "another's"} record`}: ${expected}`, async () => {
          const caller = callers.get(role)!;
          const resource = parsePermission(`${action}:any` as Permission).resource;
          // A role that owns no record of the resource has no own record: it reaches all of them or none.
          if (target === 'own' && cell.ownTargetIsExisting && !ownershipField(role, resource)) {
            expect(scopeOf(role, action)).not.toBe('own');
            return;
          }
          const since = await lastAuditId();
          const { response, listed } = await cell.run(caller, target);
          const denials = await denialsOf(caller.userId, since);
          if (expected === 'allowed') {
            expect(response.errors, JSON.stringify(response.errors)).toBeUndefined();
            expect(response.data).not.toBeNull();
            if (listed !== undefined) expect(listed).toBe(true);
            expect(denials).toEqual([]);
          } else if (expected === 'denied') {
            const messageId = cell.deniedMessage ?? PERMISSION_DENIED_MESSAGES[action];
            expect(response.data).toBeNull();
            expect(response.errors?.[0]).toMatchObject({
              message: messageText(messageId),
              extensions: { code: 'FORBIDDEN', messageId, params: {} },
            });
            expect(denials.length).toBeGreaterThanOrEqual(1);
            expect(denials.every((d) => d.url !== null)).toBe(true);
          } else {
            const answer = cell.outOfReach;
            if (!answer) throw new Error(`${action} has records but no out-of-reach answer`);
            if (listed !== undefined) expect(listed).toBe(false);
            expect(response.data).toBeNull();
            expect(response.errors?.[0]).toMatchObject({ message: answer.message, extensions: { code: answer.code } });
            expect(denials).toHaveLength(1);
            expect(denials[0]?.details).toMatchObject({ permission: `${action}:any` });
          }
        });
      }
    }
  }
});
