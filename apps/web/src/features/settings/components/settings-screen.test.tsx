import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { PracticeSettingsView } from '../api/settings-api.ts';
import { SettingsScreen } from './settings-screen.tsx';

const VALUES: PracticeSettingsView['values'] = {
  practiceName: 'Meridian Precision Psychiatry',
  clinicPhone: '(503) 555-0100',
  timeZone: 'America/New_York',
  defaultWorkingHours: [{ weekday: 1, startTime: '08:00', endTime: '18:00' }],
  bookingPolicy: {
    changeWindowHours: 24,
    minNoticeHours: 24,
    horizonDays: 90,
    appointmentTypes: ['in-person', 'video'],
    mode: 'instant',
    duration: 30,
  },
  slotStepMinutes: 30,
  reminderHours: [24, 1],
  messageResponseBusinessDays: 2,
  sessionIdleMinutes: 15,
  twoFactorRequiredRoles: [],
  recordingRetentionDays: 2190,
  intakeSections: ['insurance', 'medications', 'questionnaires'],
  videoConsentRequired: false,
  billingIdentity: null,
  visitCodingAfter: 'completed',
};

function view(values = VALUES, changed = false): PracticeSettingsView {
  return {
    values,
    defaults: VALUES,
    sources: (
      [
        'practiceName',
        'clinicPhone',
        'timeZone',
        'defaultWorkingHours',
        'bookingPolicy',
        'slotStepMinutes',
        'reminderHours',
        'messageResponseBusinessDays',
        'sessionIdleMinutes',
        'twoFactorRequiredRoles',
        'recordingRetentionDays',
        'intakeSections',
        'videoConsentRequired',
        'billingIdentity',
        'visitCodingAfter',
      ] as const
    ).map((key) =>
      key === 'clinicPhone' && changed
        ? {
            key,
            source: 'changed',
            variables: ['CLINIC_PHONE'],
            updatedAt: '2026-11-25T07:00:00.000Z',
            updatedByName: 'Avery Admin',
          }
        : key === 'clinicPhone'
          ? { key, source: 'environment', variables: ['CLINIC_PHONE'], updatedAt: null, updatedByName: null }
          : { key, source: 'builtIn', variables: [], updatedAt: null, updatedByName: null },
    ),
  };
}

describe('SettingsScreen', () => {
  it('says where each value comes from, saves only what changed, and offers reset to default', async () => {
    const graphql = mockGraphQL({
      PracticeSettings: () => ({ practiceSettings: view() }),
      UpdatePracticeSettings: ({ input }) => ({
        updatePracticeSettings: view({ ...VALUES, ...(input as object) }, true),
      }),
    });
    renderRoutes([{ path: '/admin/settings', element: <SettingsScreen /> }], '/admin/settings');

    const phone = await screen.findByLabelText(/Clinic phone/);
    expect(screen.getByTestId('setting-source-clinicPhone').textContent).toContain(
      'Environment default (CLINIC_PHONE)',
    );
    expect(screen.getByTestId('setting-source-timeZone').textContent).toContain('Built-in default');

    fireEvent.change(phone, { target: { value: '(503) 555-0142' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Settings saved. They apply at once, without a restart.');
    expect(graphql.calls.find((call) => call.operationName === 'UpdatePracticeSettings')?.variables).toEqual({
      input: { clinicPhone: '(503) 555-0142' },
    });
    expect(screen.getByTestId('setting-source-clinicPhone').textContent).toContain('Changed by Avery Admin');
    expect(screen.getByRole('button', { name: 'Reset to default: Clinic phone' })).toBeEnabled();
  }, 30_000);

  it('refuses a negative window before asking the server, and says when nothing changed', async () => {
    const graphql = mockGraphQL({ PracticeSettings: () => ({ practiceSettings: view() }) });
    renderRoutes([{ path: '/admin/settings', element: <SettingsScreen /> }], '/admin/settings');

    fireEvent.click(await screen.findByRole('button', { name: 'Save changes' }));
    await screen.findByText('Nothing to save: no setting was changed.');

    fireEvent.change(screen.getByLabelText(/Change and cancellation window/), { target: { value: '-3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => {
      expect(screen.getByText('Please enter a whole number from 0 to 336')).toBeVisible();
    });
    expect(graphql.calls.some((call) => call.operationName === 'UpdatePracticeSettings')).toBe(false);
  }, 30_000);

  it('takes the billing identity whole or not at all, and when a visit can be coded', async () => {
    const graphql = mockGraphQL({
      PracticeSettings: () => ({ practiceSettings: view() }),
      UpdatePracticeSettings: ({ input }) => ({
        updatePracticeSettings: view({ ...VALUES, ...(input as object) }),
      }),
    });
    renderRoutes([{ path: '/admin/settings', element: <SettingsScreen /> }], '/admin/settings');

    const billing = await screen.findByRole('region', { name: 'Billing' });
    const legalName = within(billing).getByLabelText('Legal name');
    expect(legalName).toHaveValue('');
    expect(within(billing).getByLabelText('Code a visit once it is completed')).toBeChecked();

    // Half an identity is refused field by field, before asking the server.
    fireEvent.change(legalName, { target: { value: 'Meridian Precision Psychiatry PLLC' } });
    fireEvent.change(within(billing).getByLabelText(/Tax id/), { target: { value: '12345678' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => {
      expect(within(billing).getByText('City is required')).toBeVisible();
    });
    expect(within(billing).getByText('Enter the tax id as nine digits, such as 12-3456789')).toBeVisible();
    expect(graphql.calls.some((call) => call.operationName === 'UpdatePracticeSettings')).toBe(false);

    fireEvent.change(within(billing).getByLabelText('Street'), { target: { value: '12 Main Street' } });
    fireEvent.change(within(billing).getByLabelText('City'), { target: { value: 'Portland' } });
    fireEvent.change(within(billing).getByLabelText(/State/), { target: { value: 'or' } });
    fireEvent.change(within(billing).getByLabelText('ZIP code'), { target: { value: '97201' } });
    fireEvent.change(within(billing).getByLabelText(/Tax id/), { target: { value: '123456789' } });
    fireEvent.click(within(billing).getByLabelText('Code a visit once its note is signed'));
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    await screen.findByText('Settings saved. They apply at once, without a restart.');
    expect(graphql.calls.find((call) => call.operationName === 'UpdatePracticeSettings')?.variables).toEqual({
      input: {
        billingIdentity: {
          legalName: 'Meridian Precision Psychiatry PLLC',
          street: '12 Main Street',
          city: 'Portland',
          state: 'OR',
          zip: '97201',
          taxId: '12-3456789',
        },
        visitCodingAfter: 'note-signed',
      },
    });
    expect(within(billing).getByLabelText(/Tax id/)).toHaveValue('12-3456789');
  }, 30_000);
});
