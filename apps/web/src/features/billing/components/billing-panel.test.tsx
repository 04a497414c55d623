import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { LedgerEntry, PatientLedger } from '../api/billing-api.ts';
import { BillingPanel } from './billing-panel.tsx';

const PATIENT_ID = '33333333-3333-4333-8333-333333333333';

const CHARGE: LedgerEntry = {
  id: 'e1',
  kind: 'charge',
  amountCents: 17500,
  entryDate: '2026-11-20',
  method: null,
  reference: null,
  reason: null,
  reversesId: null,
  reversedById: null,
  appointmentId: '44444444-4444-4444-8444-444444444444',
  code: '99214',
  modifiers: ['95'],
  enteredByName: 'Maya Okafor',
  enteredAt: '2026-11-20T15:00:00.000Z',
};

function renderPanel(
  canWrite: boolean,
  ledger: PatientLedger = { patientId: PATIENT_ID, balanceCents: 17500, entries: [CHARGE] },
) {
  const mock = mockGraphQL({
    PatientLedger: () => ({ patientLedger: ledger }),
    RecordPayment: () => ({
      recordPayment: {
        ...CHARGE,
        id: 'e2',
        kind: 'payment',
        amountCents: -17500,
        method: 'card',
        code: null,
        modifiers: [],
      },
    }),
  });
  renderRoutes([{ path: '/chart', element: <BillingPanel patientId={PATIENT_ID} canWrite={canWrite} /> }], '/chart');
  return mock;
}

describe('BillingPanel and the payment form', () => {
  it('shows the balance and the charge with its code, read only without billing:write', async () => {
    renderPanel(false);
    expect(await screen.findByTestId('ledger-balance')).toHaveTextContent('Balance: $175.00');
    const row = screen.getByTestId('ledger-entry');
    expect(within(row).getByText('99214-95')).toBeVisible();
    expect(within(row).getByText('$175.00')).toBeVisible();
    expect(within(row).getByText('Maya Okafor')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Record payment' })).toBeNull();
    expect(screen.queryByRole('button', { name: /^Reverse the Charge/ })).toBeNull();
  });

  it('refuses an amount that is not one, then records the payment in cents', async () => {
    const { calls } = renderPanel(true);
    fireEvent.click(await screen.findByRole('button', { name: 'Record payment' }));
    const dialog = await screen.findByRole('dialog');
    const amount = within(dialog).getByRole('textbox', { name: /Amount/ });
    fireEvent.change(amount, { target: { value: '12.345' } });
    fireEvent.change(within(dialog).getByRole('combobox', { name: /Method/ }), { target: { value: 'card' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    expect(await within(dialog).findByText('Enter an amount such as 150 or 150.00')).toBeVisible();
    expect(calls.some((call) => call.operationName === 'RecordPayment')).toBe(false);

    fireEvent.change(amount, { target: { value: '$175' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /Reference/ }), { target: { value: 'R-88' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Record payment' }));
    await vi.waitFor(() => expect(calls.some((call) => call.operationName === 'RecordPayment')).toBe(true));
    const input = (
      calls.find((call) => call.operationName === 'RecordPayment')?.variables as { input: Record<string, unknown> }
    ).input;
    expect(input).toMatchObject({ patientId: PATIENT_ID, amountCents: 17500, method: 'card', reference: 'R-88' });
    expect(input['receivedOn']).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });
});
