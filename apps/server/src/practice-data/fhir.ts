import { createHash } from 'node:crypto';
import type {
  AllergyIntolerance,
  Appointment,
  CarePlan,
  CarePlanActivity,
  CodeableConcept,
  Condition,
  Dosage,
  DocumentReference,
  Goal,
  MedicationStatement,
  Observation,
  ObservationComponent,
  Patient,
  Practitioner,
  TimingRepeat,
} from '@medplum/fhirtypes';
import {
  formatSig,
  INSTRUMENT_DEFINITIONS,
  itemIdOf,
  optionsOf,
  type AllergyCategory,
  type AllergySeverity,
  type AllergyStatus,
  type DiagnosisStatus,
  type DoseUnit,
  type Frequency,
  type Instrument,
  type MedicationDose,
  type MedicationStatus,
  type Route,
  type StoredAnswer,
  type TreatmentGoal,
  type TreatmentPlanProblem,
  type TreatmentPlanStatus,
} from '@telehealth/shared';
import type { appointments } from '../appointments/appointments.table.ts';
import type { allergies } from '../clinical-record/allergies.table.ts';
import type { diagnoses } from '../clinical-record/diagnoses.table.ts';
import type { medications } from '../clinical-record/medications.table.ts';
import type { treatmentPlanVersions } from '../clinical-record/treatment-plans.table.ts';
import type { measures } from '../measures/measures.table.ts';
import type { notes } from '../notes/notes.table.ts';
import type { PatientRow } from '../patients/patients.repository.ts';
import type { providers } from '../providers/providers.table.ts';

// The practice's records as FHIR R4 resources (decision 037), with the types of @medplum/fhirtypes. References
// are relative (`Patient/<id>`), as the Bulk Data format has them; the one-patient Bundle turns them into the
// `urn:uuid:` of its entries. Checked against the R4 JSON schema in the tests (data-export.test.ts).

export const FHIR_RESOURCE_TYPES = [
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
] as const;
export type FhirResourceType = (typeof FHIR_RESOURCE_TYPES)[number];

const LOINC = 'http://loinc.org';
const EMAIL = 'email';

type ProviderRow = typeof providers.$inferSelect;
type AppointmentRow = typeof appointments.$inferSelect;
type MeasureRow = typeof measures.$inferSelect;
type NoteRow = typeof notes.$inferSelect;
type DiagnosisRow = typeof diagnoses.$inferSelect;
type MedicationRow = typeof medications.$inferSelect;
type AllergyRow = typeof allergies.$inferSelect;
type TreatmentPlanVersionRow = typeof treatmentPlanVersions.$inferSelect;

/** Drops empty strings, nulls and empty arrays, which FHIR does not allow. */
function clean<T>(value: T): T {
  if (Array.isArray(value)) {
    return value.map(clean).filter((v) => v !== undefined) as T;
  }
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value as Record<string, unknown>)) {
      const cleaned = clean<unknown>(inner);
      if (cleaned === null || cleaned === undefined || cleaned === '') continue;
      if (Array.isArray(cleaned) && cleaned.length === 0) continue;
      if (typeof cleaned === 'object' && !Array.isArray(cleaned) && Object.keys(cleaned).length === 0) continue;
      out[key] = cleaned;
    }
    return out as T;
  }
  return value;
}

const iso = (date: Date) => date.toISOString();

export function patientResource(row: PatientRow): Patient {
  return clean<Patient>({
    resourceType: 'Patient',
    id: row.id,
    meta: { lastUpdated: iso(row.updatedAt) },
    active: row.isActive,
    name: [{ use: 'official', family: row.lastName, given: [row.firstName] }],
    telecom: [
      { system: EMAIL, value: row.email },
      ...(row.phone ? [{ system: 'phone' as const, value: row.phone }] : []),
    ],
    birthDate: row.dateOfBirth,
    address:
      row.street || row.city || row.state || row.zipCode
        ? [
            {
              use: 'home',
              line: row.street ? [row.street] : [],
              city: row.city ?? undefined,
              state: row.state ?? undefined,
              postalCode: row.zipCode ?? undefined,
            },
          ]
        : [],
    contact: row.emergencyContactName
      ? [
          {
            relationship: [
              { coding: [{ system: 'http://terminology.hl7.org/CodeSystem/v2-0131', code: 'C' }], text: 'Emergency' },
            ],
            name: { text: row.emergencyContactName },
            telecom: row.emergencyContactPhone ? [{ system: 'phone', value: row.emergencyContactPhone }] : [],
          },
        ]
      : [],
    generalPractitioner: row.ownerId ? [{ reference: `Practitioner/${row.ownerId}` }] : [],
  });
}

