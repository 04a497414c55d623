import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { TreatmentPlanVersion } from '../api/treatment-plans-api.ts';
import { MyTreatmentPlan } from './my-treatment-plan.tsx';
import { TreatmentPlanPanel } from './treatment-plan-panel.tsx';

const PATIENT_ID = '33333333-3333-4333-8333-333333333333';

function planOf(fields: Partial<TreatmentPlanVersion> = {}): TreatmentPlanVersion {
  return {
    id: 'v1',
    planId: 'p1',
    patientId: PATIENT_ID,
    version: 1,
    status: 'active',
    signed: true,
    problems: [{ diagnosisId: 'd1', code: 'F33.1', title: 'Major depressive disorder, recurrent, moderate' }],
    goals: [
      { description: 'Mood lifts', instrument: 'phq9', targetBelow: 10, targetDate: '2027-03-01' },
      { description: 'Less worry', instrument: 'gad7', targetBelow: 8, targetDate: null },
    ],
    interventions: ['Weekly CBT'],
    targetDate: '2027-06-01',
    reviewDate: '2027-01-15',
    createdByName: 'Maya Okafor',
    createdAt: '2026-11-01T10:00:00.000Z',
    updatedByName: 'Maya Okafor',
    updatedAt: '2026-11-01T10:00:00.000Z',
    signedByName: 'Maya Okafor',
    signedAt: '2026-11-01T11:00:00.000Z',
    acknowledgedAt: null,
    ...fields,
  };
}

describe('TreatmentPlanPanel', () => {
  it("shows each goal's progress from the latest scores, and read only without the right to write", async () => {
    mockGraphQL({ TreatmentPlan: () => ({ treatmentPlan: planOf() }) });
    renderRoutes(
      [
        {
          path: '/chart',
          element: <TreatmentPlanPanel patientId={PATIENT_ID} canWrite={false} scores={{ phq9: 14, gad7: 5 }} />,
        },
      ],
      '/chart',
    );
    expect(await screen.findByText('F33.1')).toBeVisible();
    expect(screen.getByText('Latest score 14: 5 points to go')).toBeVisible();
    expect(screen.getByText('Latest score 5: goal met')).toBeVisible();
    expect(screen.getByText('Not yet acknowledged by the patient')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Edit plan' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign' })).toBeNull();
  });

  it('signs a draft with the password', async () => {
    const { calls } = mockGraphQL({
      TreatmentPlan: () => ({ treatmentPlan: planOf({ signed: false, signedAt: null, signedByName: null }) }),
      SignTreatmentPlan: () => ({ signTreatmentPlan: planOf() }),
    });
    renderRoutes([{ path: '/chart', element: <TreatmentPlanPanel patientId={PATIENT_ID} canWrite /> }], '/chart');
    fireEvent.click(await screen.findByRole('button', { name: 'Sign' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText('Your password'), { target: { value: 'secret' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Sign the plan' }));
    await vi.waitFor(() => expect(calls.some((c) => c.operationName === 'SignTreatmentPlan')).toBe(true));
    expect(calls.find((c) => c.operationName === 'SignTreatmentPlan')?.variables).toEqual({
      input: { id: 'v1', password: 'secret', code: null },
    });
  });
});

describe('MyTreatmentPlan', () => {
  it('lets the patient acknowledge the signed plan once', async () => {
    let acknowledgedAt: string | null = null;
    const { calls } = mockGraphQL({
      TreatmentPlan: () => ({ treatmentPlan: planOf({ acknowledgedAt }) }),
      AcknowledgeTreatmentPlan: () => {
        acknowledgedAt = '2026-11-02T10:00:00.000Z';
        return { acknowledgeTreatmentPlan: planOf({ acknowledgedAt }) };
      },
    });
    renderRoutes([{ path: '/mine', element: <MyTreatmentPlan patientId={PATIENT_ID} canAcknowledge /> }], '/mine');
    fireEvent.click(await screen.findByRole('button', { name: 'I have read this plan' }));
    await vi.waitFor(() => expect(calls.some((c) => c.operationName === 'AcknowledgeTreatmentPlan')).toBe(true));
    expect(calls.find((c) => c.operationName === 'AcknowledgeTreatmentPlan')?.variables).toEqual({ versionId: 'v1' });
    expect(await screen.findByText(/^You said you had read this plan on/)).toBeVisible();
    expect(screen.queryByRole('button', { name: 'I have read this plan' })).toBeNull();
  });
});
