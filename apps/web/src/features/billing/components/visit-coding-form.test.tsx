import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { VisitCoding } from '../api/billing-api.ts';
import { VisitCodingSection } from './visit-coding-section.tsx';

const APPOINTMENT_ID = '44444444-4444-4444-8444-444444444444';
const PATIENT_ID = '33333333-3333-4333-8333-333333333333';
const FOLLOW_UP = '55555555-5555-4555-8555-555555555555';
const THERAPY_ADD_ON = '66666666-6666-4666-8666-666666666666';

const VIDEO_VISIT: VisitCoding = {
  appointmentId: APPOINTMENT_ID,
  patientId: PATIENT_ID,
  appointmentType: 'video',
  codable: true,
  notCodableReason: null,
  proposal: { placeOfService: '10', modifiers: ['95'] },
  problems: [
    { code: 'F33.1', title: 'Major depressive disorder, recurrent, moderate' },
    { code: 'F41.1', title: 'Generalized anxiety disorder' },
  ],
  feeItems: [
    { id: FOLLOW_UP, code: '99214', shortName: 'Follow-up visit, moderate', feeCents: 17500, addOn: false },
    { id: THERAPY_ADD_ON, code: '90833', shortName: 'Therapy with a visit, 30 minutes', feeCents: 8000, addOn: true },
  ],
  current: null,
};

function renderSection(coding: VisitCoding = VIDEO_VISIT) {
  const mock = mockGraphQL({
    VisitCoding: () => ({ visitCoding: coding }),
    CodeVisit: () => ({
      codeVisit: {
        ...coding,
        current: {
          version: 1,
          placeOfService: '10',
          diagnosisCodes: ['F33.1'],
          codedByName: 'Maya Okafor',
          codedAt: '2026-11-20T15:00:00.000Z',
          services: [
            {
              feeItemId: FOLLOW_UP,
              code: '99214',
              shortName: 'Follow-up visit, moderate',
              addOn: false,
              units: 1,
              modifiers: ['95'],
              diagnosisPointers: [1],
              unitFeeCents: 17500,
            },
          ],
        },
      },
    }),
  });
  renderRoutes([{ path: '/visit', element: <VisitCodingSection appointmentId={APPOINTMENT_ID} canWrite /> }], '/visit');
  return mock;
}

describe('VisitCodingForm', () => {
  it('proposes place 10 and modifier 95 for a video visit, totals the services and sends the shared schema’s values', async () => {
    const { calls } = renderSection();
    expect(await screen.findByText('This visit is not coded yet.')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Code visit' }));
    const form = await screen.findByRole('form', { name: 'Code the visit' });
    expect(within(form).getByRole('radio', { name: /10 · Telehealth, patient at home/ })).toBeChecked();
    expect(within(form).getByRole('textbox', { name: /Modifiers/ })).toHaveValue('95');
    // The first problem is chosen as A; the second becomes B when ticked.
    expect(within(form).getByRole('checkbox', { name: /^A\. F33\.1/ })).toBeChecked();
    fireEvent.click(within(form).getByRole('checkbox', { name: /F41\.1/ }));
    expect(within(form).getByRole('checkbox', { name: /^B\. F41\.1/ })).toBeChecked();

    fireEvent.change(within(form).getByRole('combobox', { name: /Service 1/ }), { target: { value: FOLLOW_UP } });
    fireEvent.change(within(form).getByRole('textbox', { name: /Units/ }), { target: { value: '2' } });
    expect(within(form).getByTestId('coding-total')).toHaveTextContent('Total: $350.00');
    fireEvent.click(within(form).getByRole('checkbox', { name: 'Service 1 is for diagnosis B (F41.1)' }));

    fireEvent.click(within(form).getByRole('button', { name: 'Save coding' }));
    await vi.waitFor(() => expect(calls.some((call) => call.operationName === 'CodeVisit')).toBe(true));
    expect(calls.find((call) => call.operationName === 'CodeVisit')?.variables).toEqual({
      input: {
        appointmentId: APPOINTMENT_ID,
        placeOfService: '10',
        diagnosisCodes: ['F33.1', 'F41.1'],
        services: [{ feeItemId: FOLLOW_UP, units: 2, modifiers: ['95'], diagnosisPointers: [1, 2] }],
        expectedVersion: 0,
      },
    });
    expect(await screen.findByTestId('coding-summary')).toHaveTextContent('99214-95');
  });

  it('shows the schema’s message and sends nothing when no service is chosen', async () => {
    const { calls } = renderSection();
    fireEvent.click(await screen.findByRole('button', { name: 'Code visit' }));
    const form = await screen.findByRole('form', { name: 'Code the visit' });
    fireEvent.click(within(form).getByRole('button', { name: 'Save coding' }));
    expect(await within(form).findByText('Please choose a service from the fee schedule')).toBeVisible();
    expect(calls.some((call) => call.operationName === 'CodeVisit')).toBe(false);
  });

  it('says why a visit not completed cannot be coded, with no button', async () => {
    renderSection({ ...VIDEO_VISIT, codable: false, notCodableReason: 'billingMessages.visitNotReady' });
    expect(await screen.findByText('A visit can be coded once it is completed')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Code visit' })).toBeNull();
  });
});