export function practitionerResource(row: ProviderRow): Practitioner {
  return clean<Practitioner>({
    resourceType: 'Practitioner',
    id: row.id,
    meta: { lastUpdated: iso(row.updatedAt) },
    active: row.isActive,
    name: [{ use: 'official', family: row.lastName, given: [row.firstName] }],
    telecom: [
      { system: EMAIL, value: row.email },
      ...(row.phone ? [{ system: 'phone' as const, value: row.phone }] : []),
    ],
    qualification: row.specialty ? [{ code: { text: row.specialty } }] : [],
  });
}

const APPOINTMENT_STATUS: Record<string, Appointment['status']> = {
  scheduled: 'booked',
  pending: 'pending',
  confirmed: 'booked',
  'checked-in': 'checked-in',
  'in-progress': 'arrived',
  completed: 'fulfilled',
  cancelled: 'cancelled',
  'no-show': 'noshow',
};

/** An appointment, with its reason, staff notes and cancellation reason decrypted (`texts`). */
export function appointmentResource(
  row: AppointmentRow,
  texts: { reason: string | null; notes: string | null; cancelReason: string | null },
): Appointment {
  return clean<Appointment>({
    resourceType: 'Appointment',
    id: row.id,
    meta: { lastUpdated: iso(row.updatedAt) },
    status: APPOINTMENT_STATUS[row.status] ?? 'booked',
    appointmentType: { text: row.appointmentType },
    priority: row.priority === 'urgent' ? 1 : row.priority === 'high' ? 3 : 5,
    reasonCode: texts.reason ? [{ text: texts.reason }] : [],
    comment: texts.notes ?? undefined,
    cancelationReason: texts.cancelReason ? { text: texts.cancelReason } : undefined,
    start: iso(row.startsAt),
    end: iso(row.endsAt),
    minutesDuration: row.duration,
    created: iso(row.createdAt),
    participant: [
      { actor: { reference: `Patient/${row.patientId}` }, status: 'accepted', required: 'required' },
      { actor: { reference: `Practitioner/${row.providerId}` }, status: 'accepted', required: 'required' },
    ],
  });
}

interface StoredAnswers {
  items: StoredAnswer[];
  difficulty: { loinc: string; value: number } | null;
}

/**
 * A completed questionnaire: the total score under its LOINC code (PHQ-9 44261-6, GAD-7 70274-6, PCL-5 101698-9,
 * AUDIT-C 75626-2), each answer a component, the panel (44249-1, 69737-5, 101697-1, 72109-2) as its category. An
 * item or answer without a verified LOINC code (the PCL-5's, decision 063) is named in words only: no code is made
 * up.
 */
