import { describe, expect, it } from 'vitest';
import {
  AUDITC,
  BAND_KEYS,
  GAD7,
  INSTRUMENT_DEFINITIONS,
  INSTRUMENTS,
  needsSafetyPath,
  PCL5,
  PHQ9,
  scoreAnswers,
  SubmitQuestionnaireInputSchema,
} from './measures.ts';

/** Answers that add up to `total` (filled from the first item, at most `top` each). */
function answersFor(items: number, total: number, top = 3): number[] {
  return Array.from({ length: items }, (_, i) => Math.max(0, Math.min(top, total - top * i)));
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

  // PCL-5: no official bands; the provisional cut-point 31-33 taken at 33 (decision 063).
  const PCL5_TABLE: [number, string][] = [
    [0, 'belowThreshold'],
    [32, 'belowThreshold'],
    [33, 'probablePtsd'],
    [80, 'probablePtsd'],
  ];
  // AUDIT-C: positive from 3 (women; 4 for men, and the product knows no sex), high from 8.
  const AUDITC_TABLE: [number, string][] = [
    [0, 'low'],
    [2, 'low'],
    [3, 'positive'],
    [7, 'positive'],
    [8, 'high'],
    [12, 'high'],
  ];

  it.each(PCL5_TABLE)('PCL-5 total %i is %s', (total, band) => {
    expect(scoreAnswers('pcl5', answersFor(20, total, 4))).toEqual({ total, band });
  });

  it.each(AUDITC_TABLE)('AUDIT-C total %i is %s', (total, band) => {
    expect(scoreAnswers('auditc', answersFor(3, total, 4))).toEqual({ total, band });
  });

  it('scores each item on its own scale', () => {
    expect(scoreAnswers('pcl5', [...answersFor(19, 0), 5])).toBeNull();
    expect(scoreAnswers('auditc', [4, 4, 5])).toBeNull();
    expect(scoreAnswers('auditc', [0, 0])).toBeNull();
    expect(scoreAnswers('phq9', [...answersFor(8, 0), 4])).toBeNull();
    // The input schema lets through the widest scale (4); the instrument decides.
    expect(SubmitQuestionnaireInputSchema.safeParse({ id: crypto.randomUUID(), answers: [4] }).success).toBe(true);
    expect(SubmitQuestionnaireInputSchema.safeParse({ id: crypto.randomUUID(), answers: [5] }).success).toBe(false);
  });

  it('never starts the safety path for a PCL-5 or an AUDIT-C', () => {
    expect(
      needsSafetyPath(
        'pcl5',
        Array.from({ length: 20 }, () => 4),
      ),
    ).toBe(false);
    expect(needsSafetyPath('auditc', [4, 4, 4])).toBe(false);
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
    for (const definition of [PHQ9, GAD7]) {
      expect(definition.options.map((o) => o.text.en)).toEqual([
        'Not at all',
        'Several days',
        'More than half the days',
        'Nearly every day',
      ]);
      // Stored answers name these items by their LOINC code, as before decision 063.
      for (const item of definition.items) expect(item.id).toBe(item.loinc);
    }
    for (const definition of Object.values(INSTRUMENT_DEFINITIONS)) {
      expect(new Set(definition.items.map((i) => i.id)).size).toBe(definition.items.length);
      for (const item of definition.items) expect(item.text.es.length).toBeGreaterThan(0);
    }
  });

  it('have the PCL-5 and the AUDIT-C as published, with only verified codes', () => {
    expect(PCL5.items).toHaveLength(20);
    expect(PCL5.options.map((o) => o.text.en)).toEqual([
      'Not at all',
      'A little bit',
      'Moderately',
      'Quite a bit',
      'Extremely',
    ]);
    expect([PCL5.loinc, PCL5.totalLoinc]).toEqual(['101697-1', '101698-9']);
    expect(PCL5.items.every((i) => i.loinc === null)).toBe(true);
    expect(AUDITC.items.map((i) => i.loinc)).toEqual(['68518-0', '68519-8', '68520-6']);
    expect([AUDITC.loinc, AUDITC.totalLoinc]).toEqual(['72109-2', '75626-2']);
    for (const item of AUDITC.items) expect(item.options?.map((o) => o.value)).toEqual([0, 1, 2, 3, 4]);
    expect(AUDITC.maxScore).toBe(12);
  });

  it('have bands that cover the scale without a gap, in the order of their keys', () => {
    for (const instrument of INSTRUMENTS) {
      const { bands, maxScore, items } = INSTRUMENT_DEFINITIONS[instrument];
      expect(bands.map((b) => b.key)).toEqual(BAND_KEYS[instrument]);
      expect(bands[0]?.min).toBe(0);
      expect(bands.at(-1)?.max).toBe(maxScore);
      for (const [i, band] of bands.slice(1).entries()) expect(band.min).toBe(bands[i]!.max + 1);
      const top = Math.max(...INSTRUMENT_DEFINITIONS[instrument].options.map((o) => o.value));
      expect(items.length * top).toBe(maxScore);
    }
  });
});
