import { and, desc, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  INVITATION_MESSAGES,
  INVITATION_VALID_HOURS,
  MESSAGES,
  PROVIDER_MESSAGES,
} from '@telehealth/shared';
import { accessRequests } from '../src/access-requests/access-requests.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { accountTokens } from '../src/auth/account-tokens.table.ts';
import { users } from '../src/auth/auth.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { createTestAccount, createTestApp, TestClient, type TestApp } from './helpers.ts';
import { gqlFrom, linkToken } from './mail-helpers.ts';

const DOCTOR = 'id firstName lastName email owner isActive invitationPending invitationExpiresAt';
const CREATE = `mutation ($input: CreateDoctorInput!) { createDoctor(input: $input) { ${DOCTOR} } }`;
const LIST = `query ($limit: Int) { listDoctors(limit: $limit) { items { ${DOCTOR} } nextToken } }`;
const SEND = 'mutation ($id: ID!) { sendInvitation(accountId: $id) { success message expiresAt } }';
const STATUS = 'query ($token: String!) { invitationStatus(token: $token) { status email } }';
const ACCEPT =
  'mutation ($token: String!, $password: String!) { acceptInvitation(token: $token, password: $password) { success email } }';
const SUBMIT_PROVIDER =
  'mutation ($input: ProviderAccessRequestInput!) { submitProviderAccessRequest(input: $input) { success } }';
const APPROVE = 'mutation ($id: ID!) { approveAccessRequest(id: $id) { id account invitationPending } }';
const GET =
  'query ($id: ID!) { getAccessRequest(id: $id) { id status account invitationPending invitationExpiresAt } }';

interface Doctor {
  id: string;
  email: string;
  owner: string;
  invitationPending: boolean | null;
  invitationExpiresAt: string | null;
}

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let patient: TestClient;
let adminId: string;
let counter = 0;

const uniqueEmail = (name: string) => `${name}.${++counter}.${Math.random().toString(36).slice(2, 8)}@clinic.example`;

async function mailsTo(email: string) {
  return t.runtime.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, email))
    .orderBy(desc(mailOutbox.createdAt));
}

async function auditFor(event: string, accountId: string) {
  return t.runtime.database.db
    .select()
    .from(auditEntries)
    .where(and(eq(auditEntries.event, event), sql`${auditEntries.details}->>'accountId' = ${accountId}`))
    .orderBy(auditEntries.id);
}

async function addProvider(input: Record<string, unknown> = {}): Promise<Doctor> {
  const response = await admin.gql<{ createDoctor: Doctor }>(CREATE, {
    input: {
      firstName: 'Nadia',
      lastName: 'Osei',
      email: uniqueEmail('nadia'),
      specialty: 'Psychology',
      experience: 4,
      bio: 'Trauma-focused therapy for adults.',
      ...input,
    },
  });
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.createDoctor;
}

function expectAbout72Hours(iso: string | null) {
  expect(iso).not.toBeNull();
  const hours = (new Date(iso ?? '').getTime() - Date.now()) / 3_600_000;
  expect(hours).toBeGreaterThan(INVITATION_VALID_HOURS - 0.1);
  expect(hours).toBeLessThanOrEqual(INVITATION_VALID_HOURS);
}

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app);
  provider = new TestClient(t.app);
  patient = new TestClient(t.app);
  adminId = (await admin.signIn('admin@demo.test', DEMO_PASSWORD)).user!.userId;
  await provider.signIn('provider@demo.test', DEMO_PASSWORD);
  await patient.signIn('patient@demo.test', DEMO_PASSWORD);
});

