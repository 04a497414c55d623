import { messageSection } from './field-messages.ts';
import { z } from 'zod';
import { RecordIdSchema, textSchema } from './text.ts';

/**
 * Rating scales (measurement-based care, decision 028): the PHQ-9 and the GAD-7, with their exact items and
 * answer scales in English and Spanish, the notice the instruments require, their LOINC codes (for export) and
 * their scoring. The C-SSRS is deliberately absent: its electronic use needs a licence.
 */
export const INSTRUMENTS = ['phq9', 'gad7'] as const;
export type Instrument = (typeof INSTRUMENTS)[number];

type Text = { en: string; es: string };

export interface InstrumentItem {
  /** The item's LOINC code. */
  loinc: string;
  text: Text;
}

export interface AnswerOption {
  value: number;
  /** The answer's LOINC answer code. */
  loinc: string;
  text: Text;
}

export interface SeverityBand {
  key: 'minimal' | 'mild' | 'moderate' | 'moderatelySevere' | 'severe';
  min: number;
  max: number;
}

export interface InstrumentDefinition {
  id: Instrument;
  name: string;
  /** The panel's LOINC code and the total score's. */
  loinc: string;
  totalLoinc: string;
  question: Text;
  items: readonly InstrumentItem[];
  options: readonly AnswerOption[];
  /** The closing question (not scored). */
  difficulty: { loinc: string; text: Text; options: readonly AnswerOption[] };
  bands: readonly SeverityBand[];
  maxScore: number;
}

/** The notice both instruments carry; it must be shown with them. */
export const INSTRUMENT_NOTICE: Text = {
  en: 'Developed by Drs. Robert L. Spitzer, Janet B.W. Williams, Kurt Kroenke and colleagues, with an educational grant from Pfizer Inc. No permission required to reproduce, translate, display or distribute.',
  es: 'Desarrollado por los Drs. Robert L. Spitzer, Janet B.W. Williams, Kurt Kroenke y colegas, mediante una subvención educativa otorgada por Pfizer Inc. No se requiere permiso para reproducir, traducir, mostrar o distribuir.',
};

const FREQUENCY_OPTIONS: readonly AnswerOption[] = [
  { value: 0, loinc: 'LA6568-5', text: { en: 'Not at all', es: 'Ningún día' } },
  { value: 1, loinc: 'LA6569-3', text: { en: 'Several days', es: 'Varios días' } },
  { value: 2, loinc: 'LA6570-1', text: { en: 'More than half the days', es: 'Más de la mitad de los días' } },
  { value: 3, loinc: 'LA6571-9', text: { en: 'Nearly every day', es: 'Casi todos los días' } },
];

const DIFFICULTY_OPTIONS: readonly AnswerOption[] = [
  { value: 0, loinc: 'LA6572-7', text: { en: 'Not difficult at all', es: 'No ha sido difícil' } },
  { value: 1, loinc: 'LA6573-5', text: { en: 'Somewhat difficult', es: 'Un poco difícil' } },
  { value: 2, loinc: 'LA6575-0', text: { en: 'Very difficult', es: 'Muy difícil' } },
  { value: 3, loinc: 'LA6574-3', text: { en: 'Extremely difficult', es: 'Extremadamente difícil' } },
];

const DIFFICULTY_TEXT: Text = {
  en: 'If you checked off any problems, how difficult have these problems made it for you to do your work, take care of things at home, or get along with other people?',
  es: 'Si marcó cualquiera de los problemas, ¿qué tanta dificultad le han dado estos problemas para hacer su trabajo, encargarse de las tareas del hogar, o llevarse bien con otras personas?',
};

