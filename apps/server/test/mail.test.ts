import net from 'node:net';
import { desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CLINIC_PHONE, DEMO_PASSWORD } from '@telehealth/shared';
import { ConfigError, loadConfig, mailFromOf } from '../src/config.ts';
import { accessRequests } from '../src/access-requests/access-requests.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { deliveryJobKey, MAX_DELIVERY_ATTEMPTS } from '../src/mail/mail.service.ts';
import { createTestApp, openTestRuntime, TEST_DATA_KEY, TestClient, type TestApp } from './helpers.ts';
import { gqlFrom, linkToken, resetCode, startSmtpServer, type TestSmtpServer } from './mail-helpers.ts';

const SUBMIT_PATIENT =
  'mutation ($input: PatientAccessRequestInput!) { submitPatientAccessRequest(input: $input) { success message } }';
const APPROVE =
  'mutation ($id: ID!, $owner: ID) { approveAccessRequest(id: $id, ownerProviderId: $owner) { status account } }';
const ACCEPT =
  'mutation ($token: String!, $password: String!) { acceptInvitation(token: $token, password: $password) { success email } }';
const REQUEST_RESET = 'mutation ($email: String!) { requestPasswordReset(email: $email) { success } }';
const RESET =
  'mutation ($email: String, $code: String, $newPassword: String!) { resetPassword(email: $email, code: $code, newPassword: $newPassword) { success } }';
const OUTBOX =
  '{ listOutbox(limit: 10) { items { id to subject text html kind language status attempts error createdAt sentAt } nextToken } }';
const APP_CONFIG = '{ appConfig { clinicPhone bookingUrl emergencyBanner { enabled heading body } } }';

const HEALTH = [
  'Nightmares and flashbacks since deployment',
  'PTSD, alcohol use',
  'Prazosin 2 mg',
  'Latex',
  '1988-11-30',
];

const patientForm = (email: string, overrides: Record<string, unknown> = {}) => ({
  firstName: 'Marcus',
  lastName: 'Delgado',
  dateOfBirth: HEALTH[4],
  phone: '503-555-0144',
  email,
  reasonForInterest: HEALTH[0],
  currentConditions: HEALTH[1],
  currentMedications: HEALTH[2],
  allergies: HEALTH[3],
  consentToContact: true,
  ...overrides,
});

/** The job that delivers a mail, if there is one; `waits` when it is scheduled for later (a retry). */
async function deliveryJob(t: TestApp, mailId: string) {
  const result = await t.runtime.database.db.execute<{
    attempts: number;
    max_attempts: number;
    last_error: string | null;
    waits: boolean;
  }>(
    sql`SELECT attempts, max_attempts, last_error, run_at > now() AS waits FROM graphile_worker.jobs WHERE key = ${deliveryJobKey(mailId)}`,
  );
  return result.rows[0];
}

