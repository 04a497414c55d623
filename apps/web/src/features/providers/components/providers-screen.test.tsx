import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { i18n } from '../../../lib/i18n.ts';
import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { Doctor } from '../api/providers-api.ts';
import { ProvidersScreen } from './providers-screen.tsx';

const MAYA: Doctor = {
  id: 'd1',
  firstName: 'Maya',
  lastName: 'Okafor',
  email: 'provider@demo.test',
  specialty: 'Psychiatry',
  experience: 14,
  phone: null,
  bio: null,
  isActive: true,
  createdAt: '2026-01-01T00:00:00.000Z',
  owner: '11111111-1111-4111-8111-111111111111',
  invitationPending: false,
  invitationExpiresAt: null,
};

const NADIA: Doctor = {
  ...MAYA,
  id: 'd2',
  firstName: 'Nadia',
  lastName: 'Osei',
  email: 'nadia@clinic.test',
  owner: '22222222-2222-4222-8222-222222222222',
  invitationPending: true,
  invitationExpiresAt: '2020-01-01T10:00:00.000Z',
};

const NEW_EXPIRY = '2099-01-04T10:00:00.000Z';

function renderScreen(
  role: 'admin' | 'provider',
  items: Doctor[],
  handlers: Record<string, (variables: Record<string, unknown>) => unknown> = {},
) {
  let listed = items;
  const mock = mockGraphQL({
    ListDoctors: () => ({ listDoctors: { items: listed, nextToken: null } }),
    SendInvitation: (variables) => {
      listed = listed.map((item) =>
        item.owner === variables['accountId'] ? { ...item, invitationExpiresAt: NEW_EXPIRY } : item,
      );
      return { sendInvitation: { success: true, message: 'The invitation has been sent.', expiresAt: NEW_EXPIRY } };
    },
    ...handlers,
  });
  renderRoutes([{ path: '/doctors', element: <ProvidersScreen role={role} /> }], '/doctors');
  return mock;
}

