import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { ACCESS_REQUEST_MESSAGES, DEMO_PASSWORD, INVITATION_MESSAGES } from '@telehealth/shared';
import { accessRequests } from '../src/access-requests/access-requests.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { accountTokens } from '../src/auth/account-tokens.table.ts';
import { users } from '../src/auth/auth.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { providers } from '../src/providers/providers.table.ts';
import { findAccessRequest } from '../src/access-requests/access-requests.repository.ts';
import { patientsEncrypted } from '../src/keys/encrypted-columns.ts';
import { createTestApp, TestClient, type TestApp } from './helpers.ts';
import { gqlFrom, linkToken } from './mail-helpers.ts';

const SUBMIT_PROVIDER =
  'mutation ($input: ProviderAccessRequestInput!) { submitProviderAccessRequest(input: $input) { success message } }';
const SUBMIT_PATIENT =
  'mutation ($input: PatientAccessRequestInput!) { submitPatientAccessRequest(input: $input) { success message } }';
const SUMMARY =
  'id kind status firstName lastName email language createdAt reviewedAt reviewedBy reviewedByName declineReason account';
const DETAIL = `${SUMMARY} emailHasAccount
  providerForm { phone medicalLicense specialty subSpecialty yearsOfExperience boardCertifications practiceType organizationName practiceAddress practiceCity practiceState practiceZip currentEMR patientVolume telemedicineExperience interestedFeatures referralSource additionalInfo preferredContactMethod bestTimeToContact }
  patientForm { dateOfBirth phone address city state zipCode emergencyContactName emergencyContactPhone currentProvider providerPhone referringDoctor insuranceProvider reasonForInterest currentConditions currentMedications allergies servicesInterested preferredAppointmentTimes technologyComfort additionalQuestions hearAboutUs preferredContactMethod languagePreference consentToContact }`;
const LIST = `query ($status: String, $limit: Int, $nextToken: String) { listAccessRequests(status: $status, limit: $limit, nextToken: $nextToken) { items { ${SUMMARY} } nextToken } }`;
const GET = `query ($id: ID!) { getAccessRequest(id: $id) { ${DETAIL} } }`;
const APPROVE = `mutation ($id: ID!, $owner: ID) { approveAccessRequest(id: $id, ownerProviderId: $owner) { ${DETAIL} } }`;
const DECLINE = `mutation ($id: ID!, $reason: String) { declineAccessRequest(id: $id, reason: $reason) { ${DETAIL} } }`;
const COUNTS = '{ accessRequestCounts { new approved declined } }';
const INVITATION_STATUS = 'query ($token: String!) { invitationStatus(token: $token) { status email expiresAt } }';
const ACCEPT =
  'mutation ($token: String!, $password: String!) { acceptInvitation(token: $token, password: $password) { success message email } }';
const SEND_INVITATION = 'mutation ($id: ID!) { sendInvitation(accountId: $id) { success message } }';

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let providerId: string;
let adminId: string;
let addressCounter = 0;
/** Each visitor comes from its own address, so the per-address limit only bites where a test wants it to. */
const nextAddress = () => `10.1.${Math.floor(++addressCounter / 250)}.${(addressCounter % 250) + 1}`;

const providerForm = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Elena',
  lastName: 'Marsh',
  email: `elena.marsh.${Math.random().toString(36).slice(2, 8)}@clinic.example`,
  phone: '(503) 555-0123',
  medicalLicense: 'OR-MD-55821',
  specialty: 'Psychiatry',
  subSpecialty: 'Child and adolescent',
  yearsOfExperience: '11-15',
  boardCertifications: 'ABPN',
  practiceType: 'clinic',
  organizationName: 'Riverside Behavioral Health',
  practiceAddress: '200 River Rd',
  practiceCity: 'Portland',
  practiceState: 'OR',
  practiceZip: '97201',
  currentEMR: 'OpenEMR',
  patientVolume: '51-100',
  telemedicineExperience: 'Three years of video visits',
  interestedFeatures: ['Video Consultations', 'Clinical Notes'],
  referralSource: 'colleague',
  additionalInfo: 'Looking forward to it',
  preferredContactMethod: 'phone',
  bestTimeToContact: 'Mornings',
  ...overrides,
});