export function observationResource(row: MeasureRow, answers: StoredAnswers | null): Observation {
  const definition = INSTRUMENT_DEFINITIONS[row.instrument as Instrument];
  const coding = (code: string | null, display: string) => (code ? [{ system: LOINC, code, display }] : []);
  const answer = (itemId: string, value: number): ObservationComponent => {
    const index = definition.items.findIndex((i) => i.id === itemId);
    const item = definition.items[index];
    const closing = !item && definition.difficulty?.loinc === itemId ? definition.difficulty : null;
    const question = item?.text.en ?? closing?.text.en ?? itemId;
    const options = item ? optionsOf(definition, index) : (closing?.options ?? []);
    const option = options.find((o) => o.value === value);
    return {
      code: { coding: coding(item ? item.loinc : closing ? closing.loinc : null, question), text: question },
      valueCodeableConcept: {
        coding: option ? coding(option.loinc, option.text.en) : [],
        text: option ? `${option.text.en} (${value})` : String(value),
      },
    };
  };
  return clean<Observation>({
    resourceType: 'Observation',
    id: row.id,
    status: 'final',
    category: [
      {
        coding: [
          { system: 'http://terminology.hl7.org/CodeSystem/observation-category', code: 'survey', display: 'Survey' },
        ],
      },
      { coding: [{ system: LOINC, code: definition.loinc, display: `${definition.name} panel` }] },
    ],
    code: {
      coding: [{ system: LOINC, code: definition.totalLoinc, display: `${definition.name} total score` }],
      text: `${definition.name} total score`,
    },
    subject: { reference: `Patient/${row.patientId}` },
    effectiveDateTime: row.completedAt ? iso(row.completedAt) : undefined,
    issued: row.completedAt ? iso(row.completedAt) : undefined,
    valueInteger: row.total ?? undefined,
    interpretation: row.band ? [{ text: row.band }] : [],
    component: [
      ...(answers?.items ?? []).map((a) => answer(itemIdOf(a), a.value)),
      ...(answers?.difficulty ? [answer(answers.difficulty.loinc, answers.difficulty.value)] : []),
    ],
  });
}

/** A signed note that is not a psychotherapy note, its text as a plain-text attachment. */
export function documentReferenceResource(row: NoteRow, texts: { title: string; content: string }): DocumentReference {
  return clean<DocumentReference>({
    resourceType: 'DocumentReference',
    id: row.id,
    meta: { lastUpdated: iso(row.updatedAt) },
    status: 'current',
    docStatus: 'final',
    type: { text: row.category },
    category: [{ text: 'clinical-note' }],
    subject: { reference: `Patient/${row.patientId!}` },
    date: iso(row.signedAt ?? row.updatedAt),
    author: [{ reference: `Practitioner/${row.authorId}` }],
    authenticator: row.signedBy ? { reference: `Practitioner/${row.signedBy}` } : undefined,
    description: texts.title,
    content: [
      {
        attachment: {
          contentType: 'text/plain; charset=utf-8',
          data: Buffer.from(texts.content, 'utf8').toString('base64'),
          title: texts.title,
          creation: iso(row.signedAt ?? row.createdAt),
        },
      },
    ],
    context: row.appointmentId ? { related: [{ reference: `Appointment/${row.appointmentId}` }] } : undefined,
  });
}

const TERMINOLOGY = 'http://terminology.hl7.org/CodeSystem';
const ICD10CM = 'http://hl7.org/fhir/sid/icd-10-cm';
const SNOMED = 'http://snomed.info/sct';
const UCUM = 'http://unitsofmeasure.org';

/** A CodeableConcept of one code of HL7's terminology (`condition-clinical`, ...), as R4 requires for statuses. */
const hl7Code = (codeSystem: string, code: string): CodeableConcept => ({
  coding: [{ system: `${TERMINOLOGY}/${codeSystem}`, code }],
});

const CONDITION_CLINICAL_STATUS: Record<DiagnosisStatus, string> = {
  active: 'active',
  'in-remission': 'remission',
  resolved: 'resolved',
  // A rule-out is still being worked up: active, its verification provisional.
  'rule-out': 'active',
};

/**
 * A problem-list entry (`row` opened: its title and comment readable), coded in ICD-10-CM. Whether it is the
 * primary diagnosis is not exported: R4 has no standard element or extension for it outside an Encounter.
 */
export function conditionResource(row: DiagnosisRow): Condition {
  const status = row.status as DiagnosisStatus;
  return clean<Condition>({
    resourceType: 'Condition',
    id: row.id,
    meta: { lastUpdated: iso(row.updatedAt) },
    clinicalStatus: hl7Code('condition-clinical', CONDITION_CLINICAL_STATUS[status]),
    verificationStatus: hl7Code('condition-ver-status', status === 'rule-out' ? 'provisional' : 'confirmed'),
    category: [
      {
        coding: [
          { system: `${TERMINOLOGY}/condition-category`, code: 'problem-list-item', display: 'Problem List Item' },
        ],
      },
    ],
    code: { coding: [{ system: ICD10CM, code: row.code, display: row.title }], text: row.title },
    subject: { reference: `Patient/${row.patientId}` },
    onsetDateTime: row.onsetDate ?? undefined,
    recordedDate: iso(row.createdAt),
    note: row.comment ? [{ text: row.comment }] : [],
  });
}

