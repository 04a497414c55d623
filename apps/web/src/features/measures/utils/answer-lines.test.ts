import { INSTRUMENT_DEFINITIONS, type Instrument } from '@telehealth/shared';
import { describe, expect, it } from 'vitest';

import { answerLines, difficultyLine } from './answer-lines.ts';

const stored = (instrument: Instrument, values: number[]) =>
  INSTRUMENT_DEFINITIONS[instrument].items.map((item, i) => ({ item: item.id, value: values[i]! }));

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

  it('reads each AUDIT-C item with its own answers, and a PCL-5 by item id (it has no LOINC codes)', () => {
    expect(answerLines('auditc', stored('auditc', [1, 3, 4]), 'en').map((l) => l.answer)).toEqual([
      'Monthly or less',
      '7, 8, or 9',
      'Daily or almost daily',
    ]);
    expect(answerLines('auditc', stored('auditc', [0, 0, 0]), 'es').map((l) => l.answer)).toEqual([
      'Nunca',
      '1 o 2',
      'Nunca',
    ]);
    const pcl = answerLines(
      'pcl5',
      stored(
        'pcl5',
        Array.from({ length: 20 }, (_, i) => i % 5),
      ),
      'en',
    );
    expect(pcl.map((l) => l.answer).slice(0, 5)).toEqual([
      'Not at all',
      'A little bit',
      'Moderately',
      'Quite a bit',
      'Extremely',
    ]);
    expect(pcl.some((l) => l.flagged)).toBe(false);
  });
});

describe('difficultyLine', () => {
  it('gives the closing question and its answer, or nothing when skipped', () => {
    expect(difficultyLine('phq9', 2, 'en')?.answer).toBe('Very difficult');
    expect(difficultyLine('phq9', null, 'es')).toBeNull();
  });

  it('gives nothing for an instrument without the question', () => {
    expect(difficultyLine('pcl5', 1, 'en')).toBeNull();
    expect(difficultyLine('auditc', 1, 'en')).toBeNull();
  });
});
