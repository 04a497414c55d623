import { expect, test } from '../support/fixtures.ts';
import { seriousViolations } from '../support/axe.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { keepScreenshot } from '../support/screenshots.ts';

/** An audit event's code (ACCESS_REQUEST_VIEW, ADMIN_LOGIN): the console names events in words instead. */
const EVENT_CODE = /\b[A-Z]{2,}_[A-Z_]+\b/;

interface Figures {
  activePatients: number;
  appointmentsToday: number;
  accounts: { role: string | null; active: boolean; count: number }[];
}

test('an administrator sees the console with the server’s figures and follows it to System health; both fit a phone', async ({
  page,
  signInAs,
  baseURL,
}) => {
  await signInAs('admin');
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'System Administration', level: 1 })).toBeVisible();

  // The figures on the cards are the server's own (asked here as the page does).
  const response = await page.request.post('/graphql', {
    headers: { origin: new URL(baseURL ?? '').origin },
    data: { query: '{ adminConsoleStats { activePatients appointmentsToday accounts { role active count } } }' },
  });
  const figures = ((await response.json()) as { data: { adminConsoleStats: Figures } }).data.adminConsoleStats;
  expect(figures.activePatients).toBeGreaterThan(0);
  const providers = figures.accounts
    .filter((a) => a.role === 'provider' && a.active)
    .reduce((sum, a) => sum + a.count, 0);

  const card = (name: string) =>
    page.getByTestId('console-stat').filter({ has: page.getByRole('heading', { name, exact: true, level: 3 }) });
  await expect(card('Patients')).toContainText(String(figures.activePatients));
  await expect(card('Providers')).toContainText(String(providers));
  await expect(card('Appointments today')).toContainText(String(figures.appointmentsToday));
  await expect(card('Audit trail')).toBeVisible();
  await expect(card('System health').locator('[data-verdict]')).toBeVisible();
  for (const link of ['Users', 'Settings', 'Reports', 'Security', 'Data', 'System health', 'Access Requests']) {
    await expect(page.getByRole('link', { name: link, exact: true })).toBeVisible();
  }
  const activity = page.getByTestId('recent-activity');
  await expect(activity.getByRole('listitem').first()).toBeVisible();
  // Signing in just now is among the newest things that happened, named in words, never by its code.
  await expect(activity).toContainText(/signed in/i);
  await expect(activity).not.toContainText(EVENT_CODE);
  expect(await seriousViolations(page)).toEqual([]);

  await card('System health').getByRole('link', { name: 'See the checks' }).click();
  await expect(page).toHaveURL(/\/admin\/health$/);
  await expect(page.getByRole('heading', { name: 'System health', level: 1 })).toBeVisible();
  for (const name of ['Database', 'Job queue', 'Mail', 'Audit sealer', 'Backups', 'Free space', 'Server']) {
    await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
  }
  await expect(page.getByTestId('health-database')).toContainText('Reachable');
  await expect(page.getByTestId('health-server')).toContainText('Version');
  expect(await seriousViolations(page)).toEqual([]);

  // Both fit a phone: System health, then the console again (Back, in the app).
  await page.setViewportSize(PHONE);
  await expect(page.getByTestId('health-disk')).toBeVisible();
  await expectFitsPhone(page);
  await keepScreenshot(page, test.info().outputPath('admin-health-390.png'));
  await page.goBack();
  await expect(page).toHaveURL(/\/admin$/);
  await expect(page.getByTestId('recent-activity')).toBeVisible();
  await expect(page.getByTestId('console-stat').first()).toBeVisible();
  await expectFitsPhone(page);
  await keepScreenshot(page, test.info().outputPath('admin-console-390.png'));
});

test('a provider is told the console is for administrators', async ({ page, signInAs }) => {
  await signInAs('provider');
  await page.goto('/admin/health');
  await expect(page.getByRole('heading', { name: 'Access Denied' })).toBeVisible();
  await expect(page.getByText('Administrator access required.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Go Back' })).toBeVisible();
  await expect(page.getByTestId('health-database')).toHaveCount(0);
});

test('the console and System health speak Spanish', async ({ page, signInAs }) => {
  await page.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
  await signInAs('admin');
  await page.goto('/admin');
  await expect(page.getByRole('heading', { name: 'Actividad reciente' })).toBeVisible();
  const activity = page.getByTestId('recent-activity');
  await expect(activity).toContainText('Inicio de sesión');
  await expect(activity).not.toContainText(EVENT_CODE);
  expect(await seriousViolations(page)).toEqual([]);
  await expect(page.getByRole('heading', { name: 'Citas de hoy', level: 3 })).toBeVisible();
  await page.goto('/admin/health');
  await expect(page.getByRole('heading', { name: 'Estado del sistema', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Base de datos', level: 2 })).toBeVisible();
});
