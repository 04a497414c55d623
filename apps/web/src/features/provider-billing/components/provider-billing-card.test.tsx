import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import { ProviderBillingCard } from './provider-billing-card.tsx';

const EMPTY = { providerId: 'p-1', npi: null, taxonomyCode: null, licenseState: null, licenseNumber: null };

function renderCard(update: (input: Record<string, unknown>) => unknown) {
  const graphql = mockGraphQL({
    ProviderBilling: () => ({ providerBilling: EMPTY }),
    UpdateProviderBilling: ({ input }) => update(input as Record<string, unknown>),
  });
  renderRoutes([{ path: '/profile', element: <ProviderBillingCard providerId="p-1" /> }], '/profile');
  return graphql;
}

async function fill(npi: string) {
  const card = await screen.findByRole('region', { name: 'Billing identity' });
  fireEvent.change(await within(card).findByLabelText(/^NPI/), { target: { value: npi } });
  fireEvent.change(within(card).getByLabelText(/^Taxonomy code/), { target: { value: '2084P0800X' } });
  fireEvent.change(within(card).getByLabelText(/^Licence state/), { target: { value: 'NY' } });
  fireEvent.change(within(card).getByLabelText(/^Licence number/), { target: { value: 'MD-1' } });
  fireEvent.click(within(card).getByRole('button', { name: 'Save billing identity' }));
  return card;
}

describe('ProviderBillingCard', () => {
  it('refuses a wrong check digit before asking the server, then saves', async () => {
    const graphql = renderCard((input) => ({ updateProviderBilling: { ...EMPTY, ...input } }));
    const card = await fill('1234567890');
    await waitFor(() => {
      expect(within(card).getByLabelText(/^NPI/)).toHaveAccessibleDescription(
        expect.stringContaining('Enter a 10-digit NPI whose check digit is right'),
      );
    });
    expect(graphql.calls.some((call) => call.operationName === 'UpdateProviderBilling')).toBe(false);

    fireEvent.change(within(card).getByLabelText(/^NPI/), { target: { value: '1234567893' } });
    fireEvent.click(within(card).getByRole('button', { name: 'Save billing identity' }));
    await within(card).findByText('Billing identity saved.');
    expect(graphql.calls.find((call) => call.operationName === 'UpdateProviderBilling')?.variables).toEqual({
      providerId: 'p-1',
      input: { npi: '1234567893', taxonomyCode: '2084P0800X', licenseState: 'NY', licenseNumber: 'MD-1' },
    });
  });

  it("shows the server's refusal of an NPI another provider has at the NPI", async () => {
    renderCard(() => ({
      errors: [
        {
          message: 'Another provider already has this NPI',
          extensions: {
            code: 'BAD_USER_INPUT',
            fields: [{ field: 'npi', messageId: 'billingMessages.npiTaken', params: {} }],
          },
        },
      ],
    }));
    const card = await fill('1922034560');
    await waitFor(() => {
      expect(within(card).getByText('Another provider already has this NPI')).toBeVisible();
    });
    expect(within(card).queryByText('Billing identity saved.')).not.toBeInTheDocument();
  });
});