describe('ProvidersScreen invitations', () => {
  it('shows administrators who has not set a password, and sends a new invitation', async () => {
    const { calls } = renderScreen('admin', [MAYA, NADIA]);
    const nadia = await screen.findByRole('article', { name: 'Nadia Osei' });
    expect(within(nadia).getByText('Invitation pending')).toBeVisible();
    expect(within(nadia).getByText(/The invitation link expired on/)).toBeVisible();
    const maya = screen.getByRole('article', { name: 'Maya Okafor' });
    expect(within(maya).queryByText('Invitation pending')).toBeNull();
    expect(within(maya).queryByRole('button', { name: 'Send invitation' })).toBeNull();

    fireEvent.click(within(nadia).getByRole('button', { name: 'Send invitation' }));
    expect(
      await screen.findByText('An invitation was sent to nadia@clinic.test. Any earlier link no longer works.'),
    ).toBeVisible();
    expect(calls.find((call) => call.operationName === 'SendInvitation')?.variables).toEqual({
      accountId: NADIA.owner,
    });
    expect(await within(nadia).findByText(/Invitation link works until/)).toBeVisible();
  });

  it('says when no invitation was sent yet, and why sending failed', async () => {
    renderScreen('admin', [{ ...NADIA, invitationExpiresAt: null }], {
      SendInvitation: () => ({
        errors: [{ message: 'This account is not active', extensions: { code: 'BAD_USER_INPUT' } }],
      }),
    });
    const nadia = await screen.findByRole('article', { name: 'Nadia Osei' });
    expect(within(nadia).getByText('No invitation has been sent yet.')).toBeVisible();
    fireEvent.click(within(nadia).getByRole('button', { name: 'Send invitation' }));
    expect(
      await within(nadia).findByText('The invitation could not be sent: This account is not active'),
    ).toBeVisible();
  });

  it('shows no invitation state or action to a provider', async () => {
    // The server answers null to everyone but administrators; the screen does not rely on it.
    renderScreen('provider', [{ ...NADIA, invitationPending: true }]);
    const nadia = await screen.findByRole('article', { name: 'Nadia Osei' });
    expect(within(nadia).queryByText('Invitation pending')).toBeNull();
    expect(within(nadia).queryByRole('button', { name: 'Send invitation' })).toBeNull();
  });

  it('Add Provider sends the invitation unless it is unticked', async () => {
    const created: Doctor = {
      ...NADIA,
      id: 'd3',
      firstName: 'Ines',
      lastName: 'Carvalho',
      email: 'ines@clinic.test',
      invitationExpiresAt: NEW_EXPIRY,
    };
    const { calls } = renderScreen('admin', [MAYA], {
      CreateDoctor: () => ({ createDoctor: created }),
    });
    const fill = async () => {
      fireEvent.click(await screen.findByRole('button', { name: 'Add Provider' }));
      const dialog = await screen.findByRole('dialog');
      fireEvent.change(within(dialog).getByRole('textbox', { name: /First name/ }), { target: { value: 'Ines' } });
      fireEvent.change(within(dialog).getByRole('textbox', { name: /Last name/ }), {
        target: { value: 'Carvalho' },
      });
      fireEvent.change(within(dialog).getByRole('textbox', { name: /Email/ }), {
        target: { value: 'ines@clinic.test' },
      });
      fireEvent.click(within(dialog).getByRole('combobox', { name: /Specialty/ }));
      fireEvent.click(await screen.findByRole('option', { name: 'Neurology' }));
      return dialog;
    };

    let dialog = await fill();
    const checkbox = within(dialog).getByRole('checkbox', { name: 'Send the invitation e-mail now' });
    expect((checkbox as HTMLInputElement).checked).toBe(true);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Provider' }));
    expect(
      await screen.findByText(
        'Ines Carvalho was added as a provider. An invitation to set a password was sent to ines@clinic.test.',
      ),
    ).toBeVisible();
    expect(calls.find((call) => call.operationName === 'CreateDoctor')?.variables).toMatchObject({
      input: { email: 'ines@clinic.test', specialty: 'Neurology', sendInvitation: true },
    });

    await waitFor(() => {
      expect(screen.queryByRole('dialog')).toBeNull();
    });
    dialog = await fill();
    fireEvent.click(within(dialog).getByRole('checkbox', { name: 'Send the invitation e-mail now' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Add Provider' }));
    await waitFor(() => {
      expect(calls.filter((call) => call.operationName === 'CreateDoctor').at(-1)?.variables).toMatchObject({
        input: { sendInvitation: false },
      });
    });
  });

  it('names the specialty in Spanish, on the card and in the form, and still sends the shared value', async () => {
    await i18n.changeLanguage('es');
    const { calls } = renderScreen('admin', [MAYA], {
      CreateDoctor: () => ({ createDoctor: { ...MAYA, id: 'd3', specialty: 'Neurology' } }),
    });
    const maya = await screen.findByRole('article', { name: 'Maya Okafor' });
    expect(within(maya).getByText('Psiquiatría')).toBeVisible();
    expect(within(maya).queryByText('Psychiatry')).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Agregar profesional' }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Nombre/ }), { target: { value: 'Ines' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Apellido/ }), { target: { value: 'Carvalho' } });
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Correo electrónico/ }), {
      target: { value: 'ines@clinic.test' },
    });
    fireEvent.click(within(dialog).getByRole('combobox', { name: /^Especialidad/ }));
    fireEvent.click(await screen.findByRole('option', { name: 'Neurología' }));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Agregar profesional' }));
    await waitFor(() => {
      expect(calls.find((call) => call.operationName === 'CreateDoctor')?.variables).toMatchObject({
        input: { specialty: 'Neurology' },
      });
    });
  });
});

afterEach(async () => {
  await i18n.changeLanguage('en');
});
