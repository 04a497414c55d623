import { describe, expect, it } from 'vitest';
import { INSTRUMENTS } from './measures.ts';
import { OUTCOME_INSTRUMENTS, OUTCOME_THRESHOLDS, PracticeOutcomesInputSchema } from './outcomes.ts';

describe('the outcomes’ definitions', () => {
  it('defines response and remission for PHQ-9 and GAD-7, instruments of the product', () => {
    expect(OUTCOME_INSTRUMENTS).toEqual(['phq9', 'gad7']);
    for (const instrument of OUTCOME_INSTRUMENTS) expect(INSTRUMENTS).toContain(instrument);
    expect(OUTCOME_THRESHOLDS).toEqual({
      phq9: { baselineMin: 10, remissionBelow: 5 },
      gad7: { baselineMin: 10, remissionBelow: 5 },
    });
  });

  it('takes a period, an outcome instrument and an optional provider', () => {
    const period = { startDate: '2026-01-01', endDate: '2026-12-31' };
    expect(PracticeOutcomesInputSchema.safeParse({ ...period, instrument: 'gad7' }).success).toBe(true);
    expect(PracticeOutcomesInputSchema.safeParse({ ...period, instrument: 'gad7', providerId: null }).success).toBe(
      true,
    );
    const wrong = PracticeOutcomesInputSchema.safeParse({ ...period, instrument: 'pcl5' });
    expect(wrong.error?.issues[0]?.message).toBe('Please choose PHQ-9 or GAD-7');
    const reversed = PracticeOutcomesInputSchema.safeParse({ ...period, endDate: '2025-12-31', instrument: 'phq9' });
    expect(reversed.error?.issues[0]?.path).toEqual(['endDate']);
    const tooLong = PracticeOutcomesInputSchema.safeParse({
      startDate: '2025-01-01',
      endDate: '2026-12-31',
      instrument: 'phq9',
    });
    expect(tooLong.error?.issues[0]?.path).toEqual(['endDate']);
  });
});
