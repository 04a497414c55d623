import { describe, expect, it } from 'vitest';
import { GAD7, INSTRUMENT_DEFINITIONS, needsSafetyPath, PHQ9, scoreAnswers } from './measures.ts';

/** Answers that add up to `total` (filled from the first item, at most 3 each). */
function answersFor(items: number, total: number): number[] {
  return Array.from({ length: items }, (_, i) => Math.max(0, Math.min(3, total - 3 * i)));
}

describe('scoring', () => {
  // The severity bands at each boundary total.
  const PHQ9_TABLE: [number, string][] = [
    [0, 'minimal'],
    [4, 'minimal'],
    [5, 'mild'],
    [9, 'mild'],
    [10, 'moderate'],
    [14, 'moderate'],
    [15, 'moderatelySevere'],
    [19, 'moderatelySevere'],
    [20, 'severe'],
    [27, 'severe'],
  ];
  const GAD7_TABLE: [number, string][] = [
    [0, 'minimal'],
    [4, 'minimal'],
    [5, 'mild'],
    [9, 'mild'],
    [10, 'moderate'],
    [14, 'moderate'],
    [15, 'severe'],
    [21, 'severe'],
  ];

  it.each(PHQ9_TABLE)('PHQ-9 total %i is %s', (total, band) => {
    expect(scoreAnswers('phq9', answersFor(9, total))).toEqual({ total, band });
  });

  it.each(GAD7_TABLE)('GAD-7 total %i is %s', (total, band) => {
    expect(scoreAnswers('gad7', answersFor(7, total))).toEqual({ total, band });
  });

  it('does not score an incomplete or off-scale form', () => {
    expect(scoreAnswers('phq9', answersFor(8, 5))).toBeNull();
    expect(scoreAnswers('phq9', [...answersFor(8, 5), null])).toBeNull();
    expect(scoreAnswers('gad7', [0, 0, 0, 0, 0, 0, 4])).toBeNull();
    expect(scoreAnswers('gad7', [0, 0, 0, 0, 0, 0, 1.5])).toBeNull();
    expect(scoreAnswers('gad7', [0, 0, 0, 0, 0, 0, -1])).toBeNull();
  });

  it('starts the safety path for a PHQ-9 item 9 above 0 only', () => {
    expect(needsSafetyPath('phq9', [0, 0, 0, 0, 0, 0, 0, 0, 1])).toBe(true);
    expect(needsSafetyPath('phq9', [3, 3, 3, 3, 3, 3, 3, 3, 0])).toBe(false);
    expect(needsSafetyPath('gad7', [3, 3, 3, 3, 3, 3, 3])).toBe(false);
  });
});

describe('the instruments', () => {
  it('have their items, answer scale and LOINC codes', () => {
    expect(PHQ9.items).toHaveLength(9);
    expect(GAD7.items).toHaveLength(7);
    expect([PHQ9.loinc, PHQ9.totalLoinc, GAD7.loinc, GAD7.totalLoinc]).toEqual([
      '44249-1',
      '44261-6',
      '69737-5',
      '70274-6',
    ]);
    expect(PHQ9.items[8]?.loinc).toBe('44260-8');
    for (const definition of Object.values(INSTRUMENT_DEFINITIONS)) {
      expect(definition.options.map((o) => o.text.en)).toEqual([
        'Not at all',
        'Several days',
        'More than half the days',
        'Nearly every day',
      ]);
      expect(new Set(definition.items.map((i) => i.loinc)).size).toBe(definition.items.length);
      for (const item of definition.items) expect(item.text.es.length).toBeGreaterThan(0);
    }
  });
});
