import type {
  Appointment,
  DocumentReference,
  Observation,
  ObservationComponent,
  Patient,
  Practitioner,
} from '@medplum/fhirtypes';
import { INSTRUMENT_DEFINITIONS, itemIdOf, optionsOf, type Instrument, type StoredAnswer } from '@telehealth/shared';
import type { appointments } from '../appointments/appointments.table.ts';
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
] as const;
export type FhirResourceType = (typeof FHIR_RESOURCE_TYPES)[number];

const LOINC = 'http://loinc.org';
const EMAIL = 'email';

type ProviderRow = typeof providers.$inferSelect;
type AppointmentRow = typeof appointments.$inferSelect;
type MeasureRow = typeof measures.$inferSelect;
type NoteRow = typeof notes.$inferSelect;

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
