import type { Role } from '@telehealth/shared';
import { notifications } from '@mantine/notifications';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { i18n } from '../../../lib/i18n.ts';
import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { Patient } from '../api/patient-schemas.ts';
import { PatientCreateScreen, PatientEditScreen } from './patient-form-screens.tsx';

const STORED: Patient = {
  id: '33333333-3333-4333-8333-333333333333',
  firstName: 'Leila',
  lastName: 'Hashemi',
  email: 'leila@example.com',
  phone: '(503) 555-0142',
  dateOfBirth: '1979-08-15',
  isActive: true,
  createdAt: '2026-02-01T09:00:00.000Z',
  updatedAt: '2026-02-01T09:00:00.000Z',
  owner: null,
  street: '8 Fir Way',
  city: 'Salem',
  state: 'OR',
  zipCode: '97301',
  emergencyContactName: null,
  emergencyContactPhone: null,
  insuranceProvider: null,
  insurancePolicyNumber: null,
  reasonForCare: null,
  allergies: null,
  currentMedications: null,
  medicalHistory: null,
};

function renderForm(path: string, role: Role = 'provider') {
  return renderRoutes(
    [
      { path: '/patients', element: <h1>Patient list</h1> },
      { path: '/patients/new', element: <PatientCreateScreen role={role} /> },
      { path: '/patients/:id/edit', element: <PatientEditScreen id={STORED.id} role={role} /> },
    ],
    path,
  );
}

function field(name: string): HTMLInputElement {
  return screen.getByLabelText(new RegExp(`^${name}`), { selector: 'input, textarea' });
}

function type(name: string, value: string) {
  fireEvent.change(field(name), { target: { value } });
}

