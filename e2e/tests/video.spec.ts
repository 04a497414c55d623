import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { seriousViolations } from '../support/axe.ts';
import { expect, signInByApi, test } from '../support/fixtures.ts';
import { linkFromOutbox } from '../support/outbox.ts';
import { expectFitsPhone } from '../support/phone.ts';
import { VIDEO_SERVER } from '../support/servers.ts';
import { scaled, within } from '../support/budget.ts';
import { createPortalPatient, type PortalPatient } from '../support/records.ts';

/**
 * Video visits with two headless Chromiums (fake camera and microphone) against the real server: the waiting
 * room, admission from the provider's dashboard, pictures and sound both ways, the end of the visit, strangers
 * and cancellations refused, a call relayed through a real TURN server (coturn), and a signalling socket that
 * drops mid-call. One call at a time: each holds two browsers encoding video on this machine's two cores.
 */
test.describe.configure({ mode: 'serial' });

const ORIGIN = VIDEO_SERVER.url;

/**
 * The patient of every visit in this file: made for it (a record of the first demo provider, with a portal
 * account), so that no other test's changes to the demo patient reach these.
 */
let thePatient: PortalPatient;
test.beforeAll(async () => {
  thePatient = await createPortalPatient(ORIGIN);
});

interface GraphQLBody<T> {
  data: T | null;
  errors?: { message: string }[];
}

async function data<T>(page: Page, query: string, variables: Record<string, unknown> = {}): Promise<T> {
  const response = await page.request.post('/graphql', { headers: { origin: ORIGIN }, data: { query, variables } });
  const body = (await response.json()) as GraphQLBody<T>;
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data as T;
}

const PHONE = { width: 390, height: 844 };
const LAPTOP = { width: 1366, height: 768 };

async function person(
  browser: Browser,
  email: string,
  phone = false,
  options: { viewport?: { width: number; height: number }; language?: 'en' | 'es'; password?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    baseURL: ORIGIN,
    permissions: ['camera', 'microphone'],
    viewport: options.viewport ?? (phone ? PHONE : { width: 1280, height: 720 }),
  });
  if (options.language) {
    await context.addInitScript((language) => localStorage.setItem('telehealth.language', language), options.language);
  }
  const page = await context.newPage();
  await signInByApi(page, email, ORIGIN, options.password);
  return { context, page };
}

/** This file's patient, signed in to a browser of their own (a phone unless told). */
function patientPerson(
  browser: Browser,
  phone = false,
  options: { viewport?: { width: number; height: number }; language?: 'en' | 'es' } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  return person(browser, thePatient.email, phone, { ...options, password: thePatient.password });
}

/**
 * A video visit of a demo provider (the second, unless told) with this file's patient, booked by the administrator at
 * the next free half hour (the server's practice time zone makes that late morning, whatever the hour of the run).
 */
async function bookVisit(admin: Page, firstSlot = 0, providerEmail = 'provider2@demo.test'): Promise<string> {
  const { appConfig } = await data<{ appConfig: { practiceTimeZone: string } }>(
    admin,
    'query { appConfig { practiceTimeZone } }',
  );
  const { listDoctors } = await data<{ listDoctors: { items: { id: string; email: string }[] } }>(
    admin,
    'query { listDoctors(limit: 50) { items { id email } } }',
  );
  const providerId = listDoctors.items.find((d) => d.email === providerEmail)!.id;
  const format = new Intl.DateTimeFormat('en-CA', {
    timeZone: appConfig.practiceTimeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  });
  for (let k = firstSlot; k < firstSlot + 6; k++) {
    const at = new Date(Math.ceil(Date.now() / 1_800_000) * 1_800_000 + k * 1_800_000);
    const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
    const response = await admin.request.post('/graphql', {
      headers: { origin: ORIGIN },
      data: {
        query: 'mutation ($input: CreateAppointmentInput!) { createAppointment(input: $input) { id } }',
        variables: {
          input: {
            patientId: thePatient.id,
            providerId,
            date: `${parts['year']}-${parts['month']}-${parts['day']}`,
            time: `${parts['hour']}:${parts['minute']}`,
            duration: 30,
            appointmentType: 'video',
            reason: 'Video follow-up',
            allowOutsideHours: true,
          },
        },
      },
    });
    const body = (await response.json()) as GraphQLBody<{ createAppointment: { id: string } }>;
    if (body.data) return body.data.createAppointment.id;
  }
  throw new Error('no free half hour for a video visit');
}

