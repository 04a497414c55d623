import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { i18n } from '../../../lib/i18n.ts';
import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import { AccessRequestPanel } from './access-request-panel.tsx';

function renderPanel(kind: 'provider' | 'patient') {
  return renderRoutes(
    [{ path: '/login', element: <AccessRequestPanel kind={kind} onBack={() => undefined} /> }],
    '/login',
  );
}

function fill(label: RegExp, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

/** Fills a field of the provider form by its name, whatever the language of its label. */
function fillField(name: string, value: string) {
  const input = document.getElementById(`provider-request-${name}`);
  if (!input) throw new Error(`No field ${name}`);
  fireEvent.change(input, { target: { value } });
}

afterEach(async () => {
  await i18n.changeLanguage('en');
});

describe('AccessRequestPanel', () => {
  it('checks the provider form with the shared schema before sending anything', async () => {
    const { calls } = mockGraphQL({});
    renderPanel('provider');
    fireEvent.click(screen.getByRole('button', { name: 'Submit Provider Request' }));
    expect(await screen.findByText('Medical license number is required')).toBeVisible();
    expect(screen.getByText('Organization name is required')).toBeVisible();
    expect(calls).toHaveLength(0);
  });

  it('sends the patient form only with consent, honeypot empty, and thanks by first name', async () => {
    const { calls } = mockGraphQL({
      SubmitPatientAccessRequest: () => ({ submitPatientAccessRequest: { success: true, message: null } }),
    });
    renderPanel('patient');
    const submit = screen.getByRole('button', { name: 'Submit Patient Request' });
    expect((submit as HTMLButtonElement).disabled).toBe(true);
    fill(/^First name/, 'Maya');
    fill(/^Last name/, 'Lopez');
    fill(/^Date of birth/, '1990-04-12');
    fill(/^Phone number/, '5550104567');
    fill(/^Email/, 'maya@example.org');
    fill(/^Reason for interest/, 'Evaluation for anxiety.');
    fireEvent.click(screen.getByLabelText(/I agree to be contacted/));
    expect((submit as HTMLButtonElement).disabled).toBe(false);
    fireEvent.click(submit);
    expect(await screen.findByRole('heading', { name: 'Thank you, Maya!' })).toBeVisible();
    await waitFor(() => {
      expect(calls).toHaveLength(1);
    });
    const input = calls[0]?.variables['input'] as Record<string, unknown>;
    expect(input['website']).toBe('');
    expect(input['consentToContact']).toBe(true);
    expect(input['languagePreference']).toBe('english');
    expect(input['preferredContactMethod']).toBe('email');
    expect(input['address']).toBeNull();
  });

  it('offers only the preferred times the practice’s hours cover', async () => {
    mockGraphQL({
      PracticeHours: () => ({
        practiceHours: {
          slotStepMinutes: 30,
          earliestStart: '09:00',
          latestEnd: '17:00',
          preferredTimes: ['morning', 'afternoon', 'flexible'],
        },
      }),
    });
    renderPanel('patient');
    const select = document.getElementById('patient-request-preferredAppointmentTimes') as HTMLSelectElement;
    await waitFor(() => {
      expect([...select.options].map((option) => option.value)).toEqual(['', 'morning', 'afternoon', 'flexible']);
    });
  });

  it('puts the server’s field errors at the fields', async () => {
    mockGraphQL({
      SubmitProviderAccessRequest: () => ({
        errors: [
          {
            message: 'Validation failed: An account with this email already exists',
            extensions: {
              code: 'BAD_USER_INPUT',
              fieldErrors: { email: 'An account with this email already exists' },
              fields: [{ field: 'email', messageId: 'accessRequestMessages.accountExists', params: {} }],
            },
          },
        ],
      }),
    });
    renderPanel('provider');
    fill(/^First name/, 'Ana');
    fill(/^Last name/, 'Reyes');
    fill(/^Email/, 'ana@example.org');
    fill(/^Phone number/, '5550101234');
    fill(/^Medical license number/, 'MD-1');
    fill(/^Specialty/, 'Psychiatry');
    fill(/^Years of experience/, '6-10');
    fill(/^Organization name/, 'Reyes Clinic');
    fireEvent.click(screen.getByRole('button', { name: 'Submit Provider Request' }));
    expect(await screen.findByText('An account with this email already exists')).toBeVisible();
  });

  it('says the shared schema’s messages, the browser’s own and the server’s, in Spanish', async () => {
    mockGraphQL({
      SubmitProviderAccessRequest: () => ({
        errors: [
          {
            message: 'Validation failed: Please enter a valid email address, Please choose a valid specialty',
            extensions: {
              code: 'BAD_USER_INPUT',
              fieldErrors: {
                email: 'Please enter a valid email address',
                specialty: 'Please choose a valid specialty',
              },
              fields: [
                { field: 'email', messageId: 'fieldMessages.emailInvalid', params: {} },
                { field: 'specialty', messageId: 'fieldMessages.chooseValid', params: { label: 'specialty' } },
              ],
            },
          },
        ],
      }),
    });
    await i18n.changeLanguage('es');
    renderPanel('provider');
    const submit = await screen.findByRole('button', { name: 'Enviar solicitud de profesional' });
    fireEvent.click(submit);
    expect(await screen.findByText('El campo «Número de licencia médica» es obligatorio')).toBeVisible();

    fillField('firstName', 'Ana 2');
    fillField('phone', '123');
    fillField('practiceZip', '1234');
    fireEvent.click(submit);
    expect(
      await screen.findByText('El campo «Nombre» solo puede contener letras, espacios, guiones y apóstrofos'),
    ).toBeVisible();
    expect(screen.getByText('El número de teléfono debe tener entre 10 y 15 dígitos')).toBeVisible();
    expect(screen.getByText('Ingrese un código postal válido')).toBeVisible();

    // Valid here; the server refuses two fields in its English words, shown in Spanish at the fields.
    fillField('firstName', 'Ana');
    fillField('lastName', 'Reyes');
    fillField('email', 'ana@example.org');
    fillField('phone', '5550101234');
    fillField('medicalLicense', 'MD-1');
    fillField('specialty', 'Psychiatry');
    fillField('yearsOfExperience', '6-10');
    fillField('organizationName', 'Reyes Clinic');
    fillField('practiceZip', '02139');
    fireEvent.click(submit);
    expect(await screen.findByText('Elija una opción válida en «Especialidad»')).toBeVisible();
    expect(screen.getByText('Ingrese una dirección de correo electrónico válida')).toBeVisible();
  });
});
