import { fieldMessage, messageSection } from './field-messages.ts';
import { z } from 'zod';
import { OptionalBooleanSchema, RecordIdSchema, textSchema } from './text.ts';

/**
 * Clinical notes (decision 027). The specification's note (title, content, category, priority, tags, patient,
 * appointment, a "private" flag) made real: a note is a draft until its author signs it, a signed note is locked
 * (only addenda, or an unlock with a written reason that starts a new version), and a "private" note is a
 * psychotherapy note in the HIPAA sense, readable by its author only.
 */
export const NOTE_CATEGORIES = ['general', 'medical', 'appointment', 'patient', 'administrative', 'research'] as const;
export type NoteCategory = (typeof NOTE_CATEGORIES)[number];
export const DEFAULT_NOTE_CATEGORY: NoteCategory = 'general';

export const NOTE_PRIORITIES = ['low', 'medium', 'high', 'urgent'] as const;
export type NotePriority = (typeof NOTE_PRIORITIES)[number];
export const DEFAULT_NOTE_PRIORITY: NotePriority = 'medium';
/** The specification's "High Priority" stat counts these. */
export const HIGH_NOTE_PRIORITIES: readonly NotePriority[] = ['high', 'urgent'];

/** A card shows this many tags, then '+N more'. */
export const NOTE_CARD_TAGS = 3;

export const NOTE_TITLE_MAX = 200;
export const NOTE_CONTENT_MAX = 50_000;
export const NOTE_TAG_MAX = 40;
export const NOTE_TAGS_MAX = 20;
export const NOTE_REASON_MAX = 1_000;
export const NOTE_ADDENDUM_MAX = 10_000;
export const NOTE_SEARCH_MAX = 100;

export const NOTE_STATUSES = ['draft', 'signed'] as const;
export type NoteStatus = (typeof NOTE_STATUSES)[number];

export const NOTE_MESSAGES = {
  titleAndContentRequired: 'Title and content are required',
  loadFailed: 'Failed to load notes. Please try again.',
  deleteFailed: 'Failed to delete note. Please try again.',
  saveFailed: 'Failed to save note',
  notFound: 'Note not found',
  cannotView: 'You do not have permission to view notes',
  cannotWrite: 'You do not have permission to write notes',
  cannotManageTemplates: 'Only administrators can manage note templates.',
  authorOnly: 'Only the author of a note can change, sign or unlock it.',
  signedLocked: 'This note is signed and locked. Add an addendum, or unlock it with a reason.',
  notSigned: 'Only a signed note can take an addendum or be unlocked.',
  alreadySigned: 'This note is already signed.',
  reasonRequired: 'Please write why the note is unlocked',
  addendumRequired: 'Please write the addendum',
  confirmIdentity: 'Enter your password or a code from your authenticator app to sign.',
  identityNotConfirmed: 'The password or code is not right. Nothing was signed.',
  patientNotYours: 'Choose one of your own patients.',
  appointmentNotPatients: 'The appointment must be one of this patient’s.',
  psychotherapyNeedsPatient: 'A psychotherapy note must be about a patient.',
  templateNotFound: 'Template not found',
  templateNameRequired: 'Please give the template a name',
  templateBodyRequired: 'Please write the template’s sections',
  tagsTooMany: 'A note holds at most {{max}} tags',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const noteMessage = messageSection('noteMessages', NOTE_MESSAGES);

const TitleSchema = textSchema({ label: 'Title', kind: 'short', max: NOTE_TITLE_MAX });
const ContentSchema = textSchema({ label: 'Content', kind: 'free', max: NOTE_CONTENT_MAX });
const TagSchema = textSchema({ label: 'Tag', kind: 'short', max: NOTE_TAG_MAX });

/** Trimmed, blank ones dropped, each kept once (the first spelling wins; compared without case). */
export function normalizeTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    const key = tag.toLowerCase();
    if (!tag || seen.has(key)) continue;
    seen.add(key);
    out.push(tag);
  }
  return out;
}

const TagsSchema = z
  .array(TagSchema, { error: fieldMessage.error('tagsNotList') })
  .transform(normalizeTags)
  .refine((tags) => tags.length <= NOTE_TAGS_MAX, {
    error: noteMessage.error('tagsTooMany', { max: NOTE_TAGS_MAX }),
  });

const OptionalIdSchema = RecordIdSchema.nullish().transform((id) => (id ? id : null));

/** The specification's fallbacks: category general, priority medium (also for a value off the list? no: refused). */
/** Absent counts as blank, so that a missing title or content gets the specification's one message. */
const blankIfAbsent = z
  .string({ error: noteMessage.error('titleAndContentRequired') })
  .nullish()
  .transform((v) => v ?? '');

