import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import { WaitlistOfferScreen } from './offer-screen.tsx';

const TOKEN = 'abcdefghijklmnopqrstuvwxyz012345';
const OFFER = {
  status: 'open',
  providerName: 'Sarah Chen',
  date: '2026-12-10',
  time: '10:00',
  duration: 30,
  appointmentType: 'video',
  timeZone: 'America/New_York',
  expiresAt: '2026-12-01T12:00:00.000Z',
};

const render = () =>
  renderRoutes([{ path: '/waitlist/offer', element: <WaitlistOfferScreen /> }], `/waitlist/offer#${TOKEN}`);

describe('WaitlistOfferScreen', () => {
  it('shows the time on offer and books it with the token from the fragment', async () => {
    const graphql = mockGraphQL({
      WaitlistOffer: () => ({ waitlistOffer: OFFER }),
      ClaimWaitlistOffer: () => ({
        claimWaitlistOffer: { success: true, message: 'ok', date: OFFER.date, time: OFFER.time },
      }),
    });
    render();
    expect(await screen.findByText('With Sarah Chen')).toBeVisible();
    expect(screen.getByText('Thursday, December 10, 2026 at 10:00 (America/New_York)')).toBeVisible();
    fireEvent.click(screen.getByRole('button', { name: 'Book this time' }));
    const done = await screen.findByRole('status');
    expect(done.textContent).toBe('The appointment is yours. You will receive an invitation by e-mail.');
    expect(graphql.calls.map((c) => [c.operationName, c.variables])).toEqual([
      ['WaitlistOffer', { token: TOKEN }],
      ['ClaimWaitlistOffer', { token: TOKEN }],
    ]);
  });

  it('says the time is gone when another patient booked it first', async () => {
    mockGraphQL({
      WaitlistOffer: () => ({ waitlistOffer: OFFER }),
      ClaimWaitlistOffer: () => ({
        errors: [
          {
            message:
              'Sorry, this time has already been taken or the offer has expired. Please call the practice for another time.',
            extensions: {
              code: 'BAD_USER_INPUT',
              messageId: 'appointmentMessages.offerGone',
              params: {},
              reason: 'gone',
            },
          },
        ],
      }),
    });
    render();
    fireEvent.click(await screen.findByRole('button', { name: 'Book this time' }));
    const notice = await screen.findByText(/already been taken or the offer has expired\. You stay on the waitlist/);
    expect(notice).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Book this time' })).toBeNull();
  });

  it('refuses a link without a token without asking the server', async () => {
    const graphql = mockGraphQL({});
    renderRoutes([{ path: '/waitlist/offer', element: <WaitlistOfferScreen /> }], '/waitlist/offer');
    // No number configured here: the sentence asks for no call (decision 048).
    expect(await screen.findByRole('alert')).toHaveTextContent(
      /^This offer link is not valid\. Please contact the practice\.$/,
    );
    expect(graphql.calls).toEqual([]);
  });
});
