import type { IntakeSection } from '@telehealth/shared';

import type english from '../../../locales/en/intake.json';
import type { Intake } from '../api/intake-api.ts';

type FieldLabel = keyof (typeof english)['fields'];
/** A label of intake.json. */
export type IntakeLabel = `fields.${FieldLabel}` | `lists.${keyof (typeof english)['lists']}`;

/** One answer of a step: its key in the section's schema, its label (intake.json) and the input it takes. */
export interface FieldSpec {
  name: string;
  label: IntakeLabel;
  kind: 'text' | 'textarea' | 'date' | 'tel';
  /** Left empty, the step cannot be saved (the section's schema says so too). */
  required?: boolean;
}

/** A bounded list of a step (medications, allergies): its items' fields, the first one naming the item. */
export interface ListSpec {
  name: string;
  title: IntakeLabel;
  addLabel: IntakeLabel;
  /** The first field names the item; `medication` offers the catalogue's names. */
  item: readonly (FieldSpec & { medication?: boolean })[];
}

export interface SectionForm {
  fields: readonly FieldSpec[];
  lists: readonly ListSpec[];
}

const text = (name: FieldLabel): FieldSpec => ({ name, label: `fields.${name}`, kind: 'text' });
const long = (name: FieldLabel): FieldSpec => ({ name, label: `fields.${name}`, kind: 'textarea' });

/** What each step asks, in order (the schemas in packages/shared intake.ts check the answers). */
export const SECTION_FORMS: Record<IntakeSection, SectionForm> = {
  details: {
    fields: [
      { ...text('firstName'), required: true },
      { ...text('lastName'), required: true },
      { name: 'dateOfBirth', label: 'fields.dateOfBirth', kind: 'date', required: true },
      { name: 'phone', label: 'fields.phone', kind: 'tel' },
      text('street'),
      text('city'),
      text('state'),
      text('zipCode'),
      text('emergencyContactName'),
      { name: 'emergencyContactPhone', label: 'fields.emergencyContactPhone', kind: 'tel' },
    ],
    lists: [],
  },
  insurance: { fields: [text('company'), text('memberId'), text('groupNumber')], lists: [] },
  pharmacy: {
    fields: [text('name'), { name: 'phone', label: 'fields.pharmacyPhone', kind: 'tel' }, text('address')],
    lists: [],
  },
  reason: { fields: [long('reason')], lists: [] },
  psychiatricHistory: {
    fields: [long('diagnoses'), long('hospitalisations')],
    lists: [
      {
        name: 'pastMedications',
        title: 'lists.pastMedications',
        addLabel: 'lists.addPastMedication',
        item: [
          { name: 'name', label: 'lists.medicationName', kind: 'text', required: true, medication: true },
          { name: 'response', label: 'lists.response', kind: 'text' },
        ],
      },
    ],
  },
  medicalHistory: { fields: [long('conditions')], lists: [] },
  medications: {
    fields: [],
    lists: [
      {
        name: 'medications',
        title: 'lists.medications',
        addLabel: 'lists.addMedication',
        item: [
          { name: 'name', label: 'lists.medicationName', kind: 'text', required: true, medication: true },
          { name: 'dose', label: 'lists.dose', kind: 'text' },
          { name: 'frequency', label: 'lists.frequency', kind: 'text' },
        ],
      },
      {
        name: 'allergies',
        title: 'lists.allergies',
        addLabel: 'lists.addAllergy',
        item: [
          { name: 'substance', label: 'lists.substance', kind: 'text', required: true },
          { name: 'reaction', label: 'lists.reaction', kind: 'text' },
        ],
      },
    ],
  },
  familyHistory: { fields: [long('history')], lists: [] },
  substanceUse: { fields: [long('alcohol'), long('tobacco'), long('drugs')], lists: [] },
  socialHistory: { fields: [long('living'), long('work'), long('support')], lists: [] },
  questionnaires: { fields: [], lists: [] },
};

/** A step's answers as its form holds them: every value as typed text. */
export interface SectionDraft {
  values: Record<string, string>;
  lists: Record<string, Record<string, string>[]>;
}

function asText(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

/**
 * Where a step's form starts: what was saved for it, or (the details, never saved yet) what the patient record
 * holds, so the patient confirms rather than types again.
 */
export function initialDraft(section: IntakeSection, intake: Pick<Intake, 'answers' | 'recordDetails'>): SectionDraft {
  const form = SECTION_FORMS[section];
  const saved = intake.answers[section];
  const source: Record<string, unknown> =
    saved ??
    (section === 'details' ? Object.fromEntries(intake.recordDetails.map((d) => [d.field, d.value ?? ''])) : {});
  return {
    values: Object.fromEntries(form.fields.map((f) => [f.name, asText(source[f.name])])),
    lists: Object.fromEntries(
      form.lists.map((list) => {
        const items = Array.isArray(source[list.name]) ? (source[list.name] as Record<string, unknown>[]) : [];
        return [
          list.name,
          items.map((item) => Object.fromEntries(list.item.map((f) => [f.name, asText(item[f.name])]))),
        ];
      }),
    ),
  };
}

/** The step's answers to check and send: the values as typed (blank ones are "no answer" to the schema). */
export function answersOf(draft: SectionDraft): Record<string, unknown> {
  return { ...draft.values, ...draft.lists };
}

/** The step a patient comes back to: where they left off, or the first. */
export function resumeIndex(intake: Pick<Intake, 'steps' | 'currentSection'>): number {
  return Math.max(0, intake.steps.indexOf(intake.currentSection));
}