/** Health information a patient writes into the form: none of it may reach a mail or the audit trail. */
const HEALTH = {
  reasonForInterest: 'Panic attacks since the accident in March',
  currentConditions: 'Generalized anxiety disorder, insomnia',
  currentMedications: 'Escitalopram 10 mg daily',
  allergies: 'Sulfa drugs',
  dateOfBirth: '1979-04-23',
};

const patientForm = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Tomas',
  lastName: 'Lindqvist',
  dateOfBirth: HEALTH.dateOfBirth,
  phone: '503-555-0177',
  email: `tomas.${Math.random().toString(36).slice(2, 8)}@mail.example`,
  address: '14 Birch Lane',
  city: 'Salem',
  state: 'OR',
  zipCode: '97301',
  emergencyContactName: 'Ingrid Lindqvist',
  emergencyContactPhone: '503-555-0178',
  currentProvider: 'Dr. Alvarez',
  providerPhone: '503-555-0190',
  referringDoctor: 'Dr. Chen',
  insuranceProvider: 'Cascade Mutual',
  reasonForInterest: HEALTH.reasonForInterest,
  currentConditions: HEALTH.currentConditions,
  currentMedications: HEALTH.currentMedications,
  allergies: HEALTH.allergies,
  servicesInterested: ['Anxiety Treatment', 'Medication Management'],
  preferredAppointmentTimes: 'evening',
  technologyComfort: 'intermediate',
  additionalQuestions: 'Do you take my insurance?',
  hearAboutUs: 'doctor-referral',
  preferredContactMethod: 'text',
  languagePreference: 'english',
  consentToContact: true,
  ...overrides,
});

async function submit(kind: 'provider' | 'patient', input: Record<string, unknown>, ip = nextAddress()) {
  return gqlFrom<{
    submitProviderAccessRequest?: { success: boolean; message: string };
    submitPatientAccessRequest?: { success: boolean; message: string };
  }>(t.app, ip, kind === 'provider' ? SUBMIT_PROVIDER : SUBMIT_PATIENT, { input });
}

async function requestIdFor(email: string): Promise<string> {
  const [row] = await t.runtime.database.db
    .select({ id: accessRequests.id })
    .from(accessRequests)
    .where(eq(accessRequests.email, email));
  if (!row) throw new Error(`no request for ${email}`);
  return row.id;
}

async function mailsTo(email: string) {
  return t.runtime.database.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.toAddress, email))
    .orderBy(desc(mailOutbox.createdAt));
}

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app);
  provider = new TestClient(t.app);
  adminId = (await admin.signIn('admin@demo.test', DEMO_PASSWORD)).user!.userId;
  providerId = (await provider.signIn('provider@demo.test', DEMO_PASSWORD)).user!.userId;
});