/** The other person's picture keeps moving: its time advances and it has a size. */
async function expectMovingPicture(page: Page): Promise<void> {
  const video = page.getByTestId('remote-video');
  await expect(video).toHaveAttribute('data-connection-state', 'connected', within(20_000));
  const first = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  // A decoded picture (WebRTC lowers the resolution on a busy machine, so any size counts).
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.videoWidth), within(15_000)).toBeGreaterThan(0);
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime), within(15_000))
    .toBeGreaterThan(first + 1);
}

/** The other person's sound arrives: the level of the remote stream's audio is above silence. */
async function expectSound(page: Page): Promise<void> {
  const loudest = await page.getByTestId('remote-video').evaluate(async (v: HTMLVideoElement) => {
    const stream = v.srcObject as MediaStream;
    const context = new AudioContext();
    const analyser = context.createAnalyser();
    context.createMediaStreamSource(stream).connect(analyser);
    const samples = new Uint8Array(analyser.fftSize);
    let peak = 0;
    for (let i = 0; i < 30; i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      analyser.getByteTimeDomainData(samples);
      for (const s of samples) peak = Math.max(peak, Math.abs(s - 128));
    }
    await context.close();
    return peak;
  });
  expect(loudest).toBeGreaterThan(2);
}

async function joinAsPatient(page: Page, id: string, query = ''): Promise<void> {
  await page.goto(`/video-call/${id}${query}`);
  await expect(page.getByRole('heading', { name: 'Video Consultation', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Your name')).toHaveValue(/\S/);
  await page.getByRole('button', { name: 'Join Video Call' }).click();
  await expect(page.getByText('Your provider will let you in shortly.')).toBeVisible();
}

async function startAndAdmit(page: Page, id: string, query = ''): Promise<void> {
  await page.goto(`/video-call/start/${id}${query}`);
  await page.getByRole('button', { name: 'Start Video Call' }).click();
  await expect(page.getByTestId('waiting-person')).toBeVisible();
  await page.getByRole('button', { name: 'Let in' }).click();
}

const APPOINTMENT_FIELDS = 'id status startsAt endsAt date time';
interface Listed {
  id: string;
  status: string;
  startsAt: string;
  endsAt: string;
  date: string;
  time: string;
}

/**
 * Cancels the visits of the signed-in provider, and of their patient, that hold any of the next `minutes`: what
 * See now must not meet (the demo schedule fills the day).
 */
async function clearTheNext(page: Page, patientId: string, minutes: number): Promise<void> {
  const until = Date.now() + minutes * 60_000;
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  for (const filter of [{}, { patientId }]) {
    const { listAppointments } = await data<{ listAppointments: { items: Listed[] } }>(
      page,
      `query ($filter: AppointmentFilterInput) { listAppointments(filter: $filter, limit: 100) { items { ${APPOINTMENT_FIELDS} } } }`,
      { filter: { from: yesterday, to: tomorrow, ...filter } },
    );
    for (const a of listAppointments.items) {
      const holds = !['cancelled', 'no-show', 'completed'].includes(a.status);
      if (holds && Date.parse(a.startsAt) < until && Date.parse(a.endsAt) > Date.now() - 60_000) {
        await data(page, 'mutation ($input: CancelAppointmentInput!) { cancelAppointment(input: $input) { id } }', {
          input: { id: a.id, reason: 'Making room for See now' },
        });
      }
    }
  }
}

test('See now: a provider starts an unscheduled video visit from the chart (Spanish, phone size), lands in its room, and the patient can join from the portal at once', async ({
  browser,
}) => {
  const provider = await person(browser, 'provider@demo.test', true);
  await provider.page.addInitScript(() => localStorage.setItem('telehealth.language', 'es'));
  const patientId = thePatient.id;
  await clearTheNext(provider.page, patientId, 95);

  await provider.page.goto(`/patients/${patientId}`);
  const seeNow = provider.page.getByRole('button', { name: 'Atender ahora (video)' });
  await expect(seeNow).toBeVisible(within(30_000));
  expect(await seriousViolations(provider.page)).toEqual([]);
  await expectFitsPhone(provider.page);
  await seeNow.click();
  await expect(provider.page).toHaveURL(/\/video-call\/start\/[0-9a-f-]{36}$/);
  await expect(provider.page.getByRole('heading', { name: 'Iniciar videoconsulta', level: 1 })).toBeVisible();
  const id = provider.page.url().split('/').at(-1)!;
  const { getAppointment } = await data<{ getAppointment: Listed & { appointmentType: string; duration: number } }>(
    provider.page,
    `query ($id: ID!) { getAppointment(id: $id) { ${APPOINTMENT_FIELDS} appointmentType duration } }`,
    { id },
  );
  expect(getAppointment).toMatchObject({ status: 'confirmed', appointmentType: 'video' });
  expect(Date.parse(getAppointment.startsAt)).toBeLessThanOrEqual(Date.now());

  // The patient finds it in My appointments with the way in open now.
  const patient = await patientPerson(browser, true);
  await patient.page.goto('/my/appointments');
  const upcoming = patient.page.getByRole('region', { name: 'Upcoming' });
  const join = upcoming.locator(`a[href="/video-call/${id}"]`);
  await expect(join).toBeVisible(within(30_000));
  await join.click();
  await expect(patient.page.getByRole('heading', { name: 'Video Consultation', level: 1 })).toBeVisible();

  // Out of the way of the visits booked by the tests after this one.
  await data(provider.page, 'mutation ($input: CancelAppointmentInput!) { cancelAppointment(input: $input) { id } }', {
    input: { id, reason: 'Test over' },
  });
  for (const p of [patient, provider]) await p.context.close();
});

test('a visit ended before its start time moves to Past on the patient’s My appointments', async ({ browser }) => {
  const admin = await person(browser, 'admin@demo.test');
  // At least an hour ahead: still ahead when the checks run.
  const id = await bookVisit(admin.page, 2);
  const provider = await person(browser, 'provider2@demo.test');
  await provider.page.goto(`/video-call/start/${id}`);
  await provider.page.getByRole('button', { name: 'Start Video Call' }).click();
  await provider.page.getByRole('button', { name: 'End Call' }).click();
  await provider.page.getByRole('dialog').getByRole('button', { name: 'End the visit' }).click();
  await expect(provider.page.getByRole('heading', { name: 'Call Ended' })).toBeVisible();
  const ended = await data<{ getAppointment: Listed }>(
    admin.page,
    `query ($id: ID!) { getAppointment(id: $id) { ${APPOINTMENT_FIELDS} } }`,
    { id },
  );
  expect(ended.getAppointment.status).toBe('completed');
  expect(Date.parse(ended.getAppointment.startsAt)).toBeGreaterThan(Date.now());

  const patient = await patientPerson(browser, true);
  await patient.page.goto('/my/appointments');
  const card = (region: string) =>
    patient.page
      .getByRole('region', { name: region })
      .getByTestId('my-appointment')
      .filter({ hasText: ended.getAppointment.time })
      .filter({ hasText: 'Completed' });
  await expect(card('Past')).toHaveCount(1, within(30_000));
  await expect(card('Upcoming')).toHaveCount(0);
  expect(await seriousViolations(patient.page)).toEqual([]);
  for (const p of [admin, patient, provider]) await p.context.close();
});

test('an early patient waits; the provider lets them in from the dashboard; both see and hear; a consented recording plays back for the provider only; ending completes the visit', async ({
  browser,
}) => {
  const admin = await person(browser, 'admin@demo.test');
  const id = await bookVisit(admin.page);
  const patient = await patientPerson(browser, true);
  const provider = await person(browser, 'provider2@demo.test');

  // The device and network check before joining, at phone size.
  await patient.page.goto(`/video-call/${id}`);
  await patient.page.getByRole('button', { name: 'Check my devices' }).click();
  await expect(patient.page.getByTestId('local-video')).toBeVisible();
  await patient.page.getByRole('button', { name: 'Test my connection' }).click();
  await expect(patient.page.getByText('Video server:')).toContainText('Working');
  expect(await seriousViolations(patient.page)).toEqual([]);

  await joinAsPatient(patient.page, id);
  // Held: no one's picture, nothing relayed.
  await expect(patient.page.getByTestId('remote-video')).toHaveCount(0);
  expect(await seriousViolations(patient.page)).toEqual([]);

  // The provider's dashboard says who waits, live.
  await provider.page.goto('/dashboard');
  const alert = provider.page.getByTestId('video-waiting-alert');
  await expect(alert).toContainText('1 patient is waiting for a video visit');
  await alert.getByRole('link', { name: 'Open the visit' }).click();
  await expect(provider.page.getByRole('heading', { name: 'Start Video Consultation', level: 1 })).toBeVisible();
  await expect(provider.page.getByLabel('Link')).toHaveValue(`${ORIGIN}/video-call/${id}`);
  await provider.page.getByRole('button', { name: 'Start Video Call' }).click();
  await provider.page.getByRole('button', { name: 'Let in' }).click();

  await expectMovingPicture(patient.page);
  await expectMovingPicture(provider.page);
  await expectSound(patient.page);
  await expectSound(provider.page);
  await expect(provider.page.getByLabel('Connection quality')).toContainText(/Good|Fair|Poor/, within(15_000));
  expect(await seriousViolations(provider.page)).toEqual([]);
  const inProgress = await data<{ getAppointment: { status: string } }>(
    admin.page,
    'query ($id: ID!) { getAppointment(id: $id) { status } }',
    { id },
  );
  expect(inProgress.getAppointment.status).toBe('in-progress');

  // Recording, with the patient's consent: both see it run; the provider stops it.
  await provider.page.getByRole('button', { name: 'Record this visit' }).click();
  await expect(patient.page.getByTestId('recording-consent')).toContainText('Your provider asks to record this visit');
  expect(await seriousViolations(patient.page)).toEqual([]);
  await patient.page.getByRole('button', { name: 'I agree to be recorded' }).click();
  await expect(provider.page.getByTestId('recording-indicator')).toBeVisible();
  await expect(patient.page.getByTestId('recording-indicator')).toBeVisible();
  await provider.page.waitForTimeout(5_000);
  await provider.page.getByRole('button', { name: 'Stop recording' }).click();
  await expect(patient.page.getByText('The recording has stopped.')).toBeVisible();

  await provider.page.getByRole('button', { name: 'End Call' }).click();
  await provider.page.getByRole('dialog').getByRole('button', { name: 'End the visit' }).click();
  await expect(patient.page.getByRole('heading', { name: 'Call Ended' })).toBeVisible();
  await expect(patient.page.getByText('Your provider ended the visit.')).toBeVisible();
  await expect(provider.page.getByRole('heading', { name: 'Call Ended' })).toBeVisible();
  await expect(provider.page.getByText('You ended the visit.')).toBeVisible();
  await expect
    .poll(
      async () =>
        (
          await data<{ getAppointment: { status: string } }>(
            admin.page,
            'query ($id: ID!) { getAppointment(id: $id) { status } }',
            { id },
          )
        ).getAppointment.status,
    )
    .toBe('completed');

  // The provider plays it back from the appointment's details: the length is known and it seeks.
  await expect
    .poll(
      async () =>
        (
          await data<{ videoRecordings: { status: string }[] }>(
            provider.page,
            'query ($id: ID!) { videoRecordings(appointmentId: $id) { status } }',
            { id },
          )
        ).videoRecordings[0]?.status,
      within(30_000),
    )
    .toBe('ready');
  await provider.page.goto('/calendar');
  await provider.page
    .getByTestId('appointment-card')
    .filter({ hasText: 'Video follow-up' })
    .filter({ hasText: 'Completed' })
    .first()
    .getByRole('button', { name: 'View Details' })
    .click();
  const player = provider.page.getByTestId('recording-player');
  const played = await player.evaluate(async (video: HTMLVideoElement) => {
    if (video.readyState < 1) await new Promise((resolve) => (video.onloadedmetadata = resolve));
    const duration = video.duration;
    video.currentTime = 2;
    await new Promise((resolve) => (video.onseeked = resolve));
    return { duration, at: video.currentTime };
  });
  expect(played.duration).toBeGreaterThan(3);
  expect(played.duration).toBeLessThan(30);
  expect(played.at).toBe(2);
  // The patient is refused the file, as if it did not exist.
  const src = (await player.getAttribute('src')) ?? '';
  expect((await patient.page.request.get(src)).status()).toBe(404);
  for (const p of [admin, patient, provider]) await p.context.close();
});

/**
 * A button of the call's control bar lies wholly inside the window with the page at its top (nobody scrolls to
 * reach it), and still does with the page scrolled to its end (the panels pass under the bar).
 */
async function expectInView(page: Page, name: string): Promise<void> {
  const button = page.getByRole('toolbar').getByRole('button', { name });
  await expect(button).toBeVisible();
  const viewport = page.viewportSize()!;
  for (const to of ['top', 'end'] as const) {
    await page.evaluate((where) => window.scrollTo(0, where === 'top' ? 0 : document.body.scrollHeight), to);
    await expect.poll(() => page.evaluate(() => window.scrollY === 0)).toBe(to === 'top');
    const box = await button.boundingBox();
    expect(box).not.toBeNull();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
    expect(box!.x).toBeGreaterThanOrEqual(0);
    expect(box!.x + box!.width).toBeLessThanOrEqual(viewport.width);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
}

const DATABASE_ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

async function appointmentStatus(admin: Page, id: string): Promise<string> {
  return (
    await data<{ getAppointment: { status: string } }>(
      admin,
      'query ($id: ID!) { getAppointment(id: $id) { status } }',
      {
        id,
      },
    )
  ).getAppointment.status;
}

test('End Call asks first; the provider steps out and rejoins; the controls stay in view; the page names the visit, never its id; the note opens from the end screen (the patient in Spanish on a phone)', async ({
  browser,
}) => {
  // One call walked through every step, with axe five times over live video: longer than one visit's test.
  test.setTimeout(scaled(300_000));
  const admin = await person(browser, 'admin@demo.test');
  // The patient's own provider, who reaches the chart where the note is written.
  const id = await bookVisit(admin.page, 0, 'provider@demo.test');
  const { getAppointment: when } = await data<{ getAppointment: { date: string; time: string } }>(
    admin.page,
    'query ($id: ID!) { getAppointment(id: $id) { date time } }',
    { id },
  );
  const patient = await patientPerson(browser, true, { language: 'es' });
  const provider = await person(browser, 'provider@demo.test', false, { viewport: LAPTOP });

  await patient.page.goto(`/video-call/${id}`);
  await expect(patient.page.getByRole('heading', { name: 'Videoconsulta', level: 1 })).toBeVisible();
  await expect(patient.page.getByLabel('Su nombre')).toHaveValue(/\S/);
  await patient.page.getByRole('button', { name: 'Entrar en la videollamada' }).click();
  await expect(patient.page.getByText('Su profesional le dejará entrar en breve.')).toBeVisible();
  await expect(patient.page).toHaveTitle(/^Sala de espera — videoconsulta con \S/);

  await startAndAdmit(provider.page, id);
  await expect(provider.page.getByTestId('remote-video')).toHaveAttribute(
    'data-connection-state',
    'connected',
    within(45_000),
  );
  await expect(provider.page).toHaveTitle(/^Video visit with \S.* — in call/);
  await expect(provider.page.getByRole('heading', { level: 1, name: /^Video visit with \S/ })).toBeVisible();
  await expect(patient.page).toHaveTitle(/^Videoconsulta con \S.* — en llamada/);
  await expect(patient.page.getByRole('heading', { level: 1, name: /^Videoconsulta con \S/ })).toBeVisible();
  for (const page of [provider.page, patient.page]) {
    expect(await page.locator('body').innerText()).not.toMatch(DATABASE_ID);
  }
  // The patient sees no recording until the provider asks for one.
  await expect(patient.page.getByRole('heading', { name: 'Grabación' })).toHaveCount(0);

  // The controls without scrolling: a laptop, then a phone.
  await expectInView(provider.page, 'End Call');
  await expectInView(patient.page, 'Salir de la llamada');
  await provider.page.setViewportSize(PHONE);
  await expectInView(provider.page, 'End Call');
  await provider.page.setViewportSize(LAPTOP);
  expect(await seriousViolations(patient.page)).toEqual([]);

  // End Call asks first; cancelling keeps the call.
  await provider.page.getByRole('button', { name: 'End Call' }).click();
  const dialog = provider.page.getByRole('dialog', { name: 'End the visit for everyone?' });
  await expect(dialog).toContainText('the patient cannot rejoin');
  expect(await seriousViolations(provider.page)).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(provider.page.getByTestId('remote-video')).toHaveAttribute('data-connection-state', 'connected');

  // Leaving without ending: the visit goes on, the patient is told, and the provider comes back.
  await provider.page.getByRole('button', { name: 'End Call' }).click();
  await dialog.getByRole('button', { name: 'Leave without ending' }).click();
  await expect(provider.page.getByRole('heading', { name: 'You left the call' })).toBeVisible();
  await expect(provider.page.getByText('It is still in progress')).toBeVisible();
  await expect(patient.page.getByTestId('provider-stepped-out')).toContainText('Su profesional salió un momento');
  expect(await appointmentStatus(admin.page, id)).toBe('in-progress');
  await provider.page.getByRole('button', { name: 'Rejoin the visit' }).click();
  await expect(provider.page.getByTestId('remote-video')).toHaveAttribute(
    'data-connection-state',
    'connected',
    within(45_000),
  );
  await expect(patient.page.getByTestId('remote-video')).toHaveAttribute(
    'data-connection-state',
    'connected',
    within(45_000),
  );
  await expect(patient.page.getByTestId('provider-stepped-out')).toHaveCount(0);

  // Ending: each side reads its own message.
  await provider.page.getByRole('button', { name: 'End Call' }).click();
  await dialog.getByRole('button', { name: 'End the visit' }).click();
  await expect(provider.page.getByText('You ended the visit.')).toBeVisible();
  await expect(provider.page).toHaveTitle(/^Visit ended — video visit with \S/);
  await expect(patient.page.getByText('Su profesional finalizó la consulta.')).toBeVisible();
  await expect(patient.page).toHaveTitle(/^Consulta finalizada — videoconsulta con \S/);
  expect(await seriousViolations(patient.page)).toEqual([]);
  await expect.poll(() => appointmentStatus(admin.page, id)).toBe('completed');

  // Write the note: the chart's editor, about this visit, from its template; the address carries no visit.
  await provider.page.getByRole('link', { name: 'Write the note' }).click();
  const editor = provider.page.getByRole('dialog', { name: 'New Note' });
  await expect(editor).toBeVisible();
  expect(provider.page.url()).not.toContain(id);
  const [hour = 0, minute = '00'] = [Number(when.time.slice(0, 2)), when.time.slice(3, 5)];
  await expect(editor.getByRole('combobox', { name: 'Appointment' })).toHaveValue(
    new RegExp(`\\b${Number(when.date.slice(8, 10))}, ${when.date.slice(0, 4)}, ${hour % 12 || 12}:${minute}`),
  );
  await expect(editor.getByRole('combobox', { name: 'Start from a template' })).toHaveValue(
    /^(SOAP note|Psychiatric evaluation)$/,
  );
  await expect(editor.getByLabel('Content')).toHaveValue(/## /);
  expect(await seriousViolations(provider.page)).toEqual([]);
  for (const p of [admin, patient, provider]) await p.context.close();
});

test('a stranger is refused at the page, and a cancellation closes the visit for the waiting patient', async ({
  browser,
}) => {
  const admin = await person(browser, 'admin@demo.test');
  const id = await bookVisit(admin.page);
  const stranger = await person(browser, 'provider@demo.test');
  await stranger.page.goto(`/video-call/${id}`);
  await expect(stranger.page.getByRole('heading', { name: 'You cannot join this video visit' })).toBeVisible();
  // Answered like an appointment that does not exist (issue 24): nothing tells the stranger it is real.
  await expect(stranger.page.getByRole('alert')).toContainText('No appointment was found for this link');
  await expect(stranger.page.getByRole('button', { name: 'Join Video Call' })).toHaveCount(0);

  const patient = await patientPerson(browser);
  await joinAsPatient(patient.page, id);
  await data(admin.page, 'mutation ($input: CancelAppointmentInput!) { cancelAppointment(input: $input) { id } }', {
    input: { id, reason: 'Provider unavailable' },
  });
  await expect(patient.page.getByRole('heading', { name: 'Call Ended' })).toBeVisible();
  await expect(patient.page.getByText('This appointment was cancelled')).toBeVisible();
  await patient.page.reload();
  await expect(patient.page.getByRole('heading', { name: 'You cannot join this video visit' })).toBeVisible();
  for (const p of [admin, stranger, patient]) await p.context.close();
});

test('a guest the provider invites by e-mail opens the link without an account, waits, and joins a call of three', async ({
  browser,
}) => {
  const admin = await person(browser, 'admin@demo.test');
  const id = await bookVisit(admin.page);
  const provider = await person(browser, 'provider2@demo.test');
  const patient = await patientPerson(browser);
  await provider.page.goto(`/video-call/start/${id}`);
  await provider.page.getByLabel("Guest's name").fill('Sam Reyes');
  await provider.page.getByLabel("Guest's e-mail").fill('sam.family@example.net');
  await provider.page.getByRole('button', { name: 'Send invitation' }).click();
  await expect(provider.page.getByText('Invitation sent to sam.family@example.net.')).toBeVisible();
  await provider.page.getByRole('button', { name: 'Start Video Call' }).click();

  const link = await linkFromOutbox(admin.page, 'sam.family@example.net', 'Video visit guest invitation');
  expect(link).toContain(`/video-call/guest/${id}#`);
  const guestContext = await browser.newContext({ baseURL: ORIGIN, permissions: ['camera', 'microphone'] });
  const guest = await guestContext.newPage();
  await guest.goto(link);
  await expect(guest.getByText('A video visit with')).toBeVisible();
  await guest.getByLabel('Your name').fill('Sam');
  await guest.getByRole('button', { name: 'Join Video Call' }).click();
  await expect(guest.getByText('Your provider will let you in shortly.')).toBeVisible();
  expect(await seriousViolations(guest)).toEqual([]);

  await joinAsPatient(patient.page, id);
  await expect(provider.page.getByTestId('waiting-person')).toHaveCount(2);
  await provider.page.getByRole('button', { name: 'Let in' }).first().click();
  await expect(provider.page.getByTestId('waiting-person')).toHaveCount(1);
  await provider.page.getByRole('button', { name: 'Let in' }).click();
  await expect(guest.getByTestId('remote-video')).toHaveCount(2, within(20_000));
  for (const video of await guest.getByTestId('remote-video').all()) {
    await expect(video).toHaveAttribute('data-connection-state', 'connected', within(20_000));
  }
  await expect(provider.page.getByTestId('remote-video')).toHaveCount(2);
  for (const p of [admin, provider, patient]) await p.context.close();
  await guestContext.close();
});

test('a call forced through the TURN relay (coturn) connects with relay candidates on both ends, survives a dropped signalling socket, and comes back after a 10-second network drop', async ({
  browser,
}) => {
  const coturn = startCoturn();
  try {
    // The browsers gather their relay candidates once, when the call starts: a relay not yet listening then leaves
    // them none (the call stays "new"), which a busy machine showed. So the call starts once coturn answers.
    await expect.poll(() => acceptsConnections(VIDEO_SERVER.turn.port), within(15_000)).toBe(true);
    const admin = await person(browser, 'admin@demo.test');
    const id = await bookVisit(admin.page);
    const patient = await patientPerson(browser);
    const provider = await person(browser, 'provider2@demo.test');
    // Keeps the page's WebSockets within reach, so that the test can drop the signalling one.
    await patient.context.addInitScript(() => {
      const Native = window.WebSocket;
      const open: WebSocket[] = [];
      (window as unknown as { openSockets: WebSocket[] }).openSockets = open;
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          open.push(this);
        }
      };
    });
    await joinAsPatient(patient.page, id, '?relay=1');
    await startAndAdmit(provider.page, id, '?relay=1');
    await expectMovingPicture(patient.page);
    await expectMovingPicture(provider.page);
    for (const page of [patient.page, provider.page]) {
      await expect(page.getByTestId('remote-video')).toHaveAttribute('data-candidates', 'relay/relay', within(15_000));
    }

    // The patient's signalling socket drops (as on a network change): it comes back by itself with the same
    // page, and the call goes on over the same peer connection (no second peer on either side).
    await patient.page.evaluate(() => {
      for (const socket of (window as unknown as { openSockets: WebSocket[] }).openSockets) {
        if (socket.url.includes('/api/video/signal')) socket.close(4000, 'test drop');
      }
    });
    await expect(patient.page.getByText('Connection to the server lost; reconnecting.')).toBeVisible();
    await expect(patient.page.getByText('Connection to the server lost; reconnecting.')).toHaveCount(0, within(20_000));
    await expectMovingPicture(provider.page);
    await expectMovingPicture(patient.page);
    await expect(provider.page.getByTestId('remote-video')).toHaveCount(1);

    // The network between them goes away for 10 seconds (the relay stops answering): the connection is lost,
    // the browsers restart ICE, and the picture comes back without anyone reloading.
    coturn.kill('SIGSTOP');
    await expect(patient.page.getByTestId('remote-video')).not.toHaveAttribute(
      'data-connection-state',
      'connected',
      within(20_000),
    );
    await patient.page.waitForTimeout(10_000);
    coturn.kill('SIGCONT');
    await expectMovingPicture(patient.page);
    await expectMovingPicture(provider.page);
    await expect(patient.page.getByTestId('remote-video')).toHaveAttribute('data-ice-restarts', /^[1-9]/);
    for (const p of [admin, patient, provider]) await p.context.close();
  } finally {
    coturn.kill('SIGCONT');
    coturn.kill('SIGTERM');
  }
});

/** Whether something listens on the loopback TCP port (coturn listens on TCP and UDP alike). */
function acceptsConnections(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** coturn on loopback with the server's shared secret (time-limited credentials), as Debian packages it. */
function startCoturn(): ChildProcess {
  const child = spawn(
    '/usr/bin/turnserver',
    [
      '-n',
      '--listening-ip=127.0.0.1',
      '--relay-ip=127.0.0.1',
      `--listening-port=${VIDEO_SERVER.turn.port}`,
      '--use-auth-secret',
      `--static-auth-secret=${VIDEO_SERVER.turn.secret}`,
      '--realm=e2e.test',
      '--allow-loopback-peers',
      '--cli-password=e2e-cli-password',
      '--no-tls',
      '--no-dtls',
      '--min-port=49160',
      '--max-port=49400',
      '--log-file=stdout',
      '--simple-log',
    ],
    { stdio: 'ignore' },
  );
  return child;
}
