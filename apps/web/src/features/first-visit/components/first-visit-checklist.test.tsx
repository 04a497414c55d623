import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';

import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import { FirstVisitChecklist } from './first-visit-checklist.tsx';
import { ReadinessBadges } from './readiness-badges.tsx';

const ITEMS = [
  {
    kind: 'document',
    id: 'd1',
    documentKind: 'telehealth-consent',
    titleEn: 'Telehealth informed consent',
    titleEs: 'Consentimiento informado para telesalud',
    status: 'to-sign',
    instrument: null,
  },
  {
    kind: 'intake',
    id: 'p1',
    documentKind: null,
    titleEn: null,
    titleEs: null,
    status: 'in-progress',
    instrument: null,
  },
  {
    kind: 'questionnaire',
    id: 'm1',
    documentKind: null,
    titleEn: null,
    titleEs: null,
    status: 'pending',
    instrument: 'phq9',
  },
];

function render(items: unknown[]) {
  const graphql = mockGraphQL({ MyFirstVisitChecklist: () => ({ myFirstVisitChecklist: items }) });
  renderRoutes(
    [
      { path: '/dashboard', element: <FirstVisitChecklist /> },
      { path: '*', element: <p>elsewhere</p> },
    ],
    '/dashboard',
  );
  return graphql;
}

describe('FirstVisitChecklist', () => {
  it('says what each item is and links where it is done', async () => {
    render(ITEMS);
    const sign = await screen.findByRole('link', { name: 'Sign Telehealth informed consent' });
    expect(sign).toHaveAttribute('href', '/my/documents');
    expect(screen.getByRole('link', { name: 'Continue the intake form' })).toHaveAttribute('href', '/my/intake');
    expect(screen.getByText('You started your intake form: finish it and submit it.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Answer PHQ-9 (depression)' })).toHaveAttribute(
      'href',
      '/questionnaires/m1',
    );
    expect(screen.getAllByTestId('first-visit-item')).toHaveLength(3);
  });

  it('is not shown when nothing is left', async () => {
    const graphql = render([]);
    await waitFor(() => expect(graphql.calls.map((c) => c.operationName)).toContain('MyFirstVisitChecklist'));
    // Answered: still nothing on screen.
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(screen.queryByRole('heading', { name: 'Before your first visit' })).toBeNull();
    expect(screen.queryByTestId('first-visit-item')).toBeNull();
  });
});

describe('ReadinessBadges', () => {
  it('names the intake and the consent in words', () => {
    renderRoutes(
      [
        {
          path: '/',
          element: (
            <ReadinessBadges
              readiness={{ patientId: 'p1', intakeStatus: 'submitted', intakeBadge: 'to-review', consentMissing: true }}
            />
          ),
        },
      ],
      '/',
    );
    expect(screen.getByText('Intake to review')).toBeInTheDocument();
    expect(screen.getByText('Consent missing')).toBeInTheDocument();
    expect(screen.queryByText('Intake incomplete')).toBeNull();
  });
});