describe('the access request forms', () => {
  it('answers every missing required field of the doctor form with its message', async () => {
    const response = await submit('provider', {});
    expect(response.data).toBeNull();
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(response.errors?.[0]?.message).toBe(
      'Validation failed: First name is required, Last name is required, Email is required, Phone number is required, ' +
        'Medical license number is required, Specialty is required, Years of experience is required, Practice type is required, ' +
        'Organization name is required',
    );
    expect(response.errors?.[0]?.extensions).toHaveProperty('fieldErrors', {
      firstName: 'First name is required',
      lastName: 'Last name is required',
      email: 'Email is required',
      phone: 'Phone number is required',
      medicalLicense: 'Medical license number is required',
      specialty: 'Specialty is required',
      yearsOfExperience: 'Years of experience is required',
      practiceType: 'Practice type is required',
      organizationName: 'Organization name is required',
    });
  });

  it('answers bad values of the doctor form field by field', async () => {
    const response = await submit(
      'provider',
      providerForm({
        email: 'nope',
        specialty: 'Astrology',
        yearsOfExperience: '40',
        practiceZip: '123',
        interestedFeatures: ['Teleportation'],
      }),
    );
    expect(response.errors?.[0]?.extensions).toHaveProperty('fieldErrors', {
      email: 'Please enter a valid email address',
      specialty: 'Please choose a valid specialty',
      yearsOfExperience: 'Please choose a valid years of experience',
      practiceZip: 'Please enter a valid ZIP code',
      'interestedFeatures.0': 'Please choose valid features of interest',
    });
  });

  it('answers every missing required field of the patient form, consent included', async () => {
    const response = await submit('patient', {});
    expect(response.errors?.[0]?.message).toBe(
      'Validation failed: First name is required, Last name is required, Date of birth is required, Phone number is required, ' +
        'Email is required, Reason for interest is required, Please agree to be contacted about your request',
    );
    const unticked = await submit('patient', patientForm({ consentToContact: false }));
    expect(unticked.errors?.[0]?.extensions).toHaveProperty('fieldErrors', {
      consentToContact: ACCESS_REQUEST_MESSAGES.consentRequired,
    });
    const future = await submit(
      'patient',
      patientForm({ dateOfBirth: '2999-01-01', emergencyContactPhone: '12', zipCode: 'abcde' }),
    );
    expect(future.errors?.[0]?.extensions).toHaveProperty('fieldErrors', {
      dateOfBirth: 'Date of birth must be in the past',
      emergencyContactPhone: 'Phone number must be 10-15 digits long',
      zipCode: 'Please enter a valid ZIP code',
    });
  });

  it('stores a doctor request with every field, the defaults applied, and mails the administrators and the requester', async () => {
    const input = providerForm({ preferredContactMethod: undefined, locale: 'es' });
    const response = await submit('provider', input);
    expect(response.data?.submitProviderAccessRequest).toEqual({
      success: true,
      message: ACCESS_REQUEST_MESSAGES.received,
    });
    const [stored] = await t.runtime.database.db
      .select()
      .from(accessRequests)
      .where(eq(accessRequests.email, input.email));
    // Stored encrypted (keys.test.ts has the details); the repository reads it back.
    expect(stored?.form).toMatch(/^enc:v1:/);
    const row = await findAccessRequest(t.runtime.database.db, stored!.id, t.runtime.keyring);
    expect(row).toMatchObject({
      kind: 'provider',
      status: 'new',
      firstName: 'Elena',
      lastName: 'Marsh',
      language: 'es',
      accountId: null,
    });
    expect(row?.clientIpHash).toMatch(/^[\w-]{43}$/);
    expect(row?.form).toMatchObject({
      practiceZip: '97201',
      medicalLicense: 'OR-MD-55821',
      preferredContactMethod: 'email',
      interestedFeatures: ['Video Consultations', 'Clinical Notes'],
    });
    expect(row?.form).not.toHaveProperty('website');

    const [ack] = await mailsTo(input.email);
    expect(ack).toMatchObject({ kind: 'access-request-received', status: 'kept', language: 'es' });
    expect(ack?.textBody).toContain('1 a 2 días hábiles');
    const [notice] = await mailsTo('admin@demo.test');
    expect(notice).toMatchObject({
      kind: 'access-request-waiting',
      status: 'kept',
      subject: 'New provider access request waiting for review',
    });
    expect(notice?.textBody).toContain('http://localhost:3000/admin/access-requests');
    // The administrators' notice names nobody.
    for (const mail of [notice])
      expect(`${mail?.subject} ${mail?.textBody} ${mail?.htmlBody}`).not.toMatch(
        /Elena|Marsh|OR-MD|Riverside|elena\.marsh/,
      );

    const [audit] = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'ACCESS_REQUEST_SUBMITTED'))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(audit?.details).toEqual({ accessRequestId: row?.id, kind: 'provider' });
  });

  it('keeps health information out of every mail and of the audit trail', async () => {
    const input = patientForm();
    expect((await submit('patient', input)).data?.submitPatientAccessRequest?.success).toBe(true);
    const id = await requestIdFor(input.email);
    const mails = await t.runtime.database.db.select().from(mailOutbox);
    const ack = mails.find((m) => m.toAddress === input.email);
    expect(ack?.textBody).toContain('within 1-2 business days');
    expect(ack?.textBody).toContain('988');
    const everything = mails.map((m) => `${m.subject}\n${m.textBody}\n${m.htmlBody}`).join('\n');
    for (const secret of Object.values(HEALTH)) expect(everything).not.toContain(secret);
    expect(everything).not.toContain('Escitalopram');
    const audit = await t.runtime.database.db.select({ details: auditEntries.details }).from(auditEntries);
    const trail = JSON.stringify(audit);
    for (const secret of Object.values(HEALTH)) expect(trail).not.toContain(secret);
    expect(trail).toContain(id);
  });

  it('writes the patient e-mails in the language the patient chose', async () => {
    const input = patientForm({ languagePreference: 'spanish', locale: 'en' });
    await submit('patient', input);
    const [ack] = await mailsTo(input.email);
    expect(ack).toMatchObject({
      language: 'es',
      subject: 'Hemos recibido su solicitud - Meridian Precision Psychiatry',
    });
    expect(ack?.textBody).toContain('988');
  });

  it('answers a filled honeypot like a success and keeps nothing', async () => {
    const before = await t.runtime.database.db.select({ n: sql<number>`count(*)::int` }).from(accessRequests);
    const mailsBefore = await t.runtime.database.db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox);
    const response = await submit('patient', patientForm({ website: 'http://spam.example', firstName: '' }));
    expect(response.data?.submitPatientAccessRequest).toEqual({
      success: true,
      message: ACCESS_REQUEST_MESSAGES.received,
    });
    expect(await t.runtime.database.db.select({ n: sql<number>`count(*)::int` }).from(accessRequests)).toEqual(before);
    expect(await t.runtime.database.db.select({ n: sql<number>`count(*)::int` }).from(mailOutbox)).toEqual(mailsBefore);
  });

  it('accepts five requests an hour from one address, then refuses with TOO_MANY_REQUESTS; other addresses go on', async () => {
    const ip = '10.99.0.1';
    // A form the server refuses does not count.
    expect((await submit('patient', {}, ip)).errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    for (let i = 0; i < 5; i++)
      expect(
        (await submit(i % 2 ? 'provider' : 'patient', i % 2 ? providerForm() : patientForm(), ip)).data,
      ).not.toBeNull();
    const refused = await submit('patient', patientForm(), ip);
    expect(refused.data).toBeNull();
    expect(refused.errors?.[0]?.extensions?.code).toBe('TOO_MANY_REQUESTS');
    expect(refused.errors?.[0]?.message).toMatch(/^Too many attempts\. Please try again in \d+ minutes?\.$/);
    expect(refused.errors?.[0]?.extensions?.retryAfterSeconds).toBeGreaterThan(3000);
    expect((await submit('patient', patientForm(), '10.99.0.2')).data?.submitPatientAccessRequest?.success).toBe(true);
    const [limited] = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'RATE_LIMITED'))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(limited?.clientIp).toBe(ip);
  });
});