describe('createDoctor invites the new provider', () => {
  it('e-mails a single-use invitation by default; the provider sets a password once and signs in', async () => {
    const doctor = await addProvider();
    expect(doctor.invitationPending).toBe(true);
    expectAbout72Hours(doctor.invitationExpiresAt);

    const mails = await mailsTo(doctor.email);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail).toMatchObject({
      kind: 'invitation',
      status: 'kept',
      subject: 'Set your password for Meridian Precision Psychiatry',
    });
    expect(mail?.textBody).toContain('An account has been created for you at Meridian Precision Psychiatry.');
    expect(mail?.textBody).not.toContain('Trauma-focused');
    expect(mail?.textBody).not.toContain('Psychology');

    const [sent] = await auditFor('INVITATION_SENT', doctor.owner);
    expect(sent).toMatchObject({ userId: adminId, userRole: 'admin', url: 'createDoctor' });
    expect(sent?.details).toMatchObject({ reason: 'added', accessRequestId: null, replacedInvitations: 0 });
    expect(await auditFor('PROVIDER_CREATE', doctor.owner)).toHaveLength(1);

    const token = linkToken(mail!.textBody!, '/invite');
    const visitor = new TestClient(t.app);
    expect((await visitor.gql<{ invitationStatus: unknown }>(STATUS, { token })).data?.invitationStatus).toEqual({
      status: 'valid',
      email: doctor.email,
    });
    const accepted = await visitor.gql<{ acceptInvitation: { success: boolean } }>(ACCEPT, {
      token,
      password: 'Nadia-Osei-2026!',
    });
    expect(accepted.data?.acceptInvitation.success).toBe(true);
    const again = await visitor.gql(ACCEPT, { token, password: 'Another-Pass-2026!' });
    expect(again.errors?.[0]).toMatchObject({ message: INVITATION_MESSAGES.used, extensions: { reason: 'used' } });
    expect(await visitor.signIn(doctor.email, 'Another-Pass-2026!')).toMatchObject({ success: false });
    expect((await visitor.signIn(doctor.email, 'Nadia-Osei-2026!')).user).toMatchObject({
      role: 'provider',
      userId: doctor.owner,
    });

    const listed = await admin.gql<{ listDoctors: { items: Doctor[] } }>(LIST, { limit: 100 });
    expect(listed.data?.listDoctors.items.find((d) => d.id === doctor.id)).toMatchObject({
      invitationPending: false,
      invitationExpiresAt: null,
    });
    // Nothing is left to send once the password is set.
    expect((await admin.gql(SEND, { id: doctor.owner })).errors?.[0]?.message).toBe(
      INVITATION_MESSAGES.alreadyHasPassword,
    );
  });

  it('sends nothing when asked not to; "Send invitation" later works', async () => {
    const doctor = await addProvider({ sendInvitation: false });
    expect(doctor).toMatchObject({ invitationPending: true, invitationExpiresAt: null });
    expect(await mailsTo(doctor.email)).toHaveLength(0);
    expect(await auditFor('INVITATION_SENT', doctor.owner)).toHaveLength(0);

    const sent = await admin.gql<{ sendInvitation: { success: boolean; message: string; expiresAt: string } }>(SEND, {
      id: doctor.owner,
    });
    expect(sent.data?.sendInvitation).toMatchObject({ success: true, message: INVITATION_MESSAGES.sent });
    expectAbout72Hours(sent.data?.sendInvitation.expiresAt ?? null);
    const [mail] = await mailsTo(doctor.email);
    expect(mail?.textBody).toContain('An account has been created for you');
    const [audit] = await auditFor('INVITATION_SENT', doctor.owner);
    expect(audit).toMatchObject({ url: 'sendInvitation', userId: adminId });
    expect(audit?.details).toMatchObject({ reason: 'added', replacedInvitations: 0 });

    const listed = await admin.gql<{ listDoctors: { items: Doctor[] } }>(LIST, { limit: 100 });
    expect(listed.data?.listDoctors.items.find((d) => d.id === doctor.id)).toMatchObject({
      invitationPending: true,
      invitationExpiresAt: sent.data?.sendInvitation.expiresAt,
    });
    const visitor = new TestClient(t.app);
    await visitor.gql(ACCEPT, { token: linkToken(mail!.textBody!, '/invite'), password: 'Nadia-Later-2026!' });
    expect((await visitor.signIn(doctor.email, 'Nadia-Later-2026!')).success).toBe(true);
  });

  it('refuses an address that already has an account, creating and sending nothing', async () => {
    // Every provider account comes with its provider record (one id for both), so there is nothing to link.
    const existingProvider = await addProvider({ sendInvitation: false });
    const patientEmail = uniqueEmail('patient');
    await createTestAccount(t.runtime, {
      email: patientEmail,
      firstName: 'Pat',
      lastName: 'Ient',
      role: 'patient',
      password: 'Pat-Ient-2026!',
    });
    for (const [email, message] of [
      [existingProvider.email, PROVIDER_MESSAGES.alreadyProvider],
      [patientEmail, PROVIDER_MESSAGES.emailTaken],
    ] as const) {
      const response = await admin.gql(CREATE, {
        input: { firstName: 'Dup', lastName: 'Licate', email, specialty: 'Psychology' },
      });
      expect(response.errors?.[0]).toMatchObject({ message, extensions: { fieldErrors: { email: message } } });
      expect(await mailsTo(email)).toHaveLength(0);
    }
    expect(existingProvider.id).toBe(existingProvider.owner);
  });

  it('shows the invitation state to administrators only', async () => {
    const doctor = await addProvider();
    const seen = await provider.gql<{ listDoctors: { items: Doctor[] } }>(LIST, { limit: 100 });
    const item = seen.data?.listDoctors.items.find((d) => d.id === doctor.id);
    expect(item).toMatchObject({ invitationPending: null, invitationExpiresAt: null });
    const own = await admin.gql<{ listDoctors: { items: Doctor[] } }>(LIST, { limit: 100 });
    expect(own.data?.listDoctors.items.find((d) => d.id === doctor.id)).toMatchObject({ invitationPending: true });
  });

  it('refuses a provider and a patient, recording the attempt, and sends nothing', async () => {
    for (const [client, role] of [
      [provider, 'provider'],
      [patient, 'patient'],
    ] as const) {
      const email = uniqueEmail(`by-${role}`);
      const response = await client.gql(CREATE, {
        input: { firstName: 'Eve', lastName: 'Ill', email, specialty: 'Other' },
      });
      expect(response.errors?.[0]).toMatchObject({ extensions: { code: 'FORBIDDEN' } });
      expect(await mailsTo(email)).toHaveLength(0);
      const [refused] = await t.runtime.database.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), eq(auditEntries.userRole, role)))
        .orderBy(desc(auditEntries.id))
        .limit(1);
      expect(refused).toMatchObject({ url: 'createDoctor', details: { permission: 'provider:create:any' } });
    }
  });
});

