import { screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';

import { i18n } from '../../../lib/i18n.ts';
import { mockGraphQL } from '../../../testing/graphql-mock.ts';
import { renderRoutes } from '../../../testing/render.tsx';
import type { ConsoleStats } from '../api/admin-console-api.ts';
import { ConsoleStatsCards } from './console-stats.tsx';

const STATS: ConsoleStats = {
  accounts: [
    { role: 'admin', active: true, count: 1 },
    { role: 'provider', active: true, count: 2 },
    { role: 'patient', active: true, count: 1 },
    { role: 'provider', active: false, count: 1 },
  ],
  activePatients: 3,
  appointmentsToday: 0,
  appointmentsThisWeek: 1,
  openAccessRequests: 0,
  undeliveredMail: { waiting: 0, failed: 0, kept: 0, oldestWaitingAt: null },
  chainVerification: null,
  backup: { lastStatus: null, lastSucceededAt: null },
  recentActivity: [],
  timeZone: 'America/New_York',
  today: '2026-11-25',
  weekStart: '2026-11-23',
};

function renderCards() {
  mockGraphQL({
    AdminConsoleStats: () => ({ adminConsoleStats: STATS }),
    SystemHealth: () => ({ errors: [{ message: 'not in this test' }] }),
  });
  renderRoutes([{ path: '/admin', element: <ConsoleStatsCards /> }], '/admin');
}

describe('ConsoleStatsCards', () => {
  afterEach(async () => {
    await i18n.changeLanguage('en');
  });

  it('counts accounts by role in the singular and the plural', async () => {
    renderCards();
    expect(await screen.findByText('1 administrator · 2 providers · 1 patient')).toBeVisible();
    expect(screen.getByText('1 inactive account')).toBeVisible();
  });

  it('in Spanish too', async () => {
    await i18n.changeLanguage('es');
    renderCards();
    expect(await screen.findByText('1 administrador · 2 profesionales · 1 paciente')).toBeVisible();
  });
});