describe('reviewing access requests', () => {
  it('is for administrators only', async () => {
    const anonymous = new TestClient(t.app);
    expect((await anonymous.gql(LIST)).errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    for (const [query, variables] of [
      [LIST, {}],
      [COUNTS, {}],
      [GET, { id: crypto.randomUUID() }],
      [APPROVE, { id: crypto.randomUUID(), owner: providerId }],
      [DECLINE, { id: crypto.randomUUID(), reason: 'x' }],
      [SEND_INVITATION, { id: providerId }],
    ] as const) {
      const response = await provider.gql(query, variables);
      expect(response.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    }
  });

  it('lists newest first with status, filters by status and pages with nextToken', async () => {
    const emails = [];
    for (let i = 0; i < 3; i++) {
      const input = patientForm({ firstName: `Page${'abc'[i]}` });
      emails.push(input.email);
      await submit('patient', input);
    }
    const first = await admin.gql<{
      listAccessRequests: { items: { email: string; status: string; kind: string }[]; nextToken: string | null };
    }>(LIST, { status: 'new', limit: 2 });
    expect(first.data?.listAccessRequests.items.map((r) => r.email)).toEqual([emails[2], emails[1]]);
    expect(first.data?.listAccessRequests.items[0]).toMatchObject({ status: 'new', kind: 'patient' });
    const second = await admin.gql<{ listAccessRequests: { items: { email: string }[] } }>(LIST, {
      status: 'new',
      limit: 2,
      nextToken: first.data?.listAccessRequests.nextToken,
    });
    expect(second.data?.listAccessRequests.items[0]?.email).toBe(emails[0]);
    const mismatched = await admin.gql(LIST, {
      status: 'declined',
      nextToken: first.data?.listAccessRequests.nextToken,
    });
    expect(mismatched.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const badStatus = await admin.gql(LIST, { status: 'pending' });
    expect(badStatus.errors?.[0]?.message).toBe('Validation failed: Please choose a valid status');
    const [audit] = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'ACCESS_REQUEST_VIEW'))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(audit?.details).toMatchObject({ page: 'next' });
  });

  it('shows one request with its whole form, and records the reading', async () => {
    const input = patientForm();
    await submit('patient', input);
    const id = await requestIdFor(input.email);
    const response = await admin.gql<{
      getAccessRequest: Record<string, unknown> & { patientForm: Record<string, unknown> };
    }>(GET, { id });
    expect(response.data?.getAccessRequest).toMatchObject({
      id,
      kind: 'patient',
      status: 'new',
      email: input.email,
      emailHasAccount: false,
      providerForm: null,
    });
    expect(response.data?.getAccessRequest.patientForm).toMatchObject({
      dateOfBirth: HEALTH.dateOfBirth,
      zipCode: '97301',
      reasonForInterest: HEALTH.reasonForInterest,
      servicesInterested: ['Anxiety Treatment', 'Medication Management'],
      consentToContact: true,
      languagePreference: 'english',
    });
    const [audit] = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'ACCESS_REQUEST_VIEW'))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(audit?.details).toEqual({ accessRequestIds: [id], kind: 'patient' });
    expect((await admin.gql(GET, { id: crypto.randomUUID() })).errors?.[0]?.message).toBe(
      ACCESS_REQUEST_MESSAGES.notFound,
    );
    expect((await admin.gql(GET, { id: 'nope' })).errors?.[0]?.extensions?.code).toBe('NOT_FOUND');
  });

  it('approves a doctor request: a provider account, a provider record and an invitation', async () => {
    const input = providerForm({ yearsOfExperience: '6-10', specialty: 'Neurology' });
    await submit('provider', input);
    const id = await requestIdFor(input.email);
    const response = await admin.gql<{ approveAccessRequest: Record<string, unknown> }>(APPROVE, { id });
    expect(response.errors).toBeUndefined();
    expect(response.data?.approveAccessRequest).toMatchObject({
      status: 'approved',
      reviewedBy: adminId,
      reviewedByName: 'Avery Admin',
      emailHasAccount: true,
    });
    const db = t.runtime.database.db;
    const [account] = await db.select().from(users).where(eq(users.email, input.email));
    expect(account).toMatchObject({
      role: 'provider',
      firstName: 'Elena',
      lastName: 'Marsh',
      emailVerified: false,
      isActive: true,
    });
    expect(response.data?.approveAccessRequest.account).toBe(account?.id);
    // A provider has one id: the provider record's is the account's.
    const [record] = await db.select().from(providers).where(eq(providers.id, account!.id));
    expect(record).toMatchObject({
      specialty: 'Neurology',
      experience: 6,
      phone: '(503) 555-0123',
      email: input.email,
    });
    const [invitation] = await mailsTo(input.email);
    expect(invitation).toMatchObject({
      kind: 'invitation',
      status: 'kept',
      subject: 'Set your password for Meridian Precision Psychiatry',
    });
    expect(invitation?.textBody).toMatch(/http:\/\/localhost:3000\/invite#[\w-]{43}/);
    expect(invitation?.textBody).toContain('72 hours');
    const events = await db
      .select({ event: auditEntries.event, details: auditEntries.details })
      .from(auditEntries)
      .where(sql`${auditEntries.details}->>'accessRequestId' = ${id}`);
    expect(events.map((e) => e.event)).toEqual([
      'ACCESS_REQUEST_SUBMITTED',
      'ACCOUNT_CREATED',
      'PROVIDER_CREATE',
      'ACCESS_REQUEST_APPROVED',
      'INVITATION_SENT',
    ]);
  });

  it('approves a patient request: a patient account, a record owned by the chosen provider and linked to the account', async () => {
    const input = patientForm();
    await submit('patient', input);
    const id = await requestIdFor(input.email);
    const withoutOwner = await admin.gql(APPROVE, { id });
    expect(withoutOwner.errors?.[0]).toMatchObject({
      message: 'Validation failed: Please choose a provider',
      extensions: {
        code: 'BAD_USER_INPUT',
        messageId: 'messages.validationFailed',
        params: { problems: 'Please choose a provider' },
        fieldErrors: { ownerProviderId: 'Please choose a provider' },
      },
    });
    expect((await admin.gql(APPROVE, { id, owner: adminId })).errors?.[0]?.extensions).toHaveProperty('fieldErrors', {
      ownerProviderId: 'Please choose a provider',
    });

    const response = await admin.gql<{ approveAccessRequest: { status: string; account: string } }>(APPROVE, {
      id,
      owner: providerId,
    });
    expect(response.data?.approveAccessRequest.status).toBe('approved');
    const db = t.runtime.database.db;
    const accountId = response.data!.approveAccessRequest.account;
    const [account] = await db.select().from(users).where(eq(users.id, accountId));
    expect(account).toMatchObject({ role: 'patient', email: input.email, language: 'en' });
    const [stored] = await db.select().from(patients).where(eq(patients.accountId, accountId));
    const record = stored && patientsEncrypted.open(t.runtime.keyring, stored);
    expect(record).toMatchObject({
      ownerId: providerId,
      firstName: 'Tomas',
      lastName: 'Lindqvist',
      dateOfBirth: HEALTH.dateOfBirth,
      phone: '503-555-0177',
      street: '14 Birch Lane',
      city: 'Salem',
      state: 'OR',
      zipCode: '97301',
      emergencyContactName: 'Ingrid Lindqvist',
      emergencyContactPhone: '503-555-0178',
      insuranceProvider: 'Cascade Mutual',
      reasonForCare: HEALTH.reasonForInterest,
      allergies: HEALTH.allergies,
      currentMedications: HEALTH.currentMedications,
      medicalHistory: HEALTH.currentConditions,
      isActive: true,
    });
    // The owning provider finds the new patient in the list.
    const list = await provider.gql<{ listPatients: { items: { id: string }[] } }>(
      '{ listPatients(limit: 100, filter: { search: "lindqvist" }) { items { id } } }',
    );
    expect(list.data?.listPatients.items.map((p) => p.id)).toContain(record?.id);
    const [invitation] = await mailsTo(input.email);
    for (const secret of Object.values(HEALTH))
      expect(`${invitation?.textBody}${invitation?.htmlBody}`).not.toContain(secret);
  });

  it('refuses to review a request twice, or to approve one whose e-mail has an account', async () => {
    const input = providerForm();
    await submit('provider', input);
    const id = await requestIdFor(input.email);
    await admin.gql(APPROVE, { id });
    expect((await admin.gql(APPROVE, { id })).errors?.[0]?.message).toBe(ACCESS_REQUEST_MESSAGES.alreadyReviewed);
    expect((await admin.gql(DECLINE, { id, reason: 'x' })).errors?.[0]?.message).toBe(
      ACCESS_REQUEST_MESSAGES.alreadyReviewed,
    );

    const again = providerForm({ email: input.email });
    await submit('provider', again);
    const [second] = await t.runtime.database.db
      .select({ id: accessRequests.id })
      .from(accessRequests)
      .where(and(eq(accessRequests.email, input.email), eq(accessRequests.status, 'new')));
    const detail = await admin.gql<{ getAccessRequest: { emailHasAccount: boolean } }>(GET, { id: second!.id });
    expect(detail.data?.getAccessRequest.emailHasAccount).toBe(true);
    expect((await admin.gql(APPROVE, { id: second!.id })).errors?.[0]?.message).toBe(
      ACCESS_REQUEST_MESSAGES.accountExists,
    );
  });

  it('declines with a required reason, which stays out of the audit trail', async () => {
    const input = patientForm();
    await submit('patient', input);
    const id = await requestIdFor(input.email);
    expect((await admin.gql(DECLINE, { id })).errors?.[0]?.extensions).toHaveProperty('fieldErrors', {
      reason: 'Reason is required',
    });
    expect((await admin.gql(DECLINE, { id, reason: '   ' })).errors?.[0]?.message).toBe(
      'Validation failed: Reason is required',
    );
    const response = await admin.gql<{ getAccessRequest: never; declineAccessRequest: Record<string, unknown> }>(
      DECLINE,
      { id, reason: 'Outside our service area' },
    );
    expect(response.data?.declineAccessRequest).toMatchObject({
      status: 'declined',
      declineReason: 'Outside our service area',
      reviewedBy: adminId,
      account: null,
    });
    expect(await t.runtime.database.db.select().from(users).where(eq(users.email, input.email))).toEqual([]);
    const [audit] = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'ACCESS_REQUEST_DECLINED'))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(audit?.details).toEqual({ accessRequestId: id, kind: 'patient' });
    const counts = await admin.gql<{ accessRequestCounts: { new: number; approved: number; declined: number } }>(
      COUNTS,
    );
    expect(counts.data?.accessRequestCounts.declined).toBeGreaterThanOrEqual(1);
    expect(counts.data?.accessRequestCounts.approved).toBeGreaterThanOrEqual(2);
  });
});

