import { describe, expect, it } from 'vitest';
import { goalProgress, SaveTreatmentPlanInputSchema } from './treatment-plans.ts';

const base = { patientId: 'p1', status: 'active', reviewDate: '2030-01-01' };

describe('the treatment plan schema', () => {
  it('takes a goal with a target within the scale, and a review date in the future', () => {
    const parsed = SaveTreatmentPlanInputSchema.parse({
      ...base,
      problemIds: ['d1', 'd1'],
      goals: [{ description: ' Mood lifts ', instrument: 'phq9', targetBelow: 10, targetDate: '2031-02-03' }],
      interventions: ['Weekly CBT'],
    });
    expect(parsed.problemIds).toEqual(['d1']);
    expect(parsed.goals[0]).toMatchObject({ instrument: 'phq9', targetBelow: 10, targetDate: '2031-02-03' });
  });

  it('refuses a target above the scale or without its questionnaire, and a plan without a review date', () => {
    const issues = (input: object) =>
      SaveTreatmentPlanInputSchema.safeParse({ ...base, ...input }).error?.issues.map((i) => i.path.join('.'));
    expect(issues({ goals: [{ description: 'x', instrument: 'gad7', targetBelow: 22 }] })).toEqual([
      'goals.0.targetBelow',
    ]);
    expect(issues({ goals: [{ description: 'x', targetBelow: 5 }] })).toEqual(['goals.0.instrument']);
    expect(issues({ reviewDate: '' })).toEqual(['reviewDate']);
    expect(issues({ reviewDate: '2030-02-30' })).toEqual(['reviewDate']);
  });
});

describe('goalProgress', () => {
  it('says whether the latest score is under the target, or how many points are left', () => {
    expect(goalProgress({ instrument: 'phq9', targetBelow: 10 }, 8)).toEqual({ met: true, pointsToGo: 0 });
    expect(goalProgress({ instrument: 'phq9', targetBelow: 10 }, 14)).toEqual({ met: false, pointsToGo: 5 });
    expect(goalProgress({ instrument: null, targetBelow: null }, 14)).toBeNull();
    expect(goalProgress({ instrument: 'phq9', targetBelow: 10 }, null)).toBeNull();
  });
});
