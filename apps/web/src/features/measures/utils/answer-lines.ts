import { INSTRUMENT_DEFINITIONS, optionsOf, PHQ9_SAFETY_ITEM_INDEX, type Instrument } from '@telehealth/shared';

export interface AnswerLine {
  /** 1-based, as printed on the form. */
  number: number;
  question: string;
  /** The answer chosen, in the reader's language ("Several days"); null when the item's answer is missing. */
  answer: string | null;
  value: number | null;
  /** The PHQ-9's item 9 answered above "Not at all": the clinician's eye goes there first. */
  flagged: boolean;
}

/**
 * A completed questionnaire's answers, item by item, in the form's order with the instrument's own wording in
 * `language`. Answers are matched by the item's id (its LOINC code where it has one: how the server stores them), so
 * a stored form is read right whatever order it was kept in.
 */
export function answerLines(
  instrument: Instrument,
  answers: readonly { item: string; value: number }[],
  language: 'en' | 'es',
): AnswerLine[] {
  const definition = INSTRUMENT_DEFINITIONS[instrument];
  return definition.items.map((item, index) => {
    const value = answers.find((a) => a.item === item.id)?.value ?? null;
    const option = optionsOf(definition, index).find((o) => o.value === value);
    return {
      number: index + 1,
      question: item.text[language],
      answer: option ? option.text[language] : null,
      value,
      flagged: instrument === 'phq9' && index === PHQ9_SAFETY_ITEM_INDEX && (value ?? 0) > 0,
    };
  });
}

/**
 * The closing difficulty question and its answer in `language`, or null when the patient left it out or the
 * instrument has none (the PCL-5, the AUDIT-C).
 */
export function difficultyLine(
  instrument: Instrument,
  value: number | null,
  language: 'en' | 'es',
): { question: string; answer: string } | null {
  const { difficulty } = INSTRUMENT_DEFINITIONS[instrument];
  const option = difficulty?.options.find((o) => o.value === value);
  return difficulty && option ? { question: difficulty.text[language], answer: option.text[language] } : null;
}