describe('invitations', () => {
  async function approvedPatient(overrides: Record<string, unknown> = {}) {
    const input = patientForm(overrides);
    await submit('patient', input);
    const id = await requestIdFor(input.email);
    const approved = await admin.gql<{ approveAccessRequest: { account: string } }>(APPROVE, { id, owner: providerId });
    const [mail] = await mailsTo(input.email);
    return {
      email: input.email,
      accountId: approved.data!.approveAccessRequest.account,
      token: linkToken(mail!.textBody!, '/invite'),
    };
  }

  it('lets the invited patient set a password once, sign in and reach the Patient Portal', async () => {
    const { email, token, accountId } = await approvedPatient();
    const visitor = new TestClient(t.app);
    expect(
      (await visitor.gql<{ invitationStatus: unknown }>(INVITATION_STATUS, { token })).data?.invitationStatus,
    ).toMatchObject({ status: 'valid', email });
    // Signing in before the password is set fails like any wrong password.
    expect((await visitor.signIn(email, 'Whatever-123!')).success).toBe(false);

    const weak = await visitor.gql(ACCEPT, { token, password: 'password' });
    expect(weak.errors?.[0]?.extensions).toHaveProperty('fieldErrors', {
      password: 'Password must contain an uppercase letter',
    });
    const accepted = await visitor.gql<{ acceptInvitation: unknown }>(ACCEPT, {
      token,
      password: 'Tomas-Portal-2026!',
    });
    expect(accepted.data?.acceptInvitation).toEqual({ success: true, message: INVITATION_MESSAGES.accepted, email });
    expect(visitor.cookie).toBeUndefined();

    const signedIn = await visitor.signIn(email, 'Tomas-Portal-2026!');
    expect(signedIn).toMatchObject({ success: true, nextStep: 'DONE' });
    expect(await visitor.me()).toMatchObject({ userId: accountId, role: 'patient', email });
    const [account] = await t.runtime.database.db
      .select({ emailVerified: users.emailVerified })
      .from(users)
      .where(eq(users.id, accountId));
    expect(account?.emailVerified).toBe(true);

    const second = await new TestClient(t.app).gql(ACCEPT, { token, password: 'Another-Pass-2026!' });
    expect(second.errors?.[0]).toMatchObject({
      message: INVITATION_MESSAGES.used,
      extensions: { code: 'BAD_USER_INPUT', reason: 'used' },
    });
    expect(
      (await visitor.gql<{ invitationStatus: unknown }>(INVITATION_STATUS, { token })).data?.invitationStatus,
    ).toMatchObject({ status: 'used', email: null });
    const [audit] = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'INVITATION_ACCEPTED'))
      .orderBy(desc(auditEntries.id))
      .limit(1);
    expect(audit).toMatchObject({ userId: accountId, userRole: 'patient' });
  });

  it('refuses an expired invitation and an unknown one', async () => {
    const { token, accountId } = await approvedPatient();
    await t.runtime.database.db
      .update(accountTokens)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(accountTokens.userId, accountId));
    const visitor = new TestClient(t.app);
    expect(
      (await visitor.gql<{ invitationStatus: unknown }>(INVITATION_STATUS, { token })).data?.invitationStatus,
    ).toMatchObject({ status: 'expired' });
    const expired = await visitor.gql(ACCEPT, { token, password: 'Tomas-Portal-2026!' });
    expect(expired.errors?.[0]).toMatchObject({
      message: INVITATION_MESSAGES.expired,
      extensions: { reason: 'expired' },
    });
    const unknown = await visitor.gql(ACCEPT, { token: 'x'.repeat(43), password: 'Tomas-Portal-2026!' });
    expect(unknown.errors?.[0]).toMatchObject({
      message: INVITATION_MESSAGES.invalid,
      extensions: { reason: 'invalid' },
    });
    expect(
      (await visitor.gql<{ invitationStatus: unknown }>(INVITATION_STATUS, { token: 'nope' })).data?.invitationStatus,
    ).toMatchObject({ status: 'invalid' });
  });

  it('sends a new invitation on request; the earlier link stops working', async () => {
    const { email, token, accountId } = await approvedPatient();
    const sent = await admin.gql<{ sendInvitation: unknown }>(SEND_INVITATION, { id: accountId });
    expect(sent.data?.sendInvitation).toEqual({ success: true, message: INVITATION_MESSAGES.sent });
    const [latest] = await mailsTo(email);
    const fresh = linkToken(latest!.textBody!, '/invite');
    expect(fresh).not.toBe(token);
    expect(latest?.textBody).toContain('Your request for access has been approved.');
    const visitor = new TestClient(t.app);
    expect(
      (await visitor.gql(ACCEPT, { token, password: 'Tomas-Portal-2026!' })).errors?.[0]?.extensions,
    ).toHaveProperty('reason', 'invalid');
    expect(
      (
        await visitor.gql<{ acceptInvitation: { success: boolean } }>(ACCEPT, {
          token: fresh,
          password: 'Tomas-Portal-2026!',
        })
      ).data?.acceptInvitation.success,
    ).toBe(true);
    expect((await admin.gql(SEND_INVITATION, { id: accountId })).errors?.[0]?.message).toBe(
      INVITATION_MESSAGES.alreadyHasPassword,
    );
  });

  it('re-invites a provider that an administrator added (createDoctor sent the first invitation)', async () => {
    const created = await admin.gql<{ createDoctor: { owner: string } }>(
      'mutation { createDoctor(input: { firstName: "Nadia", lastName: "Osei", email: "nadia.osei@clinic.example", specialty: "Psychology", experience: 4 }) { owner } }',
    );
    const accountId = created.data!.createDoctor.owner;
    await admin.gql(SEND_INVITATION, { id: accountId });
    const [mail] = await mailsTo('nadia.osei@clinic.example');
    expect(mail?.textBody).toContain('An account has been created for you at Meridian Precision Psychiatry.');
    const visitor = new TestClient(t.app);
    await visitor.gql(ACCEPT, { token: linkToken(mail!.textBody!, '/invite'), password: 'Nadia-Osei-2026!' });
    expect((await visitor.signIn('nadia.osei@clinic.example', 'Nadia-Osei-2026!')).user?.role).toBe('provider');
  });

  it('limits failed invitation attempts per address', async () => {
    const ip = '10.98.0.1';
    for (let i = 0; i < 5; i++) {
      const response = await gqlFrom(t.app, ip, ACCEPT, { token: `guess-${i}`, password: 'Guess-Pass-2026!' });
      expect(response.errors?.[0]?.extensions).toHaveProperty('reason', 'invalid');
    }
    const refused = await gqlFrom(t.app, ip, ACCEPT, { token: 'guess-6', password: 'Guess-Pass-2026!' });
    expect(refused.errors?.[0]?.extensions?.code).toBe('TOO_MANY_REQUESTS');
    const failures = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(inArray(auditEntries.event, ['INVITATION_FAILED']));
    expect(failures.length).toBeGreaterThanOrEqual(5);
  });
});
