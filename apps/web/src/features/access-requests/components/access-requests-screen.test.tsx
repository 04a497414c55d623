import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { AccessRequest } from '../api/access-requests-api.ts';
import { AccessRequestsScreen } from './access-requests-screen.tsx';

const OWNER = '33333333-3333-4333-8333-333333333333';

const REQUEST: AccessRequest = {
  id: 'r1',
  kind: 'patient',
  status: 'new',
  firstName: 'Lena',
  lastName: 'Moss',
  email: 'lena@example.test',
  language: 'en',
  createdAt: '2026-11-20T15:00:00.000Z',
  reviewedAt: null,
  reviewedBy: null,
  reviewedByName: null,
  declineReason: null,
  emailHasAccount: false,
  providerForm: null,
  patientForm: { phone: '555-010-2030', reasonForInterest: 'Sleep', servicesInterested: [], consentToContact: true },
};

describe('AccessRequestsScreen', () => {
  it('lists the new requests with counts; approving a patient request needs a primary provider', async () => {
    const { emailHasAccount: _e, providerForm: _p, patientForm: _f, ...summary } = REQUEST;
    const { calls } = mockGraphQL({
      AccessRequestCounts: () => ({ accessRequestCounts: { new: 1, approved: 4, declined: 2 } }),
      ListAccessRequests: () => ({ listAccessRequests: { items: [summary], nextToken: null } }),
      GetAccessRequest: () => ({ getAccessRequest: REQUEST }),
      ProviderOptions: () => ({
        listDoctors: {
          items: [{ firstName: 'Maya', lastName: 'Okafor', owner: OWNER, isActive: true }],
          nextToken: null,
        },
      }),
      ApproveAccessRequest: () => ({
        approveAccessRequest: { ...REQUEST, status: 'approved', reviewedAt: '2026-11-21T10:00:00.000Z' },
      }),
    });
    renderRoutes([{ path: '/admin/access-requests', element: <AccessRequestsScreen /> }], '/admin/access-requests');

    expect(await screen.findByText('Approved (4)')).toBeDefined();
    expect(calls.find((call) => call.operationName === 'ListAccessRequests')?.variables).toMatchObject({
      status: 'new',
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Review: Lena Moss' }));

    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Sleep')).toBeDefined();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText('Please choose a provider')).toBeDefined();
    expect(calls.some((call) => call.operationName === 'ApproveAccessRequest')).toBe(false);

    fireEvent.click(within(dialog).getByRole('combobox', { name: /Primary provider/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Maya Okafor' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    await waitFor(() => {
      expect(calls.find((call) => call.operationName === 'ApproveAccessRequest')?.variables).toEqual({
        id: 'r1',
        ownerProviderId: OWNER,
      });
    });
    expect(await screen.findByText('The request is approved and an invitation has been sent.')).toBeDefined();
  });
});