const MEDICATION_STATEMENT_STATUS: Record<MedicationStatus, MedicationStatement['status']> = {
  active: 'active',
  held: 'on-hold',
  stopped: 'stopped',
};

/** SNOMED CT's route of administration codes (R4's example value set); 'other' is left to the dosage's text. */
const ROUTE_CODES: Record<Route, { code: string; display: string } | null> = {
  oral: { code: '26643006', display: 'Oral route' },
  sublingual: { code: '37839007', display: 'Sublingual route' },
  buccal: { code: '54471007', display: 'Buccal route' },
  transdermal: { code: '45890007', display: 'Transdermal route' },
  intramuscular: { code: '78421000', display: 'Intramuscular route' },
  subcutaneous: { code: '34206005', display: 'Subcutaneous route' },
  intranasal: { code: '46713006', display: 'Nasal route' },
  other: null,
};

/** The measures' UCUM codes; the counted units (tablet, capsule, ...) stay plain text. */
const UCUM_UNITS: Partial<Record<DoseUnit, string>> = { mg: 'mg', mcg: 'ug', g: 'g', mL: 'mL' };

/** Each frequency as a Timing's repeat; 'as-directed' has none (the dosage's text says it). */
const FREQUENCY_TIMING: Record<Frequency, TimingRepeat | null> = {
  'once-daily': { frequency: 1, period: 1, periodUnit: 'd' },
  'twice-daily': { frequency: 2, period: 1, periodUnit: 'd' },
  'three-times-daily': { frequency: 3, period: 1, periodUnit: 'd' },
  'four-times-daily': { frequency: 4, period: 1, periodUnit: 'd' },
  'every-morning': { frequency: 1, period: 1, periodUnit: 'd', when: ['MORN'] },
  'at-bedtime': { frequency: 1, period: 1, periodUnit: 'd', when: ['HS'] },
  'every-other-day': { frequency: 1, period: 2, periodUnit: 'd' },
  'once-weekly': { frequency: 1, period: 1, periodUnit: 'wk' },
  'every-2-weeks': { frequency: 1, period: 2, periodUnit: 'wk' },
  'every-4-weeks': { frequency: 1, period: 4, periodUnit: 'wk' },
  'every-3-months': { frequency: 1, period: 3, periodUnit: 'mo' },
  'as-directed': null,
};

/** The current dose as a Dosage: the readable sig as its text, and the same dose structured. */
function dosageOf(dose: MedicationDose): Dosage {
  const route = ROUTE_CODES[dose.route];
  const timing = FREQUENCY_TIMING[dose.frequency];
  const ucum = UCUM_UNITS[dose.unit];
  const reason = dose.asNeededReason?.trim();
  return {
    text: formatSig(dose, 'en'),
    timing: timing ? { repeat: timing } : undefined,
    ...(dose.asNeeded && reason ? { asNeededCodeableConcept: { text: reason } } : { asNeededBoolean: dose.asNeeded }),
    route: route ? { coding: [{ system: SNOMED, ...route }] } : undefined,
    doseAndRate: [
      {
        doseQuantity: {
          value: dose.amount,
          unit: dose.unit,
          ...(ucum ? { system: UCUM, code: ucum } : {}),
        },
      },
    ],
  };
}

/**
 * A medication as the patient takes it now (`row` opened: its names and as-needed reason readable). The drug is
 * named by text only: the catalogue holds no RxNorm codes. Its history (medication_events) is not exported: the
 * statement carries the current dose, the start and, once stopped, the stop date.
 */
