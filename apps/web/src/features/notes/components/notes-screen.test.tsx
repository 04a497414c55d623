import { fireEvent, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { Note } from '../api/notes-api.ts';
import { NotesScreen } from './notes-screen.tsx';

const BASE: Note = {
  id: 'n1',
  title: 'Session notes',
  content: null,
  tags: null,
  category: 'general',
  priority: 'medium',
  isPrivate: true,
  patientId: '11111111-1111-4111-8111-111111111111',
  patientName: 'Ana Ruiz',
  appointmentId: null,
  templateId: null,
  authorName: 'Maya Okafor',
  isAuthor: true,
  status: 'draft',
  version: 1,
  signedAt: null,
  signedByName: null,
  createdAt: '2026-11-24T10:00:00.000Z',
  updatedAt: '2026-11-24T10:00:00.000Z',
  addendumCount: 0,
  addenda: null,
};

describe('NotesScreen', () => {
  it('opens a psychotherapy draft in the reader before editing (a list leaves its content out)', async () => {
    const graphql = mockGraphQL({
      ListNotes: () => ({ listNotes: { items: [BASE], nextToken: null } }),
      NoteStats: () => ({ noteStats: { total: 1, medical: 0, highPriority: 0, private: 1 } }),
      GetNote: () => ({ getNote: { ...BASE, content: 'Themes of the session', tags: [], addenda: [] } }),
      NoteTemplates: () => ({ noteTemplates: [] }),
    });
    renderRoutes([{ path: '/notes', element: <NotesScreen canWrite /> }], '/notes');

    const card = await screen.findByRole('article', { name: 'Session notes' });
    expect(card.textContent).toContain('Open the note to read it');
    fireEvent.click(screen.getByRole('button', { name: 'Edit note Session notes' }));
    // The reader, not an empty editor: the content comes from getNote.
    expect(await screen.findByText('Themes of the session')).toBeVisible();
    expect(screen.queryByRole('dialog', { name: 'Edit Note' })).toBeNull();
    expect(graphql.calls.filter((c) => c.operationName === 'GetNote')).toHaveLength(1);
  });
});
