import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import { NewAppointmentScreen } from './new-appointment-screen.tsx';

const PROVIDER = { userId: 'p1', email: 'provider@demo.test', name: 'Maya Okafor', role: 'provider', source: 'local' };

describe('NewAppointmentScreen', () => {
  it("checks the form before asking the server: the specification's four messages, each cleared by editing its field", async () => {
    const graphql = mockGraphQL({
      CurrentUser: () => ({ me: PROVIDER }),
      PatientChoices: () => ({ listPatients: { items: [{ id: 'pt1', firstName: 'Eva', lastName: 'Scheduler' }] } }),
    });
    renderRoutes([{ path: '/appointments/new', element: <NewAppointmentScreen /> }], '/appointments/new');
    fireEvent.click(await screen.findByRole('button', { name: 'Schedule Appointment' }));
    for (const message of [
      'Please select a patient',
      'Please select a date',
      'Please select a time',
      'Please provide a reason for the visit',
    ]) {
      expect(screen.getByText(message).textContent).toBe(message);
    }
    fireEvent.change(screen.getByRole('textbox', { name: /Reason for Visit/ }), { target: { value: 'Follow-up' } });
    expect(screen.queryByText('Please provide a reason for the visit')).toBeNull();
    expect(screen.getByText('Please select a date').textContent).toBe('Please select a date');
    expect(graphql.calls.some((call) => call.operationName === 'CreateAppointment')).toBe(false);
  });

  it('refuses a date before today with its own message', async () => {
    mockGraphQL({
      CurrentUser: () => ({ me: PROVIDER }),
      PatientChoices: () => ({ listPatients: { items: [] } }),
    });
    renderRoutes([{ path: '/appointments/new', element: <NewAppointmentScreen /> }], '/appointments/new');
    fireEvent.change(await screen.findByLabelText(/^Date/), { target: { value: '2020-01-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Schedule Appointment' }));
    expect(screen.getByText('Please select today or a later date').textContent).toBe(
      'Please select today or a later date',
    );
  });
});
