import { INSTRUMENT_DEFINITIONS } from '@telehealth/shared';
import { describe, expect, it } from 'vitest';

import { answerLines, difficultyLine } from './answer-lines.ts';

const stored = (instrument: 'phq9' | 'gad7', values: number[]) =>
  INSTRUMENT_DEFINITIONS[instrument].items.map((item, i) => ({ loinc: item.loinc, value: values[i]! }));

describe('answerLines', () => {
  it('reads every PHQ-9 item with its wording and the answer chosen, and flags item 9 above 0', () => {
    const lines = answerLines('phq9', stored('phq9', [0, 1, 2, 3, 0, 0, 0, 0, 1]), 'en');
    expect(lines).toHaveLength(9);
    expect(lines[0]).toEqual({
      number: 1,
      question: 'Little interest or pleasure in doing things',
      answer: 'Not at all',
      value: 0,
      flagged: false,
    });
    expect(lines[3]).toMatchObject({ answer: 'Nearly every day', value: 3, flagged: false });
    expect(lines[8]).toMatchObject({ number: 9, answer: 'Several days', flagged: true });
    expect(lines.filter((l) => l.flagged)).toHaveLength(1);
  });

  it('does not flag item 9 at "Not at all", nor any GAD-7 item', () => {
    expect(answerLines('phq9', stored('phq9', [3, 3, 3, 3, 3, 3, 3, 3, 0]), 'en').some((l) => l.flagged)).toBe(false);
    expect(answerLines('gad7', stored('gad7', [3, 3, 3, 3, 3, 3, 3]), 'en').some((l) => l.flagged)).toBe(false);
  });

  it('speaks the reader’s language and matches answers by LOINC code, not by position', () => {
    const reversed = [...stored('gad7', [0, 0, 0, 0, 0, 0, 2])].reverse();
    const lines = answerLines('gad7', reversed, 'es');
    expect(lines[0]!.question).toBe('Se ha sentido nervioso(a), ansioso(a) o con los nervios de punta');
    expect(lines[6]).toMatchObject({ answer: 'Más de la mitad de los días', value: 2 });
  });

  it('leaves a missing answer empty rather than guessing', () => {
    expect(answerLines('gad7', [], 'en')[0]).toMatchObject({ answer: null, value: null, flagged: false });
  });
});

describe('difficultyLine', () => {
  it('gives the closing question and its answer, or nothing when skipped', () => {
    expect(difficultyLine('phq9', 2, 'en')?.answer).toBe('Very difficult');
    expect(difficultyLine('phq9', null, 'es')).toBeNull();
  });
});
