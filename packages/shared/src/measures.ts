import { messageSection } from './field-messages.ts';
import { z } from 'zod';
import { RecordIdSchema, textSchema } from './text.ts';

/**
 * Rating scales (measurement-based care, decisions 028 and 063): the PHQ-9, the GAD-7, the PCL-5 and the AUDIT-C,
 * with their exact items and answer scales in English and Spanish, the notice each carries, their LOINC codes (for
 * export, where verified) and their scoring. The C-SSRS is deliberately absent: its electronic use needs a licence.
 */
export const INSTRUMENTS = ['phq9', 'gad7', 'pcl5', 'auditc'] as const;
export type Instrument = (typeof INSTRUMENTS)[number];

/** Each instrument's severity bands, lowest first: a definition may use only its own. */
export const BAND_KEYS = {
  phq9: ['minimal', 'mild', 'moderate', 'moderatelySevere', 'severe'],
  gad7: ['minimal', 'mild', 'moderate', 'severe'],
  pcl5: ['belowThreshold', 'probablePtsd'],
  auditc: ['low', 'positive', 'high'],
} as const satisfies Record<Instrument, readonly string[]>;
export type BandKey<I extends Instrument = Instrument> = (typeof BAND_KEYS)[I][number];

type Text = { en: string; es: string };

export interface InstrumentItem {
  /**
   * How a stored answer names the item: its LOINC code where it has one (so forms stored before this field read
   * the same), else the instrument and the item's number ("pcl5-01").
   */
  id: string;
  /** The item's LOINC code; null where no code could be verified (decision 063): exports then name the item. */
  loinc: string | null;
  text: Text;
  /** The item's own answers, when they differ from the instrument's (the AUDIT-C). */
  options?: readonly AnswerOption[];
}

export interface AnswerOption {
  value: number;
  /** The answer's LOINC answer code; null where none was verified. */
  loinc: string | null;
  text: Text;
}

export interface SeverityBand<I extends Instrument = Instrument> {
  key: BandKey<I>;
  min: number;
  max: number;
}

export interface InstrumentDefinition<I extends Instrument = Instrument> {
  id: I;
  name: string;
  /** The panel's LOINC code and the total score's. */
  loinc: string;
  totalLoinc: string;
  question: Text;
  items: readonly InstrumentItem[];
  options: readonly AnswerOption[];
  /** The closing question (not scored), for the instruments that have one. */
  difficulty: { loinc: string; text: Text; options: readonly AnswerOption[] } | null;
  bands: readonly SeverityBand<I>[];
  maxScore: number;
  /** From this band up the provider reads the answers before the visit (the patient is told so). */
  reviewFrom: BandKey<I>;
  /** The notice the instrument carries, shown under the form. */
  notice: Text;
}

/** An item named by its LOINC code (the PHQ-9's and the GAD-7's: every one has a code). */
function coded(loinc: string, text: Text): InstrumentItem {
  return { id: loinc, loinc, text };
}

/** The notice the PHQ-9 and the GAD-7 carry; it must be shown with them. */
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

