import { fireEvent, screen, within } from '@testing-library/react';
import { zonedDateTime } from '@telehealth/shared';
import type { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';

import { formatDay } from '../../../lib/practice-dates.ts';
import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import { MyAppointmentsScreen } from './my-appointments-screen.tsx';

const PATIENT = { userId: 'u1', email: 'rosa@example.test', name: 'Rosa Portal', role: 'patient', source: 'local' };
const POLICY = {
  changeWindowHours: 24,
  minNoticeHours: 24,
  horizonDays: 90,
  appointmentTypes: ['in-person', 'video'],
  mode: 'instant',
  duration: 30,
  clinicPhone: '(555) 010-0199',
  joinEarlyMinutes: 15,
  joinLateMinutes: 30,
};

/** A visit starting `minutes` from now, as listAppointments answers it. */
function visit(id: string, minutes: number, fields: Record<string, unknown> = {}) {
  const startsAt = new Date(Date.now() + minutes * 60_000);
  const { date, time } = zonedDateTime(startsAt, 'America/New_York');
  return {
    id,
    patient: 'Rosa Portal',
    patientId: 'pt1',
    providerId: 'p1',
    providerName: 'Maya Okafor',
    date,
    time,
    duration: 30,
    reason: 'Follow-up',
    notes: null,
    appointmentType: 'video',
    status: 'confirmed',
    priority: 'normal',
    videoCallEnabled: true,
    startsAt: startsAt.toISOString(),
    endsAt: new Date(startsAt.getTime() + 30 * 60_000).toISOString(),
    seriesId: null,
    cancellationKind: null,
    cancelReason: null,
    ...fields,
  };
}

function renderScreen(items: unknown[], policy: Record<string, unknown> = POLICY) {
  const graphql = mockGraphQL({
    CurrentUser: () => ({ me: PATIENT }),
    BookingPolicy: () => ({ bookingPolicy: policy }),
    ListAppointments: () => ({ listAppointments: { items, nextToken: null } }),
  });
  renderRoutes([{ path: '/my/appointments', element: <MyAppointmentsScreen /> }], '/my/appointments');
  return graphql;
}

/** The card of a visit, by its day and time as the screen writes them. */
const cardOf = async (v: { date: string; time: string }) => {
  const heading = `${formatDay(v.date, 'en')}, ${v.time}`;
  const card = (await screen.findAllByTestId('my-appointment')).find((c) => c.textContent?.includes(heading));
  if (!card) throw new Error(`no card for ${heading}`);
  return card;
};

describe('MyAppointmentsScreen', () => {
  it('lets a video visit be joined only inside its window, and inside the policy window says to call the clinic', async () => {
    const soon = visit('a1', 5);
    const later = visit('a2', 3 * 24 * 60, { appointmentType: 'in-person', status: 'scheduled' });
    const farVideo = visit('a3', 5 * 24 * 60);
    renderScreen([soon, later, farVideo]);

    const now = await cardOf(soon);
    expect(within(now).getByRole('link', { name: 'Join video visit' }).getAttribute('href')).toBe('/video-call/a1');
    expect(within(now).queryByRole('button', { name: 'Cancel visit' })).toBeNull();
    expect(within(now).getByRole('link', { name: 'Call (555) 010-0199' }).getAttribute('href')).toMatch(/^tel:/);

    const notYet = await cardOf(farVideo);
    expect(within(notYet).getByRole('button', { name: 'Join video visit' }).hasAttribute('disabled')).toBe(true);
    expect(within(notYet).queryByRole('link', { name: 'Join video visit' })).toBeNull();

    const practiceBooked = await cardOf(later);
    expect(within(practiceBooked).queryByRole('button', { name: 'Join video visit' })).toBeNull();
    for (const name of ["I'll be there", 'Reschedule', 'Cancel visit']) {
      expect(within(practiceBooked).getByRole('button', { name }).hasAttribute('disabled')).toBe(false);
    }
  });

  it('without a clinic number asks for a message to the care team instead of a call to nowhere', async () => {
    const soon = visit('a5', 5);
    renderScreen([soon], { ...POLICY, clinicPhone: null });
    const card = await cardOf(soon);
    expect(within(card).getByText(/please send your care team a message/).textContent).toMatch(/less than 24 hours/);
    expect(within(card).queryByText(/please call the clinic/)).toBeNull();
    expect(within(card).getByRole('link', { name: 'Write to your care team' }).getAttribute('href')).toBe('/messages');
  });

  it('checks the booking form before asking the server', async () => {
    const graphql = renderScreen([]);
    fireEvent.click(await screen.findByRole('button', { name: 'Book a visit' }));
    fireEvent.click(screen.getByRole('button', { name: 'Book this visit' }));
    expect(screen.getByText('Please select an appointment type').textContent).toBe('Please select an appointment type');
    expect(screen.getByText('Please select a date').textContent).toBe('Please select a date');
    expect(screen.getByText('Please provide a reason for the visit').textContent).toBe(
      'Please provide a reason for the visit',
    );
    expect(graphql.calls.some((call) => call.operationName === 'BookAppointment')).toBe(false);
  });

  it('says the visit is cancelled even when the list moved it to the past before the answer came (its card and dialog gone)', async () => {
    const upcoming = visit('a4', 4 * 24 * 60);
    let items: Record<string, unknown>[] = [upcoming];
    const rendered: { queryClient?: QueryClient } = {};
    mockGraphQL({
      CurrentUser: () => ({ me: PATIENT }),
      BookingPolicy: () => ({ bookingPolicy: POLICY }),
      ListAppointments: () => ({ listAppointments: { items, nextToken: null } }),
      // The change is made, and the list is read again (another tab, a slow answer) before this answer arrives.
      CancelMyAppointment: async () => {
        items = [{ ...upcoming, status: 'cancelled', cancellationKind: 'patient' }];
        await rendered.queryClient?.invalidateQueries();
        await screen.findByText('You have no upcoming visits.');
        return { cancelMyAppointment: items[0] };
      },
    });
    rendered.queryClient = renderRoutes(
      [{ path: '/my/appointments', element: <MyAppointmentsScreen /> }],
      '/my/appointments',
    ).queryClient;

    fireEvent.click(within(await cardOf(upcoming)).getByRole('button', { name: 'Cancel visit' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel the visit' }));

    expect((await screen.findByRole('status')).textContent).toContain('Your visit is cancelled.');
    const past = within(screen.getByRole('region', { name: 'Past' }));
    expect(past.getByTestId('my-appointment').textContent).toContain('Cancelled');
  });
});
