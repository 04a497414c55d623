import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import { MyBillingScreen } from './my-billing-screen.tsx';

const PATIENT_ID = '22222222-2222-4222-8222-222222222222';
const VISIT_ID = '33333333-3333-4333-8333-333333333333';

function render(billing: Record<string, unknown>) {
  mockGraphQL({ MyBilling: () => ({ myBilling: { patientId: PATIENT_ID, ...billing } }) });
  renderRoutes([{ path: '/my/billing', element: <MyBillingScreen /> }], '/my/billing');
}

describe('MyBillingScreen', () => {
  it('shows what the patient owes, their entries and a superbill per coded visit', async () => {
    render({
      balanceCents: 7550,
      entries: [
        { id: 'e2', date: '2026-11-03', kind: 'payment', code: null, amountCents: -10000 },
        { id: 'e1', date: '2026-11-02', kind: 'charge', code: '99214', amountCents: 17550 },
      ],
      visits: [{ appointmentId: VISIT_ID, serviceDate: '2026-11-02', providerName: 'Sarah Johnson' }],
    });
    expect(await screen.findByTestId('my-billing-balance')).toHaveTextContent('You owe $75.50');
    const table = screen.getByRole('region', { name: 'Entries of your account' });
    expect(
      within(table)
        .getAllByRole('row')
        .map((row) => row.textContent),
    ).toEqual(['DateDescriptionAmount', 'Nov 3, 2026Payment-$100.00', 'Nov 2, 2026Service 99214$175.50']);
    expect(screen.getByText('Visit on Nov 2, 2026 with Sarah Johnson')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Download superbill for the visit on Nov 2, 2026' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Download statement' })).toBeEnabled();
  });

  it('says when nothing is billed and a credit', async () => {
    render({ balanceCents: -2000, entries: [], visits: [] });
    expect(await screen.findByTestId('my-billing-balance')).toHaveTextContent('You have a credit of $20.00');
    expect(screen.getByText('Nothing has been billed yet.')).toBeInTheDocument();
    expect(screen.getByText('No visit has been billed yet.')).toBeInTheDocument();
  });
});