export const PHQ9: InstrumentDefinition<'phq9'> = {
  id: 'phq9',
  name: 'PHQ-9',
  loinc: '44249-1',
  totalLoinc: '44261-6',
  question: {
    en: 'Over the last 2 weeks, how often have you been bothered by any of the following problems?',
    es: 'Durante las últimas 2 semanas, ¿qué tan seguido ha tenido molestias debido a los siguientes problemas?',
  },
  items: [
    coded('44250-9', { en: 'Little interest or pleasure in doing things', es: 'Poco interés o placer en hacer cosas' }),
    coded('44255-8', {
      en: 'Feeling down, depressed, or hopeless',
      es: 'Se ha sentido decaído(a), deprimido(a) o sin esperanzas',
    }),
    coded('44259-0', {
      en: 'Trouble falling or staying asleep, or sleeping too much',
      es: 'Ha tenido dificultad para quedarse o permanecer dormido(a), o ha dormido demasiado',
    }),
    coded('44254-1', {
      en: 'Feeling tired or having little energy',
      es: 'Se ha sentido cansado(a) o con poca energía',
    }),
    coded('44251-7', { en: 'Poor appetite or overeating', es: 'Sin apetito o ha comido en exceso' }),
    coded('44258-2', {
      en: 'Feeling bad about yourself — or that you are a failure or have let yourself or your family down',
      es: 'Se ha sentido mal con usted mismo(a) — o que es un fracaso o que ha quedado mal con usted mismo(a) o con su familia',
    }),
    coded('44252-5', {
      en: 'Trouble concentrating on things, such as reading the newspaper or watching television',
      es: 'Ha tenido dificultad para concentrarse en ciertas actividades, tales como leer el periódico o ver la televisión',
    }),
    coded('44253-3', {
      en: 'Moving or speaking so slowly that other people could have noticed? Or the opposite — being so fidgety or restless that you have been moving around a lot more than usual',
      es: '¿Se ha movido o hablado tan lento que otras personas podrían haberlo notado? o lo contrario — muy inquieto(a) o agitado(a) que ha estado moviéndose mucho más de lo normal',
    }),
    coded('44260-8', {
      en: 'Thoughts that you would be better off dead or of hurting yourself in some way',
      es: 'Pensamientos de que estaría mejor muerto(a) o de lastimarse de alguna manera',
    }),
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
  reviewFrom: 'moderate',
  notice: INSTRUMENT_NOTICE,
};

export const GAD7: InstrumentDefinition<'gad7'> = {
  id: 'gad7',
  name: 'GAD-7',
  loinc: '69737-5',
  totalLoinc: '70274-6',
  question: {
    en: 'Over the last 2 weeks, how often have you been bothered by the following problems?',
    es: 'Durante las últimas 2 semanas, ¿con qué frecuencia le han molestado los siguientes problemas?',
  },
  items: [
    coded('69725-0', {
      en: 'Feeling nervous, anxious, or on edge',
      es: 'Se ha sentido nervioso(a), ansioso(a) o con los nervios de punta',
    }),
    coded('68509-9', {
      en: 'Not being able to stop or control worrying',
      es: 'No ha sido capaz de parar o controlar su preocupación',
    }),
    coded('69733-4', {
      en: 'Worrying too much about different things',
      es: 'Se ha preocupado demasiado por motivos diferentes',
    }),
    coded('69734-2', { en: 'Trouble relaxing', es: 'Ha tenido dificultad para relajarse' }),
    coded('69735-9', {
      en: 'Being so restless that it is hard to sit still',
      es: 'Se ha sentido tan inquieto(a) que no ha podido quedarse quieto(a)',
    }),
    coded('69689-8', { en: 'Becoming easily annoyed or irritable', es: 'Se ha molestado o irritado fácilmente' }),
    coded('69736-7', {
      en: 'Feeling afraid, as if something awful might happen',
      es: 'Ha tenido miedo de que algo terrible fuera a pasar',
    }),
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
  reviewFrom: 'moderate',
  notice: INSTRUMENT_NOTICE,
};

/** The PCL-5's items and their number ("pcl5-01"): no item code could be verified, the panel's and total's could. */
function pcl5Item(number: number, text: Text): InstrumentItem {
  return { id: `pcl5-${String(number).padStart(2, '0')}`, loinc: null, text };
}

/**
 * The PTSD Checklist for DSM-5 (National Center for PTSD, a work of the US Government, public domain). English:
 * the standard form's wording. Spanish: items 7-20 as in the Spanish adaptation by J. Sanz, M. P. García-Vera et
 * al. (Universidad Complutense de Madrid, 2016); the question, items 1-6 and "Nada" are the practice's translation
 * (decision 063).
 */
export const PCL5: InstrumentDefinition<'pcl5'> = {
  id: 'pcl5',
  name: 'PCL-5',
  loinc: '101697-1',
  totalLoinc: '101698-9',
  question: {
    en: 'Below is a list of problems that people sometimes have in response to a very stressful experience. In the past month, how much were you bothered by:',
    es: 'A continuación hay una lista de problemas que las personas a veces tienen como respuesta a una experiencia muy estresante. En el último mes, ¿cuánto le ha molestado:',
  },
  items: [
    pcl5Item(1, {
      en: 'Repeated, disturbing, and unwanted memories of the stressful experience?',
      es: 'Recuerdos repetidos, perturbadores e indeseados de la experiencia estresante?',
    }),
    pcl5Item(2, {
      en: 'Repeated, disturbing dreams of the stressful experience?',
      es: 'Sueños repetidos y perturbadores sobre la experiencia estresante?',
    }),
    pcl5Item(3, {
      en: 'Suddenly feeling or acting as if the stressful experience were actually happening again (as if you were actually back there reliving it)?',
      es: 'Sentir o actuar de repente como si la experiencia estresante estuviera sucediendo otra vez (como si estuviera realmente allí reviviéndola)?',
    }),
    pcl5Item(4, {
      en: 'Feeling very upset when something reminded you of the stressful experience?',
      es: 'Sentirse muy alterado cuando algo le recordaba la experiencia estresante?',
    }),
    pcl5Item(5, {
      en: 'Having strong physical reactions when something reminded you of the stressful experience (for example, heart pounding, trouble breathing, sweating)?',
      es: 'Tener fuertes reacciones físicas cuando algo le recordaba la experiencia estresante (por ejemplo, el corazón latiendo con fuerza, dificultad para respirar, sudoración)?',
    }),
    pcl5Item(6, {
      en: 'Avoiding memories, thoughts, or feelings related to the stressful experience?',
      es: 'Evitar recuerdos, pensamientos o sentimientos relacionados con la experiencia estresante?',
    }),
    pcl5Item(7, {
      en: 'Avoiding external reminders of the stressful experience (for example, people, places, conversations, activities, objects, or situations)?',
      es: 'Evitar recordatorios externos de la experiencia estresante (por ejemplo, personas, lugares, conversaciones, actividades, objetos o situaciones que le recordasen la experiencia estresante)?',
    }),
    pcl5Item(8, {
      en: 'Trouble remembering important parts of the stressful experience?',
      es: 'Tener problemas para recordar partes importantes de la experiencia estresante?',
    }),
    pcl5Item(9, {
      en: 'Having strong negative beliefs about yourself, other people, or the world (for example, having thoughts such as: I am bad, there is something seriously wrong with me, no one can be trusted, the world is completely dangerous)?',
      es: 'Tener firmes creencias negativas sobre usted mismo, los demás o el mundo (por ejemplo, tener pensamientos como: “estoy mal”, “algo muy grave me pasa”, “no se puede confiar en nadie”, “el mundo es muy peligroso”)?',
    }),
    pcl5Item(10, {
      en: 'Blaming yourself or someone else for the stressful experience or what happened after it?',
      es: 'Culparse o culpar a alguien por la experiencia estresante o por lo que sucedió después de ella?',
    }),
    pcl5Item(11, {
      en: 'Having strong negative feelings such as fear, horror, anger, guilt, or shame?',
      es: 'Tener fuertes sentimientos negativos como miedo, horror, ira, culpa o vergüenza?',
    }),
    pcl5Item(12, {
      en: 'Loss of interest in activities that you used to enjoy?',
      es: 'Perder el interés en las actividades con las que solía disfrutar?',
    }),
    pcl5Item(13, {
      en: 'Feeling distant or cut off from other people?',
      es: 'Sentirse distante o alejado de los demás?',
    }),
    pcl5Item(14, {
      en: 'Trouble experiencing positive feelings (for example, being unable to feel happiness or have loving feelings for people close to you)?',
      es: 'Tener problemas para experimentar sentimientos positivos (por ejemplo, ser incapaz de sentir felicidad o de tener sentimientos de amor hacia las personas cercanas a usted)?',
    }),
    pcl5Item(15, {
      en: 'Irritable behavior, angry outbursts, or acting aggressively?',
      es: 'Tener un comportamiento irritable o arrebatos de ira, o actuar agresivamente?',
    }),
    pcl5Item(16, {
      en: 'Taking too many risks or doing things that could cause you harm?',
      es: 'Correr demasiados riesgos o hacer cosas que podían causarle daño?',
    }),
    pcl5Item(17, {
      en: 'Being “superalert” or watchful or on guard?',
      es: 'Sentirse “superalerta”, mantenerse vigilante o estar en guardia?',
    }),
    pcl5Item(18, { en: 'Feeling jumpy or easily startled?', es: 'Asustarse o sobresaltarse con facilidad?' }),
    pcl5Item(19, { en: 'Having difficulty concentrating?', es: 'Tener dificultades para concentrarse?' }),
    pcl5Item(20, {
      en: 'Trouble falling or staying asleep?',
      es: 'Tener problemas para quedarse dormido o para permanecer dormido?',
    }),
  ],
  // No LOINC answer code for these five could be verified (decision 063).
  options: [
    { value: 0, loinc: null, text: { en: 'Not at all', es: 'Nada' } },
    { value: 1, loinc: null, text: { en: 'A little bit', es: 'Un poco' } },
    { value: 2, loinc: null, text: { en: 'Moderately', es: 'Moderadamente' } },
    { value: 3, loinc: null, text: { en: 'Quite a bit', es: 'Bastante' } },
    { value: 4, loinc: null, text: { en: 'Extremely', es: 'Extremadamente' } },
  ],
  difficulty: null,
  // No official severity bands: the provisional cut-point of 31-33 is taken at 33 (decision 063).
  bands: [
    { key: 'belowThreshold', min: 0, max: 32 },
    { key: 'probablePtsd', min: 33, max: 80 },
  ],
  maxScore: 80,
  reviewFrom: 'probablePtsd',
  notice: {
    en: 'PTSD Checklist for DSM-5 (PCL-5): Weathers, Litz, Keane, Palmieri, Marx and Schnurr, National Center for PTSD, 2013. A work of the US Government, in the public domain.',
    es: 'Lista de verificación del TEPT para el DSM-5 (PCL-5): Weathers, Litz, Keane, Palmieri, Marx y Schnurr, National Center for PTSD, 2013; obra del Gobierno de EE. UU., de dominio público. Ítems 7 a 20: adaptación española de J. Sanz, M. P. García-Vera y cols., Universidad Complutense de Madrid, 2016; el resto, traducción de la consulta.',
  },
};

const NEVER = { en: 'Never', es: 'Nunca' };

/**
 * The AUDIT-C: the first three questions of the WHO's AUDIT (Babor, Higgins-Biddle, Saunders and Monteiro, 2001),
 * each with its own answers; English and Spanish as in the WHO's manual and its Spanish edition.
 */
export const AUDITC: InstrumentDefinition<'auditc'> = {
  id: 'auditc',
  name: 'AUDIT-C',
  loinc: '72109-2',
  totalLoinc: '75626-2',
  question: {
    en: 'Please choose the answer that is correct for you.',
    es: 'Por favor, elija la respuesta que corresponda a su caso.',
  },
  items: [
    {
      id: '68518-0',
      loinc: '68518-0',
      text: {
        en: 'How often do you have a drink containing alcohol?',
        es: '¿Con qué frecuencia consume alguna bebida alcohólica?',
      },
      options: [
        { value: 0, loinc: 'LA6270-8', text: NEVER },
        { value: 1, loinc: 'LA18926-8', text: { en: 'Monthly or less', es: 'Una o menos veces al mes' } },
        { value: 2, loinc: 'LA18927-6', text: { en: '2 to 4 times a month', es: 'De 2 a 4 veces al mes' } },
        { value: 3, loinc: 'LA18928-4', text: { en: '2 to 3 times a week', es: 'De 2 a 3 veces a la semana' } },
        { value: 4, loinc: 'LA18929-2', text: { en: '4 or more times a week', es: '4 o más veces a la semana' } },
      ],
    },
    {
      id: '68519-8',
      loinc: '68519-8',
      text: {
        en: 'How many drinks containing alcohol do you have on a typical day when you are drinking?',
        es: '¿Cuántas consumiciones de bebidas alcohólicas suele realizar en un día de consumo normal?',
      },
      options: [
        { value: 0, loinc: 'LA15694-5', text: { en: '1 or 2', es: '1 o 2' } },
        { value: 1, loinc: 'LA15695-2', text: { en: '3 or 4', es: '3 o 4' } },
        { value: 2, loinc: 'LA18930-0', text: { en: '5 or 6', es: '5 o 6' } },
        { value: 3, loinc: 'LA18931-8', text: { en: '7, 8, or 9', es: 'De 7 a 9' } },
        { value: 4, loinc: 'LA18932-6', text: { en: '10 or more', es: '10 o más' } },
      ],
    },
    {
      id: '68520-6',
      loinc: '68520-6',
      text: {
        en: 'How often do you have six or more drinks on one occasion?',
        es: '¿Con qué frecuencia toma 6 o más bebidas alcohólicas en un solo día?',
      },
      options: [
        { value: 0, loinc: 'LA6270-8', text: NEVER },
        { value: 1, loinc: 'LA18933-4', text: { en: 'Less than monthly', es: 'Menos de una vez al mes' } },
        { value: 2, loinc: 'LA18876-5', text: { en: 'Monthly', es: 'Mensualmente' } },
        { value: 3, loinc: 'LA18891-4', text: { en: 'Weekly', es: 'Semanalmente' } },
        { value: 4, loinc: 'LA18934-2', text: { en: 'Daily or almost daily', es: 'A diario o casi a diario' } },
      ],
    },
  ],
  // Every item has its own answers; this scale is never shown (it states the instrument's range, 0-4).
  options: [0, 1, 2, 3, 4].map((value) => ({ value, loinc: null, text: { en: String(value), es: String(value) } })),
  difficulty: null,
  // Positive at 4+ for men and 3+ for women; the product knows no sex, so "positive" starts at 3 (decision 063).
  bands: [
    { key: 'low', min: 0, max: 2 },
    { key: 'positive', min: 3, max: 7 },
    { key: 'high', min: 8, max: 12 },
  ],
  maxScore: 12,
  reviewFrom: 'positive',
  notice: {
    en: 'AUDIT-C: questions 1 to 3 of the Alcohol Use Disorders Identification Test (AUDIT), World Health Organization (Babor, Higgins-Biddle, Saunders and Monteiro, 2001).',
    es: 'AUDIT-C: preguntas 1 a 3 del Cuestionario de Identificación de los Trastornos debidos al Consumo de Alcohol (AUDIT), Organización Mundial de la Salud (Babor, Higgins-Biddle, Saunders y Monteiro, 2001).',
  },
};

export const INSTRUMENT_DEFINITIONS: Readonly<Record<Instrument, InstrumentDefinition>> = {
  phq9: PHQ9,
  gad7: GAD7,
  pcl5: PCL5,
  auditc: AUDITC,
} satisfies { [I in Instrument]: InstrumentDefinition<I> };

/**
 * A stored answer (kept encrypted by the server): the item (its id), its LOINC code (null where none was verified)
 * and the value chosen. Forms stored before decision 063 have no `item`: their LOINC code is the item's id.
 */
export interface StoredAnswer {
  item?: string;
  loinc: string | null;
  value: number;
}

/** The item a stored answer belongs to (`item`, or the LOINC code of a form stored before it existed). */
export function itemIdOf(answer: StoredAnswer): string {
  return answer.item ?? answer.loinc ?? '';
}

/** The answers an item offers: its own (the AUDIT-C's) or the instrument's scale. */
export function optionsOf(definition: InstrumentDefinition, index: number): readonly AnswerOption[] {
  return definition.items[index]?.options ?? definition.options;
}

/** The highest value any item of any instrument can take (the PCL-5's and the AUDIT-C's 4). */
export const MAX_ANSWER_VALUE = Math.max(
  ...Object.values(INSTRUMENT_DEFINITIONS).flatMap((d) =>
    d.items.flatMap((_, i) => optionsOf(d, i).map((o) => o.value)),
  ),
);

/** The PHQ-9's item 9 (thoughts of being better off dead or of self-harm): any answer above 0 starts the safety path. */
export const PHQ9_SAFETY_ITEM_INDEX = 8;

export interface Score {
  total: number;
  band: BandKey;
}

/**
 * The total and its severity band, or null for an incomplete form (an item unanswered or off the scale): an
 * incomplete form is never scored.
 */
export function scoreAnswers(instrument: Instrument, answers: readonly (number | null | undefined)[]): Score | null {
  const definition = INSTRUMENT_DEFINITIONS[instrument];
  if (answers.length !== definition.items.length) return null;
  let total = 0;
  for (const [index, answer] of answers.entries()) {
    if (typeof answer !== 'number' || !optionsOf(definition, index).some((o) => o.value === answer)) return null;
    total += answer;
  }
  return { total, band: bandOf(instrument, total) };
}

export function bandOf(instrument: Instrument, total: number): BandKey {
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
      // The widest scale of any instrument; the server then checks each answer against its own item.
      .max(MAX_ANSWER_VALUE, { error: measureMessage.error('answerOffScale') }),
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