/** The message shown at a field: its error text, linked to it by aria-describedby. */
function messageAt(name: string): string | null {
  const input = field(name);
  if (input.getAttribute('aria-invalid') !== 'true') return null;
  const ids = (input.getAttribute('aria-describedby') ?? '').split(' ').filter((id) => id.endsWith('-error'));
  return ids.map((id) => document.getElementById(id)?.textContent ?? '').join(' ') || null;
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('New Patient Registration', () => {
  it('says the problems in Spanish to a Spanish reader, the browser’s and the server’s', async () => {
    await i18n.changeLanguage('es');
    // These labels begin longer ones too ("Nombre del contacto de emergencia").
    const [NAME, PHONE] = ['Nombre\\W*$', 'Teléfono\\W*$'];
    let attempt = 0;
    mockGraphQL({
      CreatePatient: () => {
        attempt += 1;
        return {
          errors: [
            {
              message: 'Validation failed: Policy number must be 5-20 characters long',
              extensions: {
                code: 'BAD_USER_INPUT',
                fieldErrors: { insurancePolicyNumber: 'Policy number must be 5-20 characters long' },
                fields: [
                  {
                    field: 'insurancePolicyNumber',
                    messageId: 'fieldMessages.lengthBetween',
                    params: { label: 'Policy number', min: 5, max: 20 },
                  },
                ],
              },
            },
          ],
        };
      },
    });
    renderForm('/patients/new');
    type(NAME, 'J');
    type(PHONE, '12345');
    fireEvent.click(screen.getByRole('button', { name: 'Crear paciente' }));

    expect(messageAt(NAME)).toBe('El campo «Nombre» debe tener al menos 2 caracteres');
    expect(messageAt('Apellido')).toBe('El campo «Apellido» es obligatorio');
    expect(messageAt('Correo electrónico')).toBe('El correo electrónico es obligatorio');
    expect(messageAt(PHONE)).toBe('El número de teléfono debe tener entre 10 y 15 dígitos');
    expect(messageAt('Fecha de nacimiento')).toBe('La fecha de nacimiento es obligatoria');

    type(NAME, 'Leila');
    type('Apellido', 'Hashemi');
    type('Correo electrónico', 'leila@example.com');
    type(PHONE, '');
    type('Fecha de nacimiento', '1979-08-15');
    type('Número de póliza', 'ABC-12345');
    fireEvent.click(screen.getByRole('button', { name: 'Crear paciente' }));
    await waitFor(() => {
      expect(messageAt('Número de póliza')).toBe('El campo «Número de póliza» debe tener entre 5 y 20 caracteres');
    });
    expect(attempt).toBe(1);
  });

  it('shows the problems at the fields and sends nothing', () => {
    const { calls } = mockGraphQL({});
    renderForm('/patients/new');
    type('First name', 'J');
    type('Email', 'not-an-email');
    type('Phone', '12345');
    fireEvent.click(screen.getByRole('button', { name: 'Create Patient' }));

    expect(messageAt('First name')).toBe('First name must be at least 2 characters long');
    expect(messageAt('Last name')).toBe('Last name is required');
    expect(messageAt('Email')).toBe('Please enter a valid email address');
    expect(messageAt('Phone')).toBe('Phone number must be 10-15 digits long');
    expect(messageAt('Date of birth')).toBe('Date of birth is required');
    expect(screen.getByRole('alert').textContent).toContain('5 fields need your attention');
    expect(document.activeElement).toBe(field('First name'));
    expect(calls).toEqual([]);

    // A message belongs to the value it was about.
    type('Last name', 'Bello');
    expect(messageAt('Last name')).toBeNull();
  });

  it('sends one Idempotency-Key per submission: the same when the submission is tried again after a lost reply', async () => {
    let attempt = 0;
    const { calls, fetchMock } = mockGraphQL({
      CreatePatient: (variables) => {
        attempt += 1;
        // The first reply never arrives (the connection dropped after the server saved the patient).
        if (attempt === 1) throw new TypeError('Failed to fetch');
        return { createPatient: { ...STORED, ...(variables.input as object) } };
      },
    });
    renderForm('/patients/new');
    type('First name', 'Leila');
    type('Last name', 'Hashemi');
    type('Email', 'leila@example.com');
    type('Date of birth', '1979-08-15');
    fireEvent.click(screen.getByRole('button', { name: 'Create Patient' }));
    await screen.findByRole('alert');
    fireEvent.click(screen.getByRole('button', { name: 'Create Patient' }));
    expect(await screen.findByRole('heading', { name: 'Patient list' })).toBeVisible();

    const keys = fetchMock.mock.calls
      .map(([, init]) => (init?.headers as Record<string, string> | undefined)?.['Idempotency-Key'])
      .filter((key) => key !== undefined);
    expect(calls.map((c) => c.operationName)).toEqual(['CreatePatient', 'CreatePatient']);
    expect(keys).toHaveLength(2);
    expect(keys[0]).toMatch(/^"[0-9a-f-]{36}"$/);
    expect(keys[1]).toBe(keys[0]);
    // The success notification lives in Mantine's global store: not into the next test.
    notifications.clean();
  });

  it('puts the server’s field messages at the fields, then creates and returns to the list', async () => {
    let attempt = 0;
    const { calls } = mockGraphQL({
      CreatePatient: (variables) => {
        attempt += 1;
        if (attempt === 1) {
          return {
            errors: [
              {
                message: 'Validation failed: Please enter a valid email address',
                extensions: {
                  code: 'BAD_USER_INPUT',
                  fieldErrors: { email: 'Please enter a valid email address' },
                  fields: [{ field: 'email', messageId: 'fieldMessages.emailInvalid', params: {} }],
                },
              },
            ],
          };
        }
        return { createPatient: { ...STORED, ...(variables.input as object) } };
      },
    });
    const { router } = renderForm('/patients/new');
    type('First name', 'Leila');
    type('Last name', 'Hashemi');
    type('Email', 'leila@example.com');
    type('Date of birth', '1979-08-15');
    type('Allergies', 'Penicillin');
    fireEvent.click(screen.getByRole('button', { name: 'Create Patient' }));

    await waitFor(() => {
      expect(messageAt('Email')).toBe('Please enter a valid email address');
    });
    expect(screen.getByRole('alert').textContent).toBe('Validation failed: Please enter a valid email address');
    expect(calls[0]?.variables.input).toEqual({
      firstName: 'Leila',
      lastName: 'Hashemi',
      email: 'leila@example.com',
      dateOfBirth: '1979-08-15',
      allergies: 'Penicillin',
    });

    type('Email', 'leila.h@example.com');
    fireEvent.click(screen.getByRole('button', { name: 'Create Patient' }));
    expect(await screen.findByRole('heading', { name: 'Patient list' })).toBeVisible();
    expect(router.state.location.pathname).toBe('/patients');
    expect(screen.getByText('Leila Hashemi was registered as a patient.')).toBeVisible();
  });

  it('offers no primary provider to providers, and a choice to administrators', async () => {
    mockGraphQL({
      ProviderOptions: () => ({
        listDoctors: {
          items: [
            {
              id: 'd1',
              owner: '44444444-4444-4444-8444-444444444444',
              firstName: 'Maya',
              lastName: 'Okafor',
              specialty: 'Psychiatry',
              isActive: true,
            },
          ],
          nextToken: null,
        },
      }),
    });
    const provider = renderForm('/patients/new', 'provider');
    expect(screen.queryByLabelText(/^Primary provider/)).toBeNull();
    provider.unmount();

    renderForm('/patients/new', 'admin');
    await waitFor(() => {
      expect(field('Primary provider').hasAttribute('disabled')).toBe(false);
    });
    fireEvent.click(field('Primary provider'));
    expect(await screen.findByRole('option', { name: 'Maya Okafor · Psychiatry' })).toBeVisible();
  });

  it('refuses a patient account', () => {
    mockGraphQL({});
    renderForm('/patients/new', 'patient');
    expect(screen.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
    expect(screen.getByText('You do not have permission to create patients')).toBeVisible();
  });
});

describe('Edit Patient', () => {
  it('sends only the changed fields', async () => {
    const { calls } = mockGraphQL({
      GetPatient: () => ({ getPatient: STORED }),
      UpdatePatient: (variables) => ({ updatePatient: { ...STORED, ...(variables.input as object) } }),
    });
    renderForm(`/patients/${STORED.id}/edit`);
    await screen.findByRole('heading', { name: 'Edit Patient' });
    expect(field('First name').value).toBe('Leila');

    type('City', 'Portland');
    type('Phone', '');
    fireEvent.click(screen.getByRole('button', { name: 'Save Changes' }));

    expect(await screen.findByRole('heading', { name: 'Patient list' })).toBeVisible();
    expect(calls.find((call) => call.operationName === 'UpdatePatient')?.variables.input).toEqual({
      id: STORED.id,
      city: 'Portland',
      phone: null,
    });
  });

  it('says when nothing has changed', async () => {
    const { calls } = mockGraphQL({ GetPatient: () => ({ getPatient: STORED }) });
    renderForm(`/patients/${STORED.id}/edit`);
    fireEvent.click(await screen.findByRole('button', { name: 'Save Changes' }));
    expect(screen.getByText('Nothing has changed yet.')).toBeVisible();
    expect(calls.some((call) => call.operationName === 'UpdatePatient')).toBe(false);
  });

  it('says "Patient not found" for a record that is missing or not the caller’s', async () => {
    mockGraphQL({
      GetPatient: () => ({ errors: [{ message: 'Patient not found', extensions: { code: 'NOT_FOUND' } }] }),
    });
    renderForm(`/patients/${STORED.id}/edit`);
    expect(await screen.findByRole('heading', { name: 'Patient not found' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to patients' }).getAttribute('href')).toBe('/patients');
  });
});
