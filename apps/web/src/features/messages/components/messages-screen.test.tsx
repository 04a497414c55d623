import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { MESSAGE_ATTACHMENT_MAX_BYTES } from '@telehealth/shared';
import { describe, expect, it } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { Conversation, Message } from '../api/messages-api.ts';
import { MessagesScreen } from './messages-screen.tsx';

const CONVERSATION: Conversation = {
  id: 'c1',
  kind: 'clinical',
  subject: 'Side effects',
  patientId: 'p1',
  patientName: 'Lena Park',
  providerName: 'Maya Okafor',
  mySide: 'patient',
  lastMessageAt: '2026-11-24T10:00:00.000Z',
  lastMessagePreview: 'Take it with food.',
  unreadCount: 1,
  archived: false,
};

const MESSAGES: Message[] = [
  {
    id: 'm1',
    body: 'My hands shake.',
    senderName: 'Lena Park',
    senderSide: 'patient',
    mine: true,
    createdAt: '2026-11-24T09:00:00.000Z',
    readAt: '2026-11-24T09:30:00.000Z',
    attachments: [{ id: 'a1', fileName: 'hands.png', mediaType: 'image/png', sizeBytes: 2048 }],
  },
  {
    id: 'm2',
    body: 'Take it with food.',
    senderName: 'Maya Okafor',
    senderSide: 'practice',
    mine: false,
    createdAt: '2026-11-24T10:00:00.000Z',
    readAt: null,
    attachments: [],
  },
];

function mockMessages() {
  let unread = 1;
  return mockGraphQL({
    Conversations: () => ({ conversations: { items: [{ ...CONVERSATION, unreadCount: unread }], nextToken: null } }),
    Conversation: () => ({ conversation: { ...CONVERSATION, unreadCount: unread, messages: MESSAGES } }),
    MarkConversationRead: () => {
      unread = 0;
      return { markConversationRead: { id: 'c1', unreadCount: 0 } };
    },
    UnreadMessageCount: () => ({ unreadMessageCount: unread }),
  });
}

describe('MessagesScreen', () => {
  it('marks unread conversations, and reading one marks it read and shows the receipts', async () => {
    const graphql = mockMessages();
    renderRoutes([{ path: '/messages', element: <MessagesScreen side="patient" /> }], '/messages');

    const item = await screen.findByRole('button', { name: /Side effects/ });
    expect(within(item).getByLabelText('1 unread message')).toBeVisible();
    fireEvent.click(item);

    const thread = await screen.findByRole('region', { name: 'Side effects' });
    await waitFor(() => expect(graphql.calls.some((c) => c.operationName === 'MarkConversationRead')).toBe(true));
    expect(within(thread).getByTestId('receipt').textContent).toMatch(/^Read /);
    expect(within(thread).getByRole('link', { name: 'Download hands.png (2 KB)' }).getAttribute('href')).toBe(
      '/api/messages/attachments/a1',
    );
    // Every compose box says that messages are not for emergencies, and when the practice answers.
    const notice = within(thread).getByRole('note');
    expect(notice.textContent).toContain('988');
    expect(notice.textContent).toContain('911');
    expect(notice.textContent).toContain('The practice answers within 2 business days.');
  });

  it('refuses a file of the wrong type, over 10 MB or with a name the text rule refuses before uploading it', async () => {
    mockMessages();
    renderRoutes([{ path: '/messages', element: <MessagesScreen side="patient" /> }], '/messages?c=c1');
    const thread = await screen.findByRole('region', { name: 'Side effects' });
    const input = thread.querySelector<HTMLInputElement>('input[type="file"]')!;

    fireEvent.change(input, { target: { files: [new File(['just text'], 'photo.png', { type: 'image/png' })] } });
    expect((await within(thread).findByRole('alert')).textContent).toBe(
      'photo.png cannot be attached: choose a PDF, PNG or JPEG file.',
    );
    const huge = new File([new Uint8Array(MESSAGE_ATTACHMENT_MAX_BYTES + 1)], 'scan.pdf', { type: 'application/pdf' });
    fireEvent.change(input, { target: { files: [huge] } });
    await waitFor(() =>
      expect(within(thread).getByRole('alert').textContent).toBe(
        'scan.pdf is too large: attachments can be at most 10 MB.',
      ),
    );
    // A right-to-left override makes "invoice\u202Efdp.exe" read as "invoiceexe.pdf": the server's own message.
    const pdf = new File(['%PDF-1.4'], 'invoice\u202Efdp.exe.pdf', { type: 'application/pdf' });
    fireEvent.change(input, { target: { files: [pdf] } });
    await waitFor(() =>
      expect(within(thread).getByRole('alert').textContent).toBe('File name contains invalid characters'),
    );
    // None became an attachment being uploaded.
    expect(within(thread).queryByRole('button', { name: /^Remove / })).toBeNull();
  });

  it('pages through the conversations with nextToken', async () => {
    const graphql = mockGraphQL({
      Conversations: (variables) =>
        variables.nextToken === 'page-2'
          ? { conversations: { items: [{ ...CONVERSATION, id: 'c2', subject: 'Older one' }], nextToken: null } }
          : { conversations: { items: [CONVERSATION], nextToken: 'page-2' } },
    });
    renderRoutes([{ path: '/messages', element: <MessagesScreen side="patient" /> }], '/messages');
    await screen.findByRole('button', { name: /Side effects/ });
    fireEvent.click(screen.getByRole('button', { name: 'Show more conversations' }));
    expect(await screen.findByRole('button', { name: /Older one/ })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Show more conversations' })).toBeNull();
    expect(graphql.calls.filter((c) => c.operationName === 'Conversations').map((c) => c.variables.nextToken)).toEqual([
      null,
      'page-2',
    ]);
  });
});
