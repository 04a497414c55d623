import fs from 'node:fs';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { VIDEO_SERVER } from '../support/servers.ts';
import { expectFitsPhone } from '../support/phone.ts';
import { within } from '../support/budget.ts';
import { keepScreenshot } from '../support/screenshots.ts';

/*
 * Against the video tests' server: a backup reads the whole database, and the main server's many tests beside it
 * need their answers quickly.
 */
const ORIGIN = VIDEO_SERVER.url;
test.use({ baseURL: ORIGIN });

test('an administrator backs up the practice from /admin/data and downloads its patients as FHIR NDJSON; Spanish on a phone', async ({
  page,
}, testInfo) => {
  test.slow();
  await signInByApi(page, 'admin@demo.test', ORIGIN);
  await page.goto('/admin/data');
  await expect(page.getByRole('heading', { name: 'Data', level: 1 })).toBeVisible();

  // A backup started here runs as a job, shows its progress, and ends with its encrypted file.
  const before = await page.getByTestId('backup-run').count();
  await page.getByRole('button', { name: 'Back up now' }).click();
  await expect(page.getByTestId('backup-run')).toHaveCount(before + 1);
  const newest = page.getByTestId('backup-run').first();
  await expect(newest).toContainText('Started here');
  await expect(newest.getByTestId('backup-status')).toHaveText('Succeeded', within(90_000));
  // Its file and size (a small practice's backup is kilobytes, not "0 MB").
  await expect(newest).toContainText(/practice-\d{8}T\d{6}Z-\w+\.backup \([1-9][\d,]*(\.\d)? (kB|MB)\)/);
  expect(await seriousViolations(page)).toEqual([]);

  // The practice's patients in the Bulk Data format: one Patient resource per line.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: 'Patient.ndjson' }).click(),
  ]);
  const lines = fs
    .readFileSync((await download.path()) ?? '', 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
  expect(lines.length).toBeGreaterThan(0);
  for (const line of lines) expect((JSON.parse(line) as { resourceType: string }).resourceType).toBe('Patient');

  // Spanish, at phone width.
  await page.goto('/home');
  await page.getByRole('button', { name: 'Español' }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/admin/data');
  await expect(page.getByRole('heading', { name: 'Datos', level: 1 })).toBeVisible();
  await expect(page.getByTestId('backup-status').first()).toHaveText('Completada');
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
  await keepScreenshot(page, testInfo.outputPath('admin-data-390-es.png'));
});
