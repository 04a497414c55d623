import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { Allergy } from '../api/allergies-api.ts';
import { AllergiesPanel } from './allergies-panel.tsx';

const PATIENT_ID = '33333333-3333-4333-8333-333333333333';

function allergyOf(fields: Partial<Allergy> & Pick<Allergy, 'id' | 'substance'>): Allergy {
  return {
    patientId: PATIENT_ID,
    reaction: null,
    severity: 'unknown',
    category: null,
    notedDate: null,
    status: 'active',
    source: 'clinician',
    createdByName: 'Maya Okafor',
    createdAt: '2026-01-02T10:00:00.000Z',
    removedByName: null,
    removedAt: null,
    removalReason: null,
    ...fields,
  };
}

const SEVERE = allergyOf({ id: 'a1', substance: 'Penicillin', severity: 'severe', reaction: 'Anaphylaxis' });
const REPORTED = allergyOf({ id: 'a3', substance: 'Latex', source: 'patient' });
const REMOVED = allergyOf({
  id: 'a2',
  substance: 'Peanuts',
  severity: 'mild',
  status: 'removed',
  removedByName: 'Maya Okafor',
  removedAt: '2026-02-01T10:00:00.000Z',
});

function renderPanel(canWrite: boolean, items: Allergy[] = [SEVERE, REMOVED]) {
  const mock = mockGraphQL({
    PatientAllergies: () => ({ patientAllergies: items }),
    AddAllergy: (variables) => ({
      addAllergy: allergyOf({ id: 'a3', substance: String((variables['input'] as { substance: string }).substance) }),
    }),
  });
  renderRoutes([{ path: '/chart', element: <AllergiesPanel patientId={PATIENT_ID} canWrite={canWrite} /> }], '/chart');
  return mock;
}

describe('AllergiesPanel', () => {
  it('names a severe allergy in words and keeps removed ones behind the toggle', async () => {
    renderPanel(false);
    const items = await screen.findAllByTestId('allergy');
    expect(items).toHaveLength(1);
    expect(within(items[0]!).getByText('Severe')).toBeVisible();
    expect(screen.queryByText('Peanuts')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Add allergy' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Penicillin' })).toBeNull();

    fireEvent.click(screen.getByRole('switch', { name: 'Show removed (1)' }));
    const shown = await screen.findAllByTestId('allergy');
    expect(shown).toHaveLength(2);
    expect(within(shown[1]!).getByText('Removed')).toBeVisible();
    expect(within(shown[1]!).getByText(/^Removed by Maya Okafor on/)).toBeVisible();
  });

  it('adds an allergy with the shared schema’s values', async () => {
    const { calls } = renderPanel(true, []);
    expect(await screen.findByText('No allergies recorded in this list.')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Add allergy' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Substance/ }), { target: { value: ' Latex ' } });
    fireEvent.change(within(dialog).getByRole('combobox', { name: /Severity/ }), { target: { value: 'moderate' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add allergy' }));
    await vi.waitFor(() => expect(calls.some((call) => call.operationName === 'AddAllergy')).toBe(true));
    expect(calls.find((call) => call.operationName === 'AddAllergy')?.variables).toEqual({
      input: {
        patientId: PATIENT_ID,
        substance: 'Latex',
        reaction: null,
        severity: 'moderate',
        category: null,
        notedDate: null,
      },
    });
    await vi.waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('marks an allergy the patient reported in their intake with a badge', async () => {
    renderPanel(false, [SEVERE, REPORTED]);
    const items = await screen.findAllByTestId('allergy');
    const latex = items.find((item) => item.textContent?.includes('Latex'))!;
    expect(within(latex).getByTestId('reported-by-patient').textContent).toBe('Reported by patient');
    const penicillin = items.find((item) => item.textContent?.includes('Penicillin'))!;
    expect(within(penicillin).queryByTestId('reported-by-patient')).toBeNull();
  });
});