export function medicationStatementResource(row: MedicationRow): MedicationStatement {
  const dose: MedicationDose | null =
    row.doseAmount !== null && row.doseUnit && row.route && row.frequency && row.asNeeded !== null
      ? {
          amount: row.doseAmount,
          unit: row.doseUnit as DoseUnit,
          route: row.route as Route,
          frequency: row.frequency as Frequency,
          asNeeded: row.asNeeded,
          asNeededReason: row.asNeededReason,
        }
      : null;
  return clean<MedicationStatement>({
    resourceType: 'MedicationStatement',
    id: row.id,
    meta: { lastUpdated: iso(row.updatedAt) },
    status: MEDICATION_STATEMENT_STATUS[row.status as MedicationStatus],
    medicationCodeableConcept: { text: row.drugName },
    subject: { reference: `Patient/${row.patientId}` },
    effectivePeriod: {
      start: row.startDate,
      end: row.status === 'stopped' ? row.lastChangeDate : undefined,
    },
    dateAsserted: iso(row.updatedAt),
    reasonReference: row.indicationId ? [{ reference: `Condition/${row.indicationId}` }] : [],
    dosage: dose ? [dosageOf(dose)] : [],
  });
}

const ALLERGY_CATEGORY: Record<AllergyCategory, 'medication' | 'food' | 'environment' | null> = {
  medication: 'medication',
  food: 'food',
  environment: 'environment',
  other: null,
};

const ALLERGY_CRITICALITY: Record<AllergySeverity, AllergyIntolerance['criticality']> = {
  mild: 'low',
  moderate: 'low',
  severe: 'high',
  unknown: 'unable-to-assess',
};

/**
 * An allergy (`row` opened: its substance, reaction and removal reason readable). A removed entry is inactive, its
 * reason a note. The date it was noted is the onset (R4: "when ... was identified"); the recorded date is when the
 * entry was made.
 */
export function allergyIntoleranceResource(row: AllergyRow): AllergyIntolerance {
  const severity = row.severity as AllergySeverity;
  const category = row.category ? ALLERGY_CATEGORY[row.category as AllergyCategory] : null;
  return clean<AllergyIntolerance>({
    resourceType: 'AllergyIntolerance',
    id: row.id,
    meta: { lastUpdated: iso(row.removedAt ?? row.createdAt) },
    clinicalStatus: hl7Code(
      'allergyintolerance-clinical',
      (row.status as AllergyStatus) === 'removed' ? 'inactive' : 'active',
    ),
    verificationStatus: hl7Code('allergyintolerance-verification', 'confirmed'),
    category: category ? [category] : [],
    criticality: ALLERGY_CRITICALITY[severity],
    code: { text: row.substance },
    patient: { reference: `Patient/${row.patientId}` },
    onsetDateTime: row.notedDate ?? undefined,
    recordedDate: iso(row.createdAt),
    // R4 requires a reaction's manifestation: without the reaction's text, the severity is in the criticality only.
    reaction: row.reaction
      ? [{ manifestation: [{ text: row.reaction }], severity: severity === 'unknown' ? undefined : severity }]
      : [],
    note: row.removalReason ? [{ text: row.removalReason, time: row.removedAt ? iso(row.removedAt) : undefined }] : [],
  });
}

const CARE_PLAN_STATUS: Record<TreatmentPlanStatus, CarePlan['status']> = {
  active: 'active',
  completed: 'completed',
  discontinued: 'revoked',
};

const GOAL_LIFECYCLE_STATUS: Record<TreatmentPlanStatus, Goal['lifecycleStatus']> = {
  active: 'active',
  completed: 'completed',
  discontinued: 'cancelled',
};

const ACTIVITY_STATUS: Record<TreatmentPlanStatus, NonNullable<CarePlanActivity['detail']>['status']> = {
  active: 'in-progress',
  completed: 'completed',
  discontinued: 'stopped',
};

/** A signed version of a treatment plan, readable: what the CarePlan and its Goals are made of. */
export interface SignedTreatmentPlan {
  planId: string;
  patientId: string;
  row: TreatmentPlanVersionRow & { signedAt: Date; signedBy: string };
  /** The version's content, decrypted (as the treatment plans' repository stores it). */
  content: { problems: TreatmentPlanProblem[]; goals: TreatmentGoal[]; interventions: string[] };
}

/** Fixed bytes that keep the goals' ids apart from any other name-based id. */
const GOAL_ID_NAMESPACE = Buffer.from('8d0b3f4e9a1c4c52b7e6a3f1d2c4e5a7', 'hex');

/**
 * The id of a plan version's goal (its index in the version): a name-based UUID (RFC 4122 version 5 layout) of the
 * version's id and the index, so it is the same in every export, a valid FHIR id, and a valid `urn:uuid:` in the
 * Bundle.
 */