const noteFields = {
  title: blankIfAbsent.pipe(TitleSchema),
  content: blankIfAbsent.pipe(ContentSchema),
  category: z
    .enum(NOTE_CATEGORIES, { error: fieldMessage.error('chooseCategory') })
    .nullish()
    .transform((c) => c ?? DEFAULT_NOTE_CATEGORY),
  priority: z
    .enum(NOTE_PRIORITIES, { error: fieldMessage.error('choosePriority') })
    .nullish()
    .transform((p) => p ?? DEFAULT_NOTE_PRIORITY),
  tags: TagsSchema.nullish().transform((t) => t ?? []),
  patientId: OptionalIdSchema,
  appointmentId: OptionalIdSchema,
  isPrivate: OptionalBooleanSchema.transform((v) => v ?? false),
  templateId: OptionalIdSchema,
};

function requireTitleAndContent(input: { title: string; content: string }, ctx: z.RefinementCtx) {
  if (!input.title || !input.content.trim()) {
    ctx.addIssue({ code: 'custom', ...noteMessage.issue('titleAndContentRequired'), path: ['title'] });
  }
}

/** createNote, and the editor's form. Title and content trimmed; both required. */
export const NoteInputSchema = z
  .object(noteFields)
  .transform((n) => ({ ...n, content: n.content.trim() }))
  .superRefine((n, ctx) => {
    requireTitleAndContent(n, ctx);
    if (n.isPrivate && !n.patientId) {
      ctx.addIssue({ code: 'custom', ...noteMessage.issue('psychotherapyNeedsPatient'), path: ['patientId'] });
    }
  });
export type NoteInput = z.input<typeof NoteInputSchema>;
export type NoteData = z.output<typeof NoteInputSchema>;

/** updateNote: the id and the whole note as the editor holds it (a draft is rewritten, never merged). */
export const UpdateNoteInputSchema = z
  .object({ id: RecordIdSchema, ...noteFields })
  .transform((n) => ({ ...n, content: n.content.trim() }))
  .superRefine((n, ctx) => {
    requireTitleAndContent(n, ctx);
    if (n.isPrivate && !n.patientId) {
      ctx.addIssue({ code: 'custom', ...noteMessage.issue('psychotherapyNeedsPatient'), path: ['patientId'] });
    }
  });
export type UpdateNoteInput = z.input<typeof UpdateNoteInputSchema>;

/** listNotes' filters: all applied on the server. `search` matches whole words and word beginnings. */
export const NoteFilterSchema = z.object({
  search: textSchema({ label: 'Search', kind: 'search', max: NOTE_SEARCH_MAX }).nullish(),
  category: z.enum(NOTE_CATEGORIES, { error: fieldMessage.error('chooseCategory') }).nullish(),
  priority: z.enum(NOTE_PRIORITIES, { error: fieldMessage.error('choosePriority') }).nullish(),
  patientId: RecordIdSchema.nullish(),
  status: z.enum(NOTE_STATUSES).nullish(),
});
export type NoteFilter = z.input<typeof NoteFilterSchema>;

/** What re-confirms the author's identity when signing: the password, or a current authenticator code. */
export const SignNoteInputSchema = z.object({
  id: RecordIdSchema,
  password: z.string().max(1_000).nullish(),
  code: z.string().max(20).nullish(),
});

export const AddendumInputSchema = z.object({
  noteId: RecordIdSchema,
  content: z
    .string({ error: noteMessage.error('addendumRequired') })
    .trim()
    .min(1, { error: noteMessage.error('addendumRequired') })
    .pipe(textSchema({ label: 'Addendum', kind: 'free', max: NOTE_ADDENDUM_MAX })),
  password: z.string().max(1_000).nullish(),
  code: z.string().max(20).nullish(),
});

export const UnlockNoteInputSchema = z.object({
  id: RecordIdSchema,
  reason: z
    .string({ error: noteMessage.error('reasonRequired') })
    .trim()
    .min(1, { error: noteMessage.error('reasonRequired') })
    .pipe(textSchema({ label: 'Reason', kind: 'free', max: NOTE_REASON_MAX })),
});

export const NOTE_TEMPLATE_NAME_MAX = 80;
export const NOTE_TEMPLATE_BODY_MAX = 10_000;

export const NoteTemplateInputSchema = z.object({
  id: RecordIdSchema.nullish(),
  name: z
    .string({ error: noteMessage.error('templateNameRequired') })
    .trim()
    .min(1, { error: noteMessage.error('templateNameRequired') })
    .pipe(textSchema({ label: 'Name', kind: 'short', max: NOTE_TEMPLATE_NAME_MAX })),
  body: z
    .string({ error: noteMessage.error('templateBodyRequired') })
    .trim()
    .min(1, { error: noteMessage.error('templateBodyRequired') })
    .pipe(textSchema({ label: 'Sections', kind: 'free', max: NOTE_TEMPLATE_BODY_MAX })),
  category: z.enum(NOTE_CATEGORIES).nullish(),
  isActive: OptionalBooleanSchema,
});
export type NoteTemplateInput = z.input<typeof NoteTemplateInputSchema>;