export const PHQ9: InstrumentDefinition = {
  id: 'phq9',
  name: 'PHQ-9',
  loinc: '44249-1',
  totalLoinc: '44261-6',
  question: {
    en: 'Over the last 2 weeks, how often have you been bothered by any of the following problems?',
    es: 'Durante las últimas 2 semanas, ¿qué tan seguido ha tenido molestias debido a los siguientes problemas?',
  },
  items: [
    {
      loinc: '44250-9',
      text: { en: 'Little interest or pleasure in doing things', es: 'Poco interés o placer en hacer cosas' },
    },
    {
      loinc: '44255-8',
      text: {
        en: 'Feeling down, depressed, or hopeless',
        es: 'Se ha sentido decaído(a), deprimido(a) o sin esperanzas',
      },
    },
    {
      loinc: '44259-0',
      text: {
        en: 'Trouble falling or staying asleep, or sleeping too much',
        es: 'Ha tenido dificultad para quedarse o permanecer dormido(a), o ha dormido demasiado',
      },
    },
    {
      loinc: '44254-1',
      text: { en: 'Feeling tired or having little energy', es: 'Se ha sentido cansado(a) o con poca energía' },
    },
    { loinc: '44251-7', text: { en: 'Poor appetite or overeating', es: 'Sin apetito o ha comido en exceso' } },
    {
      loinc: '44258-2',
      text: {
        en: 'Feeling bad about yourself — or that you are a failure or have let yourself or your family down',
        es: 'Se ha sentido mal con usted mismo(a) — o que es un fracaso o que ha quedado mal con usted mismo(a) o con su familia',
      },
    },
    {
      loinc: '44252-5',
      text: {
        en: 'Trouble concentrating on things, such as reading the newspaper or watching television',
        es: 'Ha tenido dificultad para concentrarse en ciertas actividades, tales como leer el periódico o ver la televisión',
      },
    },
    {
      loinc: '44253-3',
      text: {
        en: 'Moving or speaking so slowly that other people could have noticed? Or the opposite — being so fidgety or restless that you have been moving around a lot more than usual',
        es: '¿Se ha movido o hablado tan lento que otras personas podrían haberlo notado? o lo contrario — muy inquieto(a) o agitado(a) que ha estado moviéndose mucho más de lo normal',
      },
    },
    {
      loinc: '44260-8',
      text: {
        en: 'Thoughts that you would be better off dead or of hurting yourself in some way',
        es: 'Pensamientos de que estaría mejor muerto(a) o de lastimarse de alguna manera',
      },
    },
  ],
  options: FREQUENCY_OPTIONS,
  difficulty: { loinc: '69722-7', text: DIFFICULTY_TEXT, options: DIFFICULTY_OPTIONS },
  bands: [
    { key: 'minimal', min: 0, max: 4 },
    { key: 'mild', min: 5, max: 9 },
    { key: 'moderate', min: 10, max: 14 },
    { key: 'moderatelySevere', min: 15, max: 19 },
    { key: 'severe', min: 20, max: 27 },
  ],
  maxScore: 27,
};

export const GAD7: InstrumentDefinition = {
  id: 'gad7',
  name: 'GAD-7',
  loinc: '69737-5',
  totalLoinc: '70274-6',
  question: {
    en: 'Over the last 2 weeks, how often have you been bothered by the following problems?',
    es: 'Durante las últimas 2 semanas, ¿con qué frecuencia le han molestado los siguientes problemas?',
  },
  items: [
    {
      loinc: '69725-0',
      text: {
        en: 'Feeling nervous, anxious, or on edge',
        es: 'Se ha sentido nervioso(a), ansioso(a) o con los nervios de punta',
      },
    },
    {
      loinc: '68509-9',
      text: {
        en: 'Not being able to stop or control worrying',
        es: 'No ha sido capaz de parar o controlar su preocupación',
      },
    },
    {
      loinc: '69733-4',
      text: {
        en: 'Worrying too much about different things',
        es: 'Se ha preocupado demasiado por motivos diferentes',
      },
    },
    { loinc: '69734-2', text: { en: 'Trouble relaxing', es: 'Ha tenido dificultad para relajarse' } },
    {
      loinc: '69735-9',
      text: {
        en: 'Being so restless that it is hard to sit still',
        es: 'Se ha sentido tan inquieto(a) que no ha podido quedarse quieto(a)',
      },
    },
    {
      loinc: '69689-8',
      text: { en: 'Becoming easily annoyed or irritable', es: 'Se ha molestado o irritado fácilmente' },
    },
    {
      loinc: '69736-7',
      text: {
        en: 'Feeling afraid, as if something awful might happen',
        es: 'Ha tenido miedo de que algo terrible fuera a pasar',
      },
    },
  ],
  options: FREQUENCY_OPTIONS,
  difficulty: { loinc: '69726-8', text: DIFFICULTY_TEXT, options: DIFFICULTY_OPTIONS },
  bands: [
    { key: 'minimal', min: 0, max: 4 },
    { key: 'mild', min: 5, max: 9 },
    { key: 'moderate', min: 10, max: 14 },
    { key: 'severe', min: 15, max: 21 },
  ],
  maxScore: 21,
};