export function goalIdOf(versionId: string, index: number): string {
  const hash = createHash('sha1').update(GOAL_ID_NAMESPACE).update(`${versionId}/goal/${index}`).digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50;
  hash[8] = (hash[8]! & 0x3f) | 0x80;
  const hex = hash.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

/**
 * A patient's treatment plan as its latest signed version (decision 065; drafts are never exported). The CarePlan
 * is the plan (its id the plan's, `meta.versionId` the version's number), signed by its author; the problems it
 * addresses are the Conditions of their diagnoses; each goal is a Goal resource (`goalResources`); each
 * intervention an activity described in words. R4 has no element for the review date: it is a note.
 */
export function carePlanResource(plan: SignedTreatmentPlan): CarePlan {
  const { row, content } = plan;
  const status = row.status as TreatmentPlanStatus;
  return clean<CarePlan>({
    resourceType: 'CarePlan',
    id: plan.planId,
    meta: { versionId: String(row.version), lastUpdated: iso(row.signedAt) },
    status: CARE_PLAN_STATUS[status],
    intent: 'plan',
    category: [{ text: 'Psychiatric treatment plan' }],
    title: 'Treatment plan',
    subject: { reference: `Patient/${plan.patientId}` },
    period: row.targetDate ? { end: row.targetDate } : undefined,
    created: iso(row.signedAt),
    author: { reference: `Practitioner/${row.signedBy}` },
    addresses: content.problems.map((p) => ({ reference: `Condition/${p.diagnosisId}`, display: p.title })),
    goal: content.goals.map((_goal, index) => ({ reference: `Goal/${goalIdOf(row.id, index)}` })),
    activity: content.interventions.map((description) => ({
      detail: { status: ACTIVITY_STATUS[status], description },
    })),
    note: [{ text: `Review date: ${row.reviewDate}` }],
  });
}

/**
 * The goals of a plan's latest signed version, one Goal each. A goal's questionnaire is its target's measure (the
 * total's LOINC code), a score target (the total under a number) the number with the comparator `<`; the goal's date
 * is the target's due date. Their status follows the plan's.
 */
export function goalResources(plan: SignedTreatmentPlan): Goal[] {
  const { row, content } = plan;
  const status = row.status as TreatmentPlanStatus;
  return content.goals.map((goal, index) => {
    const definition = goal.instrument ? INSTRUMENT_DEFINITIONS[goal.instrument] : null;
    const measure = definition
      ? {
          coding: [{ system: LOINC, code: definition.totalLoinc, display: `${definition.name} total score` }],
          text: `${definition.name} total score`,
        }
      : undefined;
    return clean<Goal>({
      resourceType: 'Goal',
      id: goalIdOf(row.id, index),
      meta: { lastUpdated: iso(row.signedAt) },
      lifecycleStatus: GOAL_LIFECYCLE_STATUS[status],
      description: { text: goal.description },
      subject: { reference: `Patient/${plan.patientId}` },
      target:
        measure || goal.targetDate
          ? [
              {
                measure,
                detailQuantity:
                  measure && goal.targetBelow !== null ? { value: goal.targetBelow, comparator: '<' } : undefined,
                dueDate: goal.targetDate ?? undefined,
              },
            ]
          : [],
      expressedBy: { reference: `Practitioner/${row.signedBy}` },
    });
  });
}

/** Every reference `Type/<uuid>` of a resource, for the Bundle. */
export function referencesOf(resource: object): string[] {
  const found: string[] = [];
  JSON.stringify(resource, (key, value: unknown) => {
    if (key === 'reference' && typeof value === 'string') found.push(value);
    return value;
  });
  return found;
}

/** A resource with its relative references turned into the `urn:uuid:` full URLs of a Bundle's entries. */
export function withBundleReferences<T extends object>(resource: T): T {
  return JSON.parse(
    JSON.stringify(resource, (key, value: unknown) =>
      key === 'reference' && typeof value === 'string' ? value.replace(/^[A-Za-z]+\//, 'urn:uuid:') : value,
    ),
  ) as T;
}
