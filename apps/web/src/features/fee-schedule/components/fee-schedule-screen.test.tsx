import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { FeeItem } from '../api/fee-schedule-api.ts';
import { FeeScheduleScreen } from './fee-schedule-screen.tsx';

function feeItem(overrides: Partial<FeeItem> = {}): FeeItem {
  return {
    id: `fee-${overrides.code ?? '90834'}`,
    code: '90834',
    shortName: 'Therapy, 45 minutes',
    feeCents: 13000,
    addOn: false,
    active: true,
    example: true,
    ...overrides,
  };
}

const SCHEDULE = [
  feeItem({ code: '90833', shortName: 'Therapy with a visit, 30 minutes', feeCents: 8000, addOn: true }),
  feeItem(),
  feeItem({ code: '96127', shortName: 'Rating scale, scored', feeCents: 1000, active: false, example: false }),
];

function renderScreen(save: (input: Record<string, unknown>) => unknown) {
  let schedule = [...SCHEDULE];
  const graphql = mockGraphQL({
    FeeSchedule: () => ({ feeSchedule: schedule }),
    SaveFeeScheduleItem: ({ input }) => {
      const answer = save(input as Record<string, unknown>);
      if (answer && typeof answer === 'object' && 'errors' in answer) return answer;
      const saved = answer as FeeItem;
      schedule = [...schedule.filter((item) => item.id !== saved.id), saved];
      return { saveFeeScheduleItem: saved };
    },
  });
  renderRoutes([{ path: '/admin/fee-schedule', element: <FeeScheduleScreen /> }], '/admin/fee-schedule');
  return graphql;
}

describe('FeeScheduleScreen', () => {
  it('lists the services with their fees, add-ons, status and the examples to review', async () => {
    renderScreen(() => null);
    const therapy = await screen.findByTestId('fee-item-90834');
    expect(therapy).toHaveTextContent('Therapy, 45 minutes');
    expect(therapy).toHaveTextContent('$130.00');
    expect(therapy).toHaveTextContent('Example, review');
    expect(screen.getByTestId('fee-item-90833')).toHaveTextContent('Yes');
    const scale = screen.getByTestId('fee-item-96127');
    expect(scale).toHaveTextContent('No longer offered');
    expect(scale).not.toHaveTextContent('Example, review');
    expect(
      screen.getByText("Short names are the practice's own; the AMA's descriptions are not shipped."),
    ).toBeVisible();
  });

  it('changes a fee typed as an amount, and the service is no longer an example', async () => {
    const graphql = renderScreen((input) => feeItem({ ...(input as Partial<FeeItem>), example: false }));
    fireEvent.click(await screen.findByRole('button', { name: 'Change 90834' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change 90834' });
    const fee = within(dialog).getByLabelText(/^Fee/);
    expect(fee).toHaveValue('130.00');
    fireEvent.change(fee, { target: { value: '$1,142.5' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('90834 saved.');
    expect(graphql.calls.find((call) => call.operationName === 'SaveFeeScheduleItem')?.variables).toEqual({
      input: {
        id: 'fee-90834',
        code: '90834',
        shortName: 'Therapy, 45 minutes',
        feeCents: 114250,
        addOn: false,
        active: true,
      },
    });
    await waitFor(() => {
      expect(screen.getByTestId('fee-item-90834')).toHaveTextContent('$1,142.50');
    });
    expect(screen.getByTestId('fee-item-90834')).not.toHaveTextContent('Example, review');
  });

  it('refuses a bad code, a blank name and a fee that is not an amount before asking the server; 0 is a fee', async () => {
    const graphql = renderScreen((input) => feeItem({ ...(input as Partial<FeeItem>), id: 'fee-new', example: false }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add a service' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a service' });
    fireEvent.change(within(dialog).getByLabelText(/^Code/), { target: { value: '9083' } });
    fireEvent.change(within(dialog).getByLabelText(/^Fee/), { target: { value: 'ten dollars' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(within(dialog).getByText('Enter a CPT code such as 90834 or an HCPCS code such as G0444')).toBeVisible();
    });
    expect(within(dialog).getByText('Short name is required')).toBeVisible();
    expect(within(dialog).getByText('Enter an amount such as 150 or 150.00')).toBeVisible();
    expect(graphql.calls.some((call) => call.operationName === 'SaveFeeScheduleItem')).toBe(false);

    fireEvent.change(within(dialog).getByLabelText(/^Code/), { target: { value: 'g0444' } });
    fireEvent.change(within(dialog).getByLabelText(/^Short name/), { target: { value: 'Depression screen' } });
    fireEvent.change(within(dialog).getByLabelText(/^Fee/), { target: { value: '0' } });
    fireEvent.click(within(dialog).getByLabelText(/^Add-on code/));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await screen.findByText('G0444 saved.');
    expect(graphql.calls.find((call) => call.operationName === 'SaveFeeScheduleItem')?.variables).toEqual({
      input: { code: 'G0444', shortName: 'Depression screen', feeCents: 0, addOn: true, active: true },
    });
  });

  it("shows the server's refusal of a code already on the schedule beside the code", async () => {
    renderScreen(() => ({
      errors: [
        {
          message: 'The fee schedule already has this code',
          extensions: {
            code: 'BAD_USER_INPUT',
            fields: [{ field: 'code', messageId: 'billingMessages.serviceCodeTaken', params: {} }],
          },
        },
      ],
    }));
    fireEvent.click(await screen.findByRole('button', { name: 'Add a service' }));
    const dialog = await screen.findByRole('dialog', { name: 'Add a service' });
    fireEvent.change(within(dialog).getByLabelText(/^Code/), { target: { value: '90834' } });
    fireEvent.change(within(dialog).getByLabelText(/^Short name/), { target: { value: 'Therapy again' } });
    fireEvent.change(within(dialog).getByLabelText(/^Fee/), { target: { value: '99' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      expect(within(dialog).getByText('The fee schedule already has this code')).toBeVisible();
    });
    expect(within(dialog).getByLabelText(/^Code/)).toHaveAttribute('aria-invalid', 'true');
  });
});
