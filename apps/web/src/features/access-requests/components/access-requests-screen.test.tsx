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
  account: null,
  emailHasAccount: false,
  invitationPending: false,
  invitationExpiresAt: null,
  providerForm: null,
  patientForm: { phone: '555-010-2030', reasonForInterest: 'Sleep', servicesInterested: [], consentToContact: true },
};

function summaryOf(request: AccessRequest) {
  const {
    account: _a,
    emailHasAccount: _e,
    invitationPending: _i,
    invitationExpiresAt: _x,
    providerForm: _p,
    patientForm: _f,
    ...summary
  } = request;
  return { summary };
}

const ACCOUNT = '44444444-4444-4444-8444-444444444444';

/** An approved provider request whose account has not set a password; its first link has expired. */
const APPROVED_PROVIDER: AccessRequest = {
  ...REQUEST,
  id: 'r2',
  kind: 'provider',
  status: 'approved',
  firstName: 'Elena',
  lastName: 'Marsh',
  email: 'elena@clinic.test',
  reviewedAt: '2026-11-18T10:00:00.000Z',
  reviewedBy: 'a1',
  reviewedByName: 'Ada Admin',
  account: ACCOUNT,
  emailHasAccount: true,
  invitationPending: true,
  invitationExpiresAt: '2026-11-21T10:00:00.000Z',
  patientForm: null,
  providerForm: {
    phone: '503-555-0123',
    medicalLicense: 'OR-MD-1',
    specialty: 'Psychiatry',
    yearsOfExperience: '6-10',
    practiceType: 'telehealth',
    organizationName: 'Riverside',
    interestedFeatures: ['Clinical Notes'],
    referralSource: 'conference',
    preferredContactMethod: 'phone',
  },
};

function renderApproved(request: AccessRequest, sendInvitation?: () => unknown) {
  const mock = mockGraphQL({
    AccessRequestCounts: () => ({ accessRequestCounts: { new: 0, approved: 1, declined: 0 } }),
    ListAccessRequests: () => ({ listAccessRequests: { items: [summaryOf(request).summary], nextToken: null } }),
    GetAccessRequest: () => ({ getAccessRequest: request }),
    SendInvitation:
      sendInvitation ??
      (() => ({
        sendInvitation: {
          success: true,
          message: 'The invitation has been sent.',
          expiresAt: '2099-01-04T10:00:00.000Z',
        },
      })),
  });
  renderRoutes([{ path: '/admin/access-requests', element: <AccessRequestsScreen /> }], '/admin/access-requests');
  return mock;
}

async function openApproved(name: string) {
  fireEvent.click(await screen.findByText('Approved (1)'));
  fireEvent.click(await screen.findByRole('button', { name: `Review: ${name}` }));
  return screen.findByRole('dialog');
}

describe('AccessRequestsScreen', () => {
  it('lists the new requests with counts; approving a patient request needs a primary provider', async () => {
    const { summary } = summaryOf(REQUEST);
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

    expect(await screen.findByText('Approved (4)')).toBeVisible();
    expect(calls.find((call) => call.operationName === 'ListAccessRequests')?.variables).toMatchObject({
      status: 'new',
    });
    fireEvent.click(await screen.findByRole('button', { name: 'Review: Lena Moss' }));

    const dialog = await screen.findByRole('dialog');
    expect(await within(dialog).findByText('Sleep')).toBeVisible();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Approve' }));
    expect(await within(dialog).findByText('Please choose a provider')).toBeVisible();
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
    expect(await screen.findByText('The request is approved and an invitation has been sent.')).toBeVisible();
  });

  it('shows the labels of the choices the requester made, not their codes', async () => {
    renderApproved({ ...APPROVED_PROVIDER, invitationPending: false, invitationExpiresAt: null });
    const dialog = await openApproved('Elena Marsh');
    expect(await within(dialog).findByText('Telehealth practice')).toBeVisible();
    expect(within(dialog).getByText('Practice type')).toBeVisible();
    expect(within(dialog).getByText('6-10 years')).toBeVisible();
    expect(within(dialog).getByText('Conference')).toBeVisible();
    expect(within(dialog).getByText('Phone')).toBeVisible();
    expect(within(dialog).queryByText('telehealth')).toBeNull();
    expect(within(dialog).queryByText('conference')).toBeNull();
    // Nothing to resend once the account has a password.
    expect(within(dialog).queryByRole('button', { name: 'Resend invitation' })).toBeNull();
    expect(within(dialog).queryByText('Invitation pending')).toBeNull();
  });

  it('resends the invitation of an approved request whose account has no password yet', async () => {
    const { calls } = renderApproved(APPROVED_PROVIDER);
    const dialog = await openApproved('Elena Marsh');
    expect(await within(dialog).findByText('Invitation pending')).toBeVisible();
    expect(
      within(dialog).getByText(/Elena Marsh has not set a password yet, and the invitation link expired on/),
    ).toBeVisible();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Resend invitation' }));

    expect(
      await screen.findByText('A new invitation was sent to elena@clinic.test. The previous link no longer works.'),
    ).toBeVisible();
    expect(calls.find((call) => call.operationName === 'SendInvitation')?.variables).toEqual({ accountId: ACCOUNT });
    expect(await within(dialog).findByText(/The invitation link works until/)).toBeVisible();
    // The request is not read (and audited) again for that.
    expect(calls.filter((call) => call.operationName === 'GetAccessRequest')).toHaveLength(1);
  });

  it('says why a resend failed', async () => {
    renderApproved(APPROVED_PROVIDER, () => ({
      errors: [{ message: 'Administrator access required.', extensions: { code: 'FORBIDDEN' } }],
    }));
    const dialog = await openApproved('Elena Marsh');
    fireEvent.click(await within(dialog).findByRole('button', { name: 'Resend invitation' }));
    expect(await within(dialog).findByText('The invitation could not be sent')).toBeVisible();
    expect(within(dialog).getByText('Administrator access required.')).toBeVisible();
    expect(within(dialog).getByText(/expired on/)).toBeVisible();
  });
});