describe('sendInvitation', () => {
  it('refuses a provider and a patient on the server; the current link keeps working', async () => {
    const doctor = await addProvider();
    const [mail] = await mailsTo(doctor.email);
    const token = linkToken(mail!.textBody!, '/invite');
    for (const [client, role] of [
      [provider, 'provider'],
      [patient, 'patient'],
    ] as const) {
      const response = await client.gql(SEND, { id: doctor.owner });
      expect(response.errors).toEqual([
        expect.objectContaining({
          message: MESSAGES.adminRequired,
          extensions: { code: 'FORBIDDEN', messageId: 'messages.adminRequired', params: {} },
        }),
      ]);
      const [refused] = await t.runtime.database.db
        .select()
        .from(auditEntries)
        .where(and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), eq(auditEntries.userRole, role)))
        .orderBy(desc(auditEntries.id))
        .limit(1);
      expect(refused).toMatchObject({
        url: 'sendInvitation',
        details: { permission: 'user:manage:any', accountId: doctor.owner },
      });
    }
    expect(await mailsTo(doctor.email)).toHaveLength(1);
    expect(await auditFor('INVITATION_SENT', doctor.owner)).toHaveLength(1);
    const visitor = new TestClient(t.app);
    expect(
      (await visitor.gql<{ invitationStatus: { status: string } }>(STATUS, { token })).data?.invitationStatus,
    ).toMatchObject({ status: 'valid' });
    // Without a session it does not even reach the service.
    expect((await visitor.gql(SEND, { id: doctor.owner })).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
  });

  it('answers unknown and inactive accounts', async () => {
    expect((await admin.gql(SEND, { id: crypto.randomUUID() })).errors?.[0]).toMatchObject({
      message: INVITATION_MESSAGES.accountNotFound,
      extensions: { code: 'NOT_FOUND' },
    });
    expect((await admin.gql(SEND, { id: 'not-a-uuid' })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
    const doctor = await addProvider({ sendInvitation: false });
    await t.runtime.database.db.update(users).set({ isActive: false }).where(eq(users.id, doctor.owner));
    expect((await admin.gql(SEND, { id: doctor.owner })).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(await mailsTo(doctor.email)).toHaveLength(0);
  });

  it('resends the invitation of an approved access request: a new 72-hour link, the old one stops working', async () => {
    const email = uniqueEmail('elena');
    const submitted = await gqlFrom<{ submitProviderAccessRequest: { success: boolean } }>(
      t.app,
      '10.7.0.1',
      SUBMIT_PROVIDER,
      {
        input: {
          firstName: 'Elena',
          lastName: 'Marsh',
          email,
          phone: '(503) 555-0123',
          medicalLicense: 'OR-MD-55821',
          specialty: 'Psychiatry',
          yearsOfExperience: '11-15',
          practiceType: 'clinic',
          organizationName: 'Riverside Behavioral Health',
        },
      },
    );
    expect(submitted.data?.submitProviderAccessRequest.success).toBe(true);
    const [request] = await t.runtime.database.db
      .select({ id: accessRequests.id })
      .from(accessRequests)
      .where(eq(accessRequests.email, email));
    const before = await admin.gql<{ getAccessRequest: { invitationPending: boolean } }>(GET, { id: request!.id });
    expect(before.data?.getAccessRequest).toMatchObject({ invitationPending: false, invitationExpiresAt: null });
    const approved = await admin.gql<{ approveAccessRequest: { account: string; invitationPending: boolean } }>(
      APPROVE,
      { id: request!.id },
    );
    expect(approved.data?.approveAccessRequest.invitationPending).toBe(true);
    const accountId = approved.data!.approveAccessRequest.account;
    const [first] = await mailsTo(email);
    const oldToken = linkToken(first!.textBody!, '/invite');

    const resent = await admin.gql<{ sendInvitation: { expiresAt: string } }>(SEND, { id: accountId });
    expectAbout72Hours(resent.data?.sendInvitation.expiresAt ?? null);
    const mails = await mailsTo(email);
    const invitations = mails.filter((m) => m.kind === 'invitation');
    expect(invitations).toHaveLength(2);
    // The same mail as the approval's, with a new link.
    expect(invitations[0]?.subject).toBe(first?.subject);
    expect(invitations[0]?.textBody).toContain('Your request for access has been approved.');
    const newToken = linkToken(invitations[0]!.textBody!, '/invite');
    expect(newToken).not.toBe(oldToken);
    expect(invitations[0]?.textBody?.replace(newToken, '')).toBe(first?.textBody?.replace(oldToken, ''));

    const detail = await admin.gql<{ getAccessRequest: { invitationPending: boolean; invitationExpiresAt: string } }>(
      GET,
      { id: request!.id },
    );
    expect(detail.data?.getAccessRequest).toMatchObject({
      invitationPending: true,
      invitationExpiresAt: resent.data?.sendInvitation.expiresAt,
    });

    const sentAudits = await auditFor('INVITATION_SENT', accountId);
    expect(sentAudits.map((a) => [a.url, (a.details as Record<string, unknown>)['replacedInvitations']])).toEqual([
      ['approveAccessRequest', 0],
      ['sendInvitation', 1],
    ]);
    expect(sentAudits[1]?.details).toMatchObject({ reason: 'approved', accessRequestId: request!.id });
    const tokens = await t.runtime.database.db
      .select()
      .from(accountTokens)
      .where(eq(accountTokens.userId, accountId))
      .orderBy(accountTokens.createdAt);
    expect(tokens.map((row) => row.revokedAt !== null)).toEqual([true, false]);

    const visitor = new TestClient(t.app);
    expect(
      (await visitor.gql<{ invitationStatus: { status: string } }>(STATUS, { token: oldToken })).data?.invitationStatus
        .status,
    ).toBe('invalid');
    const refused = await visitor.gql(ACCEPT, { token: oldToken, password: 'Elena-Marsh-2026!' });
    expect(refused.errors?.[0]).toMatchObject({
      message: INVITATION_MESSAGES.invalid,
      extensions: { reason: 'invalid' },
    });
    const accepted = await visitor.gql<{ acceptInvitation: { success: boolean } }>(ACCEPT, {
      token: newToken,
      password: 'Elena-Marsh-2026!',
    });
    expect(accepted.data?.acceptInvitation.success).toBe(true);
    expect((await visitor.signIn(email, 'Elena-Marsh-2026!')).user?.role).toBe('provider');
    const after = await admin.gql<{ getAccessRequest: unknown }>(GET, { id: request!.id });
    expect(after.data?.getAccessRequest).toMatchObject({ invitationPending: false, invitationExpiresAt: null });
  });
});
