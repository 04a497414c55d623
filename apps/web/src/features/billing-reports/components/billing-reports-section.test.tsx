import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';

import { i18n } from '../../../lib/i18n.ts';
import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { AgingReport, BillingReport, UncodedVisits } from '../api/billing-reports-api.ts';
import { BillingReportsSection, defaultBillingDates } from './billing-reports-section.tsx';

const BILLING: BillingReport = {
  from: '2026-11-01',
  to: '2026-11-30',
  rows: [
    {
      providerId: 'p1',
      providerName: 'Sarah Chen',
      month: '2026-11',
      chargesCents: 3500000,
      paymentsCents: 12000,
      adjustmentsCents: -2000,
    },
    {
      providerId: null,
      providerName: null,
      month: '2026-11',
      chargesCents: 0,
      paymentsCents: 9000,
      adjustmentsCents: 0,
    },
  ],
  totals: { chargesCents: 3500000, paymentsCents: 21000, adjustmentsCents: -2000 },
};

const buckets = (a: number, b: number, c: number, d: number) => [
  { bucket: '0-30', cents: a },
  { bucket: '31-60', cents: b },
  { bucket: '61-90', cents: c },
  { bucket: 'over-90', cents: d },
];

const AGING: AgingReport = {
  asOf: '2026-11-28',
  totalCents: 22000,
  buckets: buckets(10000, 10000, 2000, 0),
  patients: [
    { patientId: 'pat-1', patientName: 'Iris Record', totalCents: 22000, buckets: buckets(10000, 10000, 2000, 0) },
  ],
};

const UNCODED: UncodedVisits = {
  from: '2026-11-01',
  to: '2026-11-30',
  total: 1,
  visits: [
    {
      appointmentId: 'appt-1',
      date: '2026-11-03',
      startsAt: '2026-11-03T14:00:00.000Z',
      providerName: 'Sarah Chen',
      patientId: 'pat-2',
      patientName: 'Rosa Portal',
    },
  ],
};

function renderSection(answers: { billing?: BillingReport; aging?: AgingReport; uncoded?: UncodedVisits } = {}) {
  const mock = mockGraphQL({
    BillingReport: () => ({ billingReport: answers.billing ?? BILLING }),
    AgingReport: () => ({ agingReport: answers.aging ?? AGING }),
    UncodedVisits: () => ({ uncodedVisits: answers.uncoded ?? UNCODED }),
  });
  renderRoutes(
    [
      {
        path: '/admin/reports',
        element: (
          <BillingReportsSection
            timeZone="America/New_York"
            visitPath={(visit) => `/calendar?date=${visit.date}&appointment=${visit.id}`}
          />
        ),
      },
    ],
    '/admin/reports',
  );
  return mock;
}

describe('BillingReportsSection', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('starts on this month in the practice’s calendar', () => {
    expect(defaultBillingDates('America/New_York', new Date('2026-02-10T03:00:00Z'))).toEqual({
      from: '2026-02-01',
      to: '2026-02-28',
      asOf: '2026-02-09',
    });
  });

  it('shows the figures by provider and month with totals, the aging and the uncoded visits', async () => {
    const { calls } = renderSection();
    const table = await screen.findByTestId('billing-by-month');
    const sarah = within(table).getByText('Sarah Chen').closest('tr')!;
    expect(sarah).toHaveTextContent('$35,000.00');
    expect(sarah).toHaveTextContent('$120.00');
    expect(sarah).toHaveTextContent('-$20.00');
    expect(within(table).getByText('No provider').closest('tr')).toHaveTextContent('$90.00');
    const total = within(table).getByRole('rowheader', { name: 'Total' }).closest('tr')!;
    expect(total).toHaveTextContent('$35,000.00$210.00-$20.00');

    const aging = await screen.findByTestId('billing-aging');
    const iris = within(aging).getByRole('link', { name: 'Iris Record' });
    expect(iris).toHaveAttribute('href', '/patients/pat-1');
    expect(iris.closest('tr')).toHaveTextContent('Iris Record$100.00$100.00$20.00$0.00$220.00');

    const visit = await screen.findByRole('link', { name: '2026-11-03 · Rosa Portal · Sarah Chen' });
    expect(screen.getByTestId('billing-uncoded-count')).toHaveTextContent('1 completed visit not coded');
    expect(visit).toHaveAttribute('href', '/calendar?date=2026-11-03&appointment=appt-1');

    // This month, asked for once each.
    const billing = calls.filter((c) => c.operationName === 'BillingReport');
    expect(billing).toHaveLength(1);
    expect((billing[0]!.variables.range as { from: string }).from).toMatch(/-01$/);
    expect(screen.getAllByRole('button', { name: /^Download CSV: / })).toHaveLength(3);
  });

  it('says so when nothing was billed, nobody owes and every visit is coded', async () => {
    renderSection({
      billing: { ...BILLING, rows: [], totals: { chargesCents: 0, paymentsCents: 0, adjustmentsCents: 0 } },
      aging: { ...AGING, patients: [], totalCents: 0, buckets: buckets(0, 0, 0, 0) },
      uncoded: { ...UNCODED, visits: [], total: 0 },
    });
    expect(await screen.findByText('Nothing was billed or received in this range.')).toBeVisible();
    expect(await screen.findByText('No patient owes anything on this day.')).toBeVisible();
    expect(await screen.findByText('Every completed visit in this range is coded.')).toBeVisible();
  });

  it('refuses a range ending before it starts, with the shared message, and asks for nothing', async () => {
    const user = userEvent.setup();
    const { calls } = renderSection();
    await screen.findByTestId('billing-by-month');
    const to = screen.getByLabelText(/Last day/);
    await user.clear(to);
    await user.type(to, '2020-01-01');
    await user.click(screen.getByRole('button', { name: 'Show billing' }));
    expect(await screen.findByText('The end date cannot be before the start date')).toBeVisible();
    await waitFor(() => {
      expect(calls.filter((c) => c.operationName === 'BillingReport')).toHaveLength(1);
    });
  });

  it('in Spanish too', async () => {
    await i18n.changeLanguage('es');
    renderSection();
    const table = await screen.findByTestId('billing-by-month');
    expect(within(table).getByRole('columnheader', { name: 'Cargos' })).toBeVisible();
    expect(within(table).getByText('Sin profesional')).toBeVisible();
    expect(screen.getByRole('heading', { name: 'Consultas completadas sin codificar' })).toBeVisible();
  });
});
