import type { BuiltInNoteTemplateKey, NoteCategory } from '@telehealth/shared';
import type { createRandom } from './practice-data.ts';

/*
 * Invented clinical content for the demo practice's history: short, plausible, about nobody. The notes follow the
 * built-in templates' headings (decision 027) so that they read like notes written in the editor.
 */

type Random = ReturnType<typeof createRandom>;

export interface DemoNote {
  templateKey: BuiltInNoteTemplateKey;
  title: string;
  category: NoteCategory;
  tags: string[];
  content: string;
}

const MOODS = [
  '“A bit better, sleeping more.”',
  '“Up and down this week.”',
  '“Calmer than last time.”',
  '“Tired, but getting to work.”',
  '“Less on edge.”',
];
const DATA_LINES = [
  'Reports fewer days of low mood since the last visit; returned to walking three times a week.',
  'Describes two panic episodes this fortnight, both shorter; used paced breathing in one.',
  'Sleep improved to about 6.5 hours; still wakes early on work days.',
  'Reports more energy in the mornings; appetite back to usual.',
  'Stress at work continues; has started setting a fixed end to the working day.',
  'Practised the thought record between sessions and brought two examples.',
];
const ASSESSMENTS = [
  'Depressive symptoms improving with medication and behavioural activation.',
  'Anxiety lower; avoidance reducing with graded exposure.',
  'Partial response; residual insomnia the main complaint.',
  'Stable; tolerating treatment without side effects of note.',
];
const PLANS = [
  'Continue current plan; review the sleep diary next visit. Follow up in 2 weeks.',
  'Add one more exposure step (bus ride, two stops). Follow up in 2 weeks.',
  'Keep activity schedule; repeat PHQ-9 and GAD-7 before next visit. Follow up in 3 weeks.',
  'Continue weekly sessions; patient knows how to reach the clinic between visits.',
];
const MEDICATIONS = [
  ['Sertraline 50 mg daily', 'Sertraline increased to 75 mg daily', 'mild nausea in the first week, now settled'],
  ['Bupropion XL 150 mg daily', 'No change today', 'dry mouth, tolerable'],
  ['Escitalopram 10 mg daily', 'Escitalopram continued at 10 mg', 'no side effects reported'],
  ['Lithium 300 mg twice daily', 'No change; lithium level ordered', 'fine tremor, unchanged'],
] as const;

function mentalStatus(random: Random): string {
  return [
    '## Mental status exam',
    '- Appearance: casually dressed, well groomed, good eye contact',
    '- Behavior: cooperative, no psychomotor changes',
    '- Speech: normal rate and volume',
    `- Mood: ${random.pick(MOODS)}`,
    '- Affect: mildly restricted, congruent with mood',
    '- Thought process: linear and goal-directed',
    '- Thought content: no delusions; no suicidal or homicidal ideation',
    '- Perception: no hallucinations',
    '- Cognition: alert and oriented; attention intact',
    '- Insight: good',
    '- Judgment: good',
  ].join('\n');
}

function progressNote(random: Random, reason: string): DemoNote {
  return {
    templateKey: 'dap',
    title: `Progress note: ${reason.toLowerCase()}`,
    category: 'patient',
    tags: ['progress'],
    content: [
      '## Data',
      random.pick(DATA_LINES),
      '',
      mentalStatus(random),
      '',
      '## Assessment',
      random.pick(ASSESSMENTS),
      '',
      '## Plan',
      random.pick(PLANS),
    ].join('\n'),
  };
}

function medicationNote(random: Random): DemoNote {
  const [current, change, sideEffects] = random.pick(MEDICATIONS);
  return {
    templateKey: 'medicationManagement',
    title: 'Medication management',
    category: 'medical',
    tags: ['medication'],
    content: [
      '## Current medications and adherence',
      `${current}; takes it most days, one missed dose last week.`,
      '',
      '## Response and side effects',
      `Gradual improvement in mood and sleep; ${sideEffects}.`,
      '',
      '## Vital signs and labs',
      'BP 118/76, weight stable. No labs due.',
      '',
      '## Changes made today',
      `${change}. Risks and benefits discussed; patient agrees.`,
      '',
      '## Plan and follow-up',
      'Follow up in 4 weeks, sooner if side effects return.',
    ].join('\n'),
  };
}

