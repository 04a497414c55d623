import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { StoredTextFinding } from '../api/stored-text-api.ts';
import { StoredTextScreen } from './stored-text-screen.tsx';

const PATIENT_ID = '11111111-1111-4111-8111-111111111111';

const FINDING: StoredTextFinding = {
  id: 'f1',
  table: 'patients',
  recordId: PATIENT_ID,
  field: 'city',
  problem: 'markup',
  foundAt: '2026-11-24T10:00:00.000Z',
  resolvedAt: null,
};

describe('StoredTextScreen', () => {
  it('lists where each finding is, links the patient record, and marks a finding resolved', async () => {
    let open = [FINDING, { ...FINDING, id: 'f2', table: 'users', field: 'name', problem: 'invalidCharacters' }];
    const graphql = mockGraphQL({
      StoredTextFindings: () => ({ storedTextFindings: open }),
      ResolveStoredTextFinding: ({ id }) => {
        const resolved = { ...FINDING, resolvedAt: '2026-11-24T11:00:00.000Z' };
        open = open.filter((finding) => finding.id !== id);
        return { resolveStoredTextFinding: resolved };
      },
    });
    renderRoutes([{ path: '/admin/stored-text', element: <StoredTextScreen /> }], '/admin/stored-text');

    const items = await screen.findAllByTestId('stored-text-finding');
    expect(items).toHaveLength(2);
    expect(items[0]?.textContent).toContain('Patient');
    expect(items[0]?.textContent).toContain('city');
    expect(items[0]?.textContent).toContain('< or > in a one-line field');
    expect(items[1]?.textContent).toContain('Invalid characters');
    expect(screen.getByRole('link', { name: 'Open the patient record' }).getAttribute('href')).toBe(
      `/patients/${PATIENT_ID}/edit`,
    );

    fireEvent.click(screen.getAllByRole('button', { name: 'Mark resolved' })[0]!);
    await waitFor(() => {
      expect(screen.getAllByTestId('stored-text-finding')).toHaveLength(1);
    });
    expect(graphql.calls.find((call) => call.operationName === 'ResolveStoredTextFinding')?.variables).toEqual({
      id: 'f1',
    });
  });

  it('says when nothing needs attention', async () => {
    mockGraphQL({ StoredTextFindings: () => ({ storedTextFindings: [] }) });
    renderRoutes([{ path: '/admin/stored-text', element: <StoredTextScreen /> }], '/admin/stored-text');
    const empty = await screen.findByText('Nothing needs attention: every stored text meets the input rules.');
    expect(empty.tagName).toBe('P');
    expect(screen.queryAllByTestId('stored-text-finding')).toEqual([]);
  });
});