export const INSTRUMENT_DEFINITIONS: Readonly<Record<Instrument, InstrumentDefinition>> = { phq9: PHQ9, gad7: GAD7 };

/** The PHQ-9's item 9 (thoughts of being better off dead or of self-harm): any answer above 0 starts the safety path. */
export const PHQ9_SAFETY_ITEM_INDEX = 8;

export interface Score {
  total: number;
  band: SeverityBand['key'];
}

/**
 * The total and its severity band, or null for an incomplete form (an item unanswered or off the scale): an
 * incomplete form is never scored.
 */
export function scoreAnswers(instrument: Instrument, answers: readonly (number | null | undefined)[]): Score | null {
  const definition = INSTRUMENT_DEFINITIONS[instrument];
  if (answers.length !== definition.items.length) return null;
  let total = 0;
  for (const answer of answers) {
    if (typeof answer !== 'number' || !Number.isInteger(answer) || answer < 0 || answer > 3) return null;
    total += answer;
  }
  return { total, band: bandOf(instrument, total) };
}

export function bandOf(instrument: Instrument, total: number): SeverityBand['key'] {
  const band = INSTRUMENT_DEFINITIONS[instrument].bands.find((b) => total >= b.min && total <= b.max);
  if (!band) throw new RangeError(`${instrument} total ${total} is off the scale`);
  return band.key;
}

/** Whether a completed form must start the safety path (the PHQ-9's item 9 above 0). */
export function needsSafetyPath(instrument: Instrument, answers: readonly (number | null | undefined)[]): boolean {
  return instrument === 'phq9' && (answers[PHQ9_SAFETY_ITEM_INDEX] ?? 0) > 0;
}

export const MEASURE_STATUSES = ['pending', 'completed', 'cancelled'] as const;
export type MeasureStatus = (typeof MEASURE_STATUSES)[number];

export const ALERT_STATUSES = ['open', 'acknowledged'] as const;

export const MEASURE_MESSAGES = {
  notFound: 'Questionnaire not found',
  cannotSend: 'You can send questionnaires only to your own patients.',
  cannotView: 'You do not have permission to view questionnaires',
  cannotRespond: 'Only the patient it was sent to can fill in this questionnaire.',
  alreadyCompleted: 'This questionnaire was already filled in. Thank you.',
  answerEveryItem: 'Please answer every question',
  answerOffScale: 'Each answer must be one of the choices',
  chooseInstrument: 'Please choose a questionnaire',
  alertNotFound: 'Alert not found',
  alertAlreadyAcknowledged: 'This alert was already acknowledged.',
  acknowledgementRequired: 'Please write what you did (at least a few words)',
  cannotAcknowledge: 'Only the patient’s providers can acknowledge this alert.',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const measureMessage = messageSection('measureMessages', MEASURE_MESSAGES);

export const SendQuestionnaireInputSchema = z.object({
  patientId: RecordIdSchema,
  instrument: z.enum(INSTRUMENTS, { error: measureMessage.error('chooseInstrument') }),
});

/** A standing order: send this questionnaire before each of the patient's visits (or stop doing so). */
export const MeasureScheduleInputSchema = z.object({
  patientId: RecordIdSchema,
  instrument: z.enum(INSTRUMENTS, { error: measureMessage.error('chooseInstrument') }),
  beforeEachVisit: z.boolean(),
});

export const SubmitQuestionnaireInputSchema = z.object({
  id: RecordIdSchema,
  answers: z.array(
    z
      .number({ error: measureMessage.error('answerEveryItem') })
      .int({ error: measureMessage.error('answerOffScale') })
      .min(0, { error: measureMessage.error('answerOffScale') })
      .max(3, { error: measureMessage.error('answerOffScale') }),
    { error: measureMessage.error('answerEveryItem') },
  ),
  difficulty: z.number().int().min(0).max(3).nullish(),
});

export const AcknowledgeAlertInputSchema = z.object({
  id: RecordIdSchema,
  note: z
    .string({ error: measureMessage.error('acknowledgementRequired') })
    .trim()
    .min(3, { error: measureMessage.error('acknowledgementRequired') })
    .pipe(textSchema({ label: 'Note', kind: 'free', max: 2_000 })),
});

/** How long before a visit a standing-order questionnaire goes out. */
export const MEASURE_LEAD_HOURS = 72;
/** An alert not acknowledged within this many minutes goes to the administrators (SAFETY_ALERT_ESCALATION_MINUTES). */
export const SAFETY_ALERT_ESCALATION_MINUTES = 60;