function evaluationNote(random: Random): DemoNote {
  return {
    templateKey: 'psychiatricEvaluation',
    title: 'Initial psychiatric evaluation',
    category: 'medical',
    tags: ['intake'],
    content: [
      '## Identifying information and chief complaint',
      'Adult referred by primary care: “I can’t switch off at night.”',
      '',
      '## History of present illness',
      'Four months of low mood, poor sleep and worry after a change of job; no past episodes of mania.',
      '',
      '## Past psychiatric history',
      'Counselling in college; no hospital stays; no medication trials.',
      '',
      '## Substance use',
      'Alcohol two drinks a week; no other substances.',
      '',
      mentalStatus(random),
      '',
      '## Risk assessment',
      '- Suicidal ideation: none',
      '- Protective factors: partner, work, engaged in care',
      '- Risk level: low',
      '',
      '## Diagnosis',
      'Generalized anxiety disorder; rule out major depressive disorder.',
      '',
      '## Plan',
      'Start CBT; discuss an SSRI next visit; PHQ-9 and GAD-7 every two weeks.',
    ].join('\n'),
  };
}

/** The risk assessment after the demo patient's PHQ-9 answered item 9 above zero. */
export const RISK_ASSESSMENT_NOTE: DemoNote = {
  templateKey: 'riskAssessment',
  title: 'Risk assessment after PHQ-9',
  category: 'medical',
  tags: ['risk', 'safety plan'],
  content: [
    '## Reason for assessment',
    'PHQ-9 item 9 answered “several days”.',
    '',
    '## Risk assessment',
    '- Suicidal ideation: passive, “it would be easier not to wake up”, last on the weekend',
    '- Plan: none',
    '- Intent: none',
    '- Means and access: no firearms at home; medication kept by partner for now',
    '- Past attempts: none',
    '- Self-harm: none',
    '- Homicidal ideation: none',
    '- Protective factors: partner, dog, wants to get back to running',
    '- Risk level: low',
    '- Safety plan: written today; crisis line given',
    '',
    '## Actions taken',
    'Visits moved to weekly; next PHQ-9 in two weeks.',
  ].join('\n'),
};

/** A note fitting a visit's reason, in one of the built-in templates. */
export function noteForVisit(random: Random, reason: string): DemoNote {
  if (reason === 'Initial psychiatric evaluation') return evaluationNote(random);
  if (reason === 'Medication follow-up' || reason === 'Medication management') return medicationNote(random);
  return progressNote(random, reason);
}

export const ADDENDA = [
  'Patient called the next day: the pharmacy had the wrong dose; corrected with the pharmacy.',
  'Lab result received: within normal range. No change to the plan.',
  'Spoke with the primary care physician as agreed; they will repeat the thyroid panel.',
  'Correction: the follow-up is in 3 weeks, not 2, because of the patient’s travel.',
];

export const SAFETY_ACKNOWLEDGEMENT =
  'Called the patient within the hour: passive thoughts, no plan or intent. Safety plan written, crisis line given, visits moved to weekly.';

/** The demo patient's conversations with their provider (and one with the office). */
export const DEMO_CONVERSATIONS: {
  kind: 'clinical' | 'office';
  subject: string;
  daysAgo: number;
  /** Who wrote each message, in order; the last one may stay unread. */
  messages: { from: 'patient' | 'practice'; body: string }[];
  lastUnread: boolean;
}[] = [
  {
    kind: 'clinical',
    subject: 'Taking sertraline in the morning?',
    daysAgo: 40,
    messages: [
      { from: 'patient', body: 'Is it all right to take my sertraline in the morning instead of at night?' },
      {
        from: 'practice',
        body: 'Yes: the morning is fine and often better for sleep. Take it at the same time each day.',
      },
      { from: 'patient', body: 'Thank you, I will switch from tomorrow.' },
    ],
    lastUnread: false,
  },
  {
    kind: 'clinical',
    subject: 'Sleep diary for Thursday',
    daysAgo: 3,
    messages: [
      { from: 'patient', body: 'I filled in the sleep diary this week. Should I bring it on Thursday?' },
      {
        from: 'practice',
        body: 'Please do, or send a photo here. We will go through it together at the start of the visit.',
      },
    ],
    lastUnread: true,
  },
  {
    kind: 'office',
    subject: 'Receipt for my insurer',
    daysAgo: 1,
    messages: [{ from: 'patient', body: 'Could I have a receipt for last month’s visits for my insurance claim?' }],
    lastUnread: true,
  },
];

/** Why the waiting patients want an earlier visit. */
export const WAITLIST_REASONS = [
  'Would like an earlier follow-up; symptoms returning.',
  'Any earlier afternoon slot after school pick-up.',
  'Earlier medication review before travel.',
  'Prefers a morning video visit if one frees up.',
];