/** A loopback port with nothing listening. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('with SMTP_URL: mail is delivered through a real SMTP server', () => {
  let t: TestApp;
  let smtp: TestSmtpServer;
  let admin: TestClient;
  let providerId: string;

  beforeAll(async () => {
    smtp = await startSmtpServer();
    t = await createTestApp({
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Meridian Practice <no-reply@practice.example>',
      ADMIN_EMAIL: 'intake@practice.example, Director@Practice.example',
      PUBLIC_URL: 'https://practice.example',
      CLINIC_PHONE: '(503) 555-0100',
      BOOKING_URL: 'https://booking.example/meridian',
      EMERGENCY_BANNER: 'on',
      EMERGENCY_BANNER_HEADING: 'Free emergency support',
    });
    admin = new TestClient(t.app);
    await admin.signIn('admin@demo.test', DEMO_PASSWORD);
    providerId = (await new TestClient(t.app).signIn('provider@demo.test', DEMO_PASSWORD)).user!.userId;
  });

  it('delivers the notification to ADMIN_EMAIL and the acknowledgement, with no health data in either', async () => {
    const email = 'marcus.delgado@mail.example';
    const response = await gqlFrom(t.app, '10.3.0.1', SUBMIT_PATIENT, {
      input: patientForm(email, { languagePreference: 'spanish' }),
    });
    expect(response.data).toHaveProperty('submitPatientAccessRequest.success', true);
    await t.runtime.jobs.drain();

    const intake = await smtp.waitFor((m) => m.to.includes('intake@practice.example'));
    const director = await smtp.waitFor((m) => m.to.includes('director@practice.example'));
    const ack = await smtp.waitFor((m) => m.to.includes(email));
    expect(intake.from).toBe('no-reply@practice.example');
    expect(intake.subject).toBe('New patient access request waiting for review');
    expect(intake.text).toContain('https://practice.example/admin/access-requests');
    expect(director.subject).toBe(intake.subject);
    expect(ack.subject).toBe('Hemos recibido su solicitud - Meridian Precision Psychiatry');
    expect(ack.text).toContain('1 a 2 días hábiles');
    expect(ack.html).toContain('<html lang="es">');
    for (const mail of [intake, director, ack]) {
      for (const secret of HEALTH) expect(`${mail.raw}${mail.text}${mail.html}`).not.toContain(secret);
      expect(`${mail.subject}${mail.text}`).not.toContain('Delgado');
    }
    expect(intake.text).not.toContain('Marcus');

    const rows = await t.runtime.database.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.kind, 'access-request-waiting'));
    expect(rows.map((r) => r.status)).toEqual(['sent', 'sent']);
    // Delivered mail keeps its envelope in the outbox, not its body.
    expect(rows.every((r) => r.textBody === null && r.htmlBody === null && r.sentAt !== null && r.attempts === 1)).toBe(
      true,
    );
  });

  it('takes a patient from request to Patient Portal through the mail that arrives', async () => {
    const email = 'june.park@mail.example';
    await gqlFrom(t.app, '10.3.0.2', SUBMIT_PATIENT, {
      input: patientForm(email, { firstName: 'June', lastName: 'Park' }),
    });
    const [request] = await t.runtime.database.db
      .select({ id: accessRequests.id })
      .from(accessRequests)
      .where(eq(accessRequests.email, email));
    const approved = await admin.gql<{ approveAccessRequest: { status: string } }>(APPROVE, {
      id: request!.id,
      owner: providerId,
    });
    expect(approved.data?.approveAccessRequest.status).toBe('approved');
    await t.runtime.jobs.drain();

    const invitation = await smtp.waitFor((m) => m.to.includes(email) && m.subject.startsWith('Set your password'));
    for (const secret of HEALTH) expect(`${invitation.raw}${invitation.text}${invitation.html}`).not.toContain(secret);
    const token = linkToken(invitation.text, '/invite');
    expect(invitation.text).toContain(`https://practice.example/invite#${token}`);
    expect(invitation.html).toContain(`href="https://practice.example/invite#${token}"`);

    const person = new TestClient(t.app);
    const accepted = await person.gql<{ acceptInvitation: { success: boolean; email: string } }>(ACCEPT, {
      token,
      password: 'June-Park-2026!',
    });
    expect(accepted.data?.acceptInvitation).toEqual({ success: true, email });
    expect((await person.signIn(email, 'June-Park-2026!')).success).toBe(true);
    expect(await person.me()).toMatchObject({ role: 'patient', email });
  });

  it('delivers the reset code, and the code resets the password', async () => {
    await gqlFrom(t.app, '10.3.0.3', REQUEST_RESET, { email: 'provider2@demo.test' });
    await t.runtime.jobs.drain();
    const mail = await smtp.waitFor(
      (m) => m.to.includes('provider2@demo.test') && m.subject.startsWith('Reset your password'),
    );
    const code = resetCode(mail.text);
    expect(mail.text).toContain('https://practice.example/reset-password#');
    const response = await gqlFrom<{ resetPassword: { success: boolean } }>(t.app, '10.3.0.3', RESET, {
      email: 'provider2@demo.test',
      code,
      newPassword: 'Reset-Via-Smtp-1!',
    });
    expect(response.data?.resetPassword.success).toBe(true);
    expect((await new TestClient(t.app).signIn('provider2@demo.test', 'Reset-Via-Smtp-1!')).success).toBe(true);
  });

  it('delivers mail written before delivery was a job once a server starts, and nothing twice', async () => {
    const email = 'before.jobs@mail.example';
    // A row as the outbox held it before delivery became a job: queued, with no job.
    await t.runtime.database.db.insert(mailOutbox).values({
      toAddress: email,
      subject: 'Written before the queue',
      textBody: 'Hello',
      kind: 'invitation',
      language: 'en',
      status: 'queued',
    });
    const before = smtp.received.length;
    const restarted = await openTestRuntime(t.databaseUrl, { SMTP_URL: smtp.url });
    await restarted.jobs.drain();
    await t.runtime.jobs.drain();
    const mail = await smtp.waitFor((m) => m.to.includes(email));
    expect(mail.subject).toBe('Written before the queue');
    // Mail already delivered (or with a job of its own) was left alone.
    expect(smtp.received.slice(before).map((m) => m.to)).toEqual([[email]]);
    await restarted.close();
  });

  it('lets administrators read the outbox in demo mode, with delivered bodies erased', async () => {
    const response = await admin.gql<{
      listOutbox: { items: { status: string; text: string | null; kind: string }[]; nextToken: string | null };
    }>(OUTBOX);
    expect(response.data?.listOutbox.items.length).toBeGreaterThan(0);
    expect(response.data?.listOutbox.items.every((m) => m.status === 'sent' && m.text === null)).toBe(true);
    const provider = new TestClient(t.app);
    await provider.signIn('provider@demo.test', DEMO_PASSWORD);
    expect((await provider.gql(OUTBOX)).errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
  });

  it('tells the browser the clinic phone, booking page and banner', async () => {
    const response = await new TestClient(t.app).gql(APP_CONFIG);
    expect(response.data).toEqual({
      appConfig: {
        clinicPhone: '(503) 555-0100',
        bookingUrl: 'https://booking.example/meridian',
        emergencyBanner: { enabled: true, heading: 'Free emergency support', body: null },
      },
    });
  });
});

describe('with SMTP_URL and the mail server away', () => {
  let t: TestApp;
  let port: number;
  const email = 'ava.stone@mail.example';

  beforeAll(async () => {
    port = await closedPort();
    t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true`, DEMO_MODE: 'false' });
  });

  it('records the failure with the reason, keeps the mail for a retry, and still answers the visitor', async () => {
    const response = await gqlFrom(t.app, '10.4.0.1', SUBMIT_PATIENT, { input: patientForm(email) });
    expect(response.data).toHaveProperty('submitPatientAccessRequest.success', true);
    await t.runtime.jobs.drain();
    const [ack] = await t.runtime.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
    expect(ack).toMatchObject({ status: 'failed', attempts: 1 });
    expect(ack?.error).toMatch(/ECONNREFUSED|connect/i);
    expect(ack?.textBody).toContain('1-2 business days');
    // Its job waits for a retry, after a pause the database counts; neither its row nor its error holds the
    // address or the mail server's words.
    const job = await deliveryJob(t, ack!.id);
    expect(job).toMatchObject({ attempts: 1, max_attempts: MAX_DELIVERY_ATTEMPTS, waits: true });
    expect(job?.last_error).not.toContain(email);
    expect(job?.last_error).not.toMatch(/ECONNREFUSED/);
  });

  it('delivers the mail when the mail server is back, through the retry', async () => {
    const smtp = await startSmtpServer({ port });
    await t.runtime.jobs.drain({ scheduled: true });
    const ack = await smtp.waitFor((m) => m.to.includes(email));
    expect(ack.text).toContain('1-2 business days');
    const [row] = await t.runtime.database.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
    expect(row).toMatchObject({ status: 'sent', error: null, textBody: null, htmlBody: null });
    expect(row!.attempts).toBeGreaterThan(1);
    expect(await deliveryJob(t, row!.id)).toBeUndefined();
  });

  it('keeps the outbox closed outside demo mode, even to administrators', async () => {
    const admin = new TestClient(t.app);
    await admin.signIn('admin@demo.test', DEMO_PASSWORD);
    const response = await admin.gql(OUTBOX);
    expect(response.errors?.[0]).toMatchObject({
      message: 'The outbox can be read only while demo mode is on.',
      extensions: { code: 'FORBIDDEN', messageId: 'messages.outboxDemoOnly' },
    });
    const config = await new TestClient(t.app).gql(APP_CONFIG);
    expect(config.data).toEqual({
      appConfig: {
        clinicPhone: null,
        bookingUrl: null,
        emergencyBanner: { enabled: false, heading: null, body: null },
      },
    });
  });
});

describe('without SMTP_URL', () => {
  it('keeps every mail in the outbox for administrators to read in demo mode', async () => {
    const t = await createTestApp();
    const email = 'lena.fox@mail.example';
    await gqlFrom(t.app, '10.5.0.1', SUBMIT_PATIENT, { input: patientForm(email) });
    const admin = new TestClient(t.app);
    await admin.signIn('admin@demo.test', DEMO_PASSWORD);
    const response = await admin.gql<{
      listOutbox: { items: { to: string; status: string; text: string; html: string; kind: string }[] };
    }>(OUTBOX);
    const items = response.data?.listOutbox.items ?? [];
    expect(items.map((m) => [m.to, m.kind, m.status])).toEqual(
      expect.arrayContaining([
        ['admin@demo.test', 'access-request-waiting', 'kept'],
        [email, 'access-request-received', 'kept'],
      ]),
    );
    expect(items.find((m) => m.to === email)?.text).toContain('within 1-2 business days');
    const stored = await t.runtime.database.db.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt));
    for (const secret of HEALTH) expect(JSON.stringify(stored)).not.toContain(secret);
    expect(t.runtime.mail.sends).toBe(false);
    for (const mail of stored) expect(await deliveryJob(t, mail.id)).toBeUndefined();
  });
});

describe('mail configuration', () => {
  it('lists every bad mail and banner variable', () => {
    let error: unknown;
    try {
      loadConfig({
        SMTP_URL: 'http://mail.example',
        MAIL_FROM: 'not an address',
        ADMIN_EMAIL: 'ok@practice.example, nope',
        CLINIC_PHONE: '12',
        BOOKING_URL: 'ftp://booking.example',
        EMERGENCY_BANNER: 'sometimes',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems.map((p) => p.split(':')[0])).toEqual(
      expect.arrayContaining([
        'SMTP_URL',
        'MAIL_FROM',
        'ADMIN_EMAIL',
        'CLINIC_PHONE',
        'BOOKING_URL',
        'EMERGENCY_BANNER',
      ]),
    );
    expect(problems.find((p) => p.startsWith('ADMIN_EMAIL'))).toContain('nope');
  });

  it('has working defaults', () => {
    const config = loadConfig({ PUBLIC_URL: 'https://care.example', PRACTICE_NAME: 'Harbor "Mind" Clinic' });
    expect(config).toMatchObject({ smtpUrl: undefined, mailFrom: null, adminEmails: [], bookingUrl: null });
    expect(mailFromOf(config)).toBe('"Harbor Mind Clinic" <no-reply@care.example>');
    // Demo mode (the embedded database's default) ships a fictional number; outside it there is none (issue 25).
    expect(config.settings.current().clinicPhone).toBe(DEMO_CLINIC_PHONE);
    expect(loadConfig({ DEMO_MODE: 'false' }).settings.current().clinicPhone).toBeNull();
    expect(loadConfig({}).emergencyBanner.enabled).toBe(true);
    expect(
      loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), DATA_ENCRYPTION_KEY: TEST_DATA_KEY })
        .emergencyBanner.enabled,
    ).toBe(false);
    expect(loadConfig({ ADMIN_EMAIL: 'A@Practice.example,b@practice.example' }).adminEmails).toEqual([
      'a@practice.example',
      'b@practice.example',
    ]);
  });
});
