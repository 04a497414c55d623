import type { Browser, Page } from '@playwright/test';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { graphqlData } from '../support/graphql.ts';
import { expectFitsPhone, PHONE } from '../support/phone.ts';
import { bookHalfHour, createPortalPatient } from '../support/records.ts';
import { VIDEO_SERVER } from '../support/servers.ts';

/**
 * The telehealth consent gate of video visits (decision 069) on the video tests' server: an administrator turns on
 * "Video visits need a signed telehealth consent"; a patient who has not signed it opens their visit on a phone,
 * is asked in the waiting room to read and sign it, signs there, and the join goes on by itself to the waiting
 * state. The setting is the whole practice's: this project runs after the other video tests (playwright.config.ts),
 * and the setting goes back to its default at the end.
 */
test.describe.configure({ mode: 'serial' });

const ORIGIN = VIDEO_SERVER.url;
const RESET = 'mutation ($key: String!) { resetPracticeSetting(key: $key) { values { videoConsentRequired } } }';
const DOCTORS = 'query { listDoctors(limit: 50) { items { id email } } }';

test.afterAll(async ({ browser }) => {
  const context = await browser.newContext({ baseURL: ORIGIN });
  const page = await context.newPage();
  await signInByApi(page, 'admin@demo.test', ORIGIN);
  await graphqlData(page.request, ORIGIN, RESET, { key: 'videoConsentRequired' });
  await context.close();
});

async function signedInPage(
  browser: Browser,
  email: string,
  options: { phone?: boolean; password?: string } = {},
): Promise<Page> {
  const context = await browser.newContext({
    baseURL: ORIGIN,
    permissions: ['camera', 'microphone'],
    viewport: options.phone ? PHONE : { width: 1280, height: 720 },
  });
  const page = await context.newPage();
  await signInByApi(page, email, ORIGIN, options.password);
  return page;
}

test('with the setting on, a patient who has not signed the telehealth consent signs it in the waiting room (phone) and the join goes on to the waiting state', async ({
  browser,
}) => {
  const admin = await signedInPage(browser, 'admin@demo.test');

  // The administrator turns the setting on at /admin/settings.
  await admin.goto('/admin/settings');
  const setting = admin.getByRole('switch', { name: 'Video visits need a signed telehealth consent' });
  await expect(setting).not.toBeChecked();
  await setting.check();
  await admin.getByRole('button', { name: 'Save changes' }).click();
  await expect(admin.getByText('Settings saved. They apply at once, without a restart.')).toBeVisible();
  expect(await seriousViolations(admin)).toEqual([]);

  // A patient of their own (not a demo name), with a video visit of the second demo provider.
  const patient = await createPortalPatient(ORIGIN, { providerEmail: 'provider2@demo.test' });
  const { listDoctors } = await graphqlData<{ listDoctors: { items: { id: string; email: string }[] } }>(
    admin.request,
    ORIGIN,
    DOCTORS,
  );
  const providerId = listDoctors.items.find((d) => d.email === 'provider2@demo.test')!.id;
  const visit = await bookHalfHour(admin.request, ORIGIN, patient.id, { fields: { providerId } });

  const page = await signedInPage(browser, patient.email, { phone: true, password: patient.password });
  await page.goto(`/video-call/${visit.id}`);
  await expect(page.getByRole('heading', { name: 'Video Consultation', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Your name')).toHaveValue(/\S/);
  await page.getByRole('button', { name: 'Join Video Call' }).click();

  // Refused for the consent: the consent itself, to read and sign, in the waiting room.
  await expect(page.getByRole('heading', { name: 'Waiting room: your telehealth consent', level: 2 })).toBeVisible();
  await expect(
    page.getByRole('status').filter({ hasText: 'Please read and sign the telehealth consent' }),
  ).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Telehealth informed consent' })).toBeVisible();
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);

  await page.getByLabel('Your full name').fill(patient.name);
  await page.getByRole('checkbox', { name: 'I have read this document and I agree to it' }).check();
  await page.getByRole('button', { name: 'Sign', exact: true }).click();

  // Signed: the join goes on by itself.
  await expect(page.getByText('Your provider will let you in shortly.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Waiting room: your telehealth consent' })).toHaveCount(0);
  await expectFitsPhone(page);
  expect(await seriousViolations(page)).toEqual([]);
  await page.context().close();
  await admin.context().close();
});