/** The mental status exam's usual fields, each with what to observe (a prompt in italics, to replace). */
const MENTAL_STATUS_EXAM = [
  '## Mental status exam',
  '- Appearance: _grooming, hygiene, dress, apparent age, eye contact_',
  '- Behavior: _cooperation, psychomotor activity, abnormal movements_',
  '- Speech: _rate, volume, tone, fluency_',
  '- Mood: _in the patient’s own words_',
  '- Affect: _range, intensity, congruence with mood_',
  '- Thought process: _linear, goal-directed, tangential, circumstantial, loose_',
  '- Thought content: _preoccupations, obsessions, delusions_',
  '- Perception: _hallucinations, illusions_',
  '- Cognition: _orientation, attention, memory_',
  '- Insight: _good, fair, poor_',
  '- Judgment: _good, fair, poor_',
] as const;

/** The items a clinician records in a suicide and violence risk assessment. */
const RISK_ASSESSMENT = [
  '## Risk assessment',
  '- Suicidal ideation: _none, passive, active; frequency and most recent_',
  '- Plan: _none, or its details_',
  '- Intent: _none, or stated intent_',
  '- Means and access: _firearms, medications, other means; steps to limit access_',
  '- Past attempts: _none, or when, how, what followed_',
  '- Self-harm: _none, or recent self-harm_',
  '- Homicidal ideation: _none, or toward whom_',
  '- Protective factors: _reasons for living, supports, engagement in care_',
  '- Risk level: _low, moderate, high_',
  '- Safety plan: _reviewed, updated, or written today; crisis line given_',
] as const;

/**
 * The built-in templates (the practice adds its own). The body is the note's content, in the editor's plain
 * text with `## ` headings and `- ` list items; `key` names them so the browser shows them in the user's language
 * (locales notes.json `builtInTemplates.<key>`); the English here is what the server seeds.
 */
export const BUILT_IN_NOTE_TEMPLATES = [
  {
    key: 'soap',
    name: 'SOAP note',
    category: 'medical',
    body: ['## Subjective', '', '## Objective', '', '## Assessment', '', '## Plan', ''].join('\n'),
  },
  {
    key: 'psychiatricEvaluation',
    name: 'Psychiatric evaluation',
    category: 'medical',
    body: [
      '## Identifying information and chief complaint',
      '_Age, pronouns, who referred them; the problem in the patient’s own words._',
      '',
      '## History of present illness',
      '_Onset, course, triggers, severity; sleep, appetite, energy; what has been tried._',
      '',
      '## Past psychiatric history',
      '_Diagnoses, hospitalizations, past medications and how they worked, therapy._',
      '',
      '## Medical history and current medications',
      '_Conditions, allergies, current medications and doses._',
      '',
      '## Substance use',
      '_Alcohol, cannabis, nicotine, other substances: amount, frequency, last use._',
      '',
      '## Family and social history',
      '_Family psychiatric history; living situation, work or school, relationships, supports._',
      '',
      ...MENTAL_STATUS_EXAM,
      '',
      ...RISK_ASSESSMENT,
      '',
      '## Diagnosis',
      '',
      '## Plan',
      '_Medications, therapy, tests, follow-up date._',
      '',
    ].join('\n'),
  },
  {
    key: 'riskAssessment',
    name: 'Risk assessment',
    category: 'medical',
    body: [
      '## Reason for assessment',
      '_What prompted it: a questionnaire answer, a statement, a change in the patient._',
      '',
      ...RISK_ASSESSMENT,
      '',
      '## Actions taken',
      '_Who was contacted, referrals, follow-up date._',
      '',
    ].join('\n'),
  },
  {
    key: 'dap',
    name: 'Progress note (DAP)',
    category: 'patient',
    body: ['## Data', '', '## Assessment', '', '## Plan', ''].join('\n'),
  },
  {
    key: 'medicationManagement',
    name: 'Medication management',
    category: 'medical',
    body: [
      '## Current medications and adherence',
      '',
      '## Response and side effects',
      '',
      '## Vital signs and labs',
      '',
      '## Changes made today',
      '',
      '## Plan and follow-up',
      '',
    ].join('\n'),
  },
] as const satisfies readonly { key: string; name: string; category: NoteCategory; body: string }[];
export type BuiltInNoteTemplateKey = (typeof BUILT_IN_NOTE_TEMPLATES)[number]['key'];

/**
 * The notes written beside the patient's record (issue 27, point 7): while one of these is written, the editor shows
 * the current diagnoses, medications and latest scores, and a medication changed from it is linked to the note.
 */
export const NOTE_TEMPLATES_WITH_RECORD: readonly BuiltInNoteTemplateKey[] = [
  'medicationManagement',
  'psychiatricEvaluation',
];
