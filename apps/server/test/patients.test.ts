import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, PATIENT_MESSAGES } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { demoClients } from './factories/accounts.ts';
import { createTestApp, type TestApp, TestClient } from './helpers.ts';

const PATIENT_FIELDS =
  'id firstName lastName email dateOfBirth phone isActive createdAt updatedAt owner street city state zipCode emergencyContactName emergencyContactPhone insuranceProvider insurancePolicyNumber reasonForCare allergies currentMedications medicalHistory';
const CREATE = `mutation CreatePatient($input: CreatePatientInput!) { createPatient(input: $input) { ${PATIENT_FIELDS} } }`;
const UPDATE = `mutation UpdatePatient($input: UpdatePatientInput!) { updatePatient(input: $input) { ${PATIENT_FIELDS} } }`;
const GET = `query GetPatient($id: ID!) { getPatient(id: $id) { ${PATIENT_FIELDS} } }`;
const DELETE = 'mutation DeletePatient($input: DeletePatientInput!) { deletePatient(input: $input) { id } }';
const LIST =
  'query ListPatients($limit: Int, $nextToken: String, $filter: PatientFilterInput) { listPatients(limit: $limit, nextToken: $nextToken, filter: $filter) { items { id firstName lastName email owner } nextToken } }';
const COUNT = 'query CountPatients($filter: PatientFilterInput) { countPatients(filter: $filter) }';

interface Patient {
  id: string;
  firstName: string;
  lastName: string;
  email: string;
  owner: string | null;
  [key: string]: unknown;
}

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
let provider2: TestClient;
let patient: TestClient;
let providerId: string;
let provider2Id: string;

const valid = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Rosa',
  lastName: 'Quintero',
  email: 'rosa.quintero@example.net',
  dateOfBirth: '1984-06-12',
  phone: '(503) 555-0101',
  ...overrides,
});

async function create(client: TestClient, input: Record<string, unknown>) {
  const response = await client.gql<{ createPatient: Patient }>(CREATE, { input });
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.createPatient;
}

async function listAll(client: TestClient, filter?: Record<string, unknown>, limit = 100) {
  const ids: string[] = [];
  let nextToken: string | null = null;
  do {
    const response: Awaited<
      ReturnType<typeof client.gql<{ listPatients: { items: Patient[]; nextToken: string | null } }>>
    > = await client.gql(LIST, { limit, nextToken, filter });
    if (!response.data) throw new Error(JSON.stringify(response.errors));
    ids.push(...response.data.listPatients.items.map((p) => p.id));
    nextToken = response.data.listPatients.nextToken;
  } while (nextToken);
  return ids;
}

beforeAll(async () => {
  t = await createTestApp();
  ({ admin, provider, provider2, patient, providerId, provider2Id } = await demoClients(t));
});

describe('createPatient', () => {
  it('stores every field, owned by the provider who creates it, trimmed, free text as typed', async () => {
    const created = await create(provider, {
      ...valid({ firstName: '  Rosa ', email: ' Rosa.Quintero@Example.NET ' }),
      street: ' 12  Alder St ',
      city: 'Portland',
      state: 'OR',
      zipCode: '97205',
      emergencyContactName: 'Luis Quintero',
      emergencyContactPhone: '503-555-0199',
      insuranceProvider: 'Cascade Mutual',
      insurancePolicyNumber: 'POL 12345!',
      reasonForCare: 'Low mood <b>for months</b>',
      allergies: 'Penicillin',
      currentMedications: 'Sertraline 50 mg',
      medicalHistory: 'None of note',
    });
    expect(created).toMatchObject({
      firstName: 'Rosa',
      email: 'rosa.quintero@example.net',
      dateOfBirth: '1984-06-12',
      isActive: true,
      owner: providerId,
      street: '12 Alder St',
      zipCode: '97205',
      insuranceProvider: 'Cascade Mutual',
      insurancePolicyNumber: 'POL12345',
      // Shown as text wherever it appears, never run: kept exactly as typed (decision 022).
      reasonForCare: 'Low mood <b>for months</b>',
      medicalHistory: 'None of note',
    });
    expect(created.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  it('collects every problem with the specification messages and changes nothing', async () => {
    const before = await t.runtime.database.db.select({ n: sql<number>`count(*)::int` }).from(patients);
    const response = await provider.gql(CREATE, {
      input: {
        firstName: '',
        lastName: 'J',
        email: 'not-an-email',
        dateOfBirth: '2999-01-01',
        phone: '12345',
        city: '<script>alert(1)</script>',
        allergies: 'x'.repeat(1001),
        medicalHistory: 'y'.repeat(2001),
        insurancePolicyNumber: 'ab',
      },
    });
    expect(response.data).toBeNull();
    expect(response.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(response.errors?.[0]?.message).toBe(
      'Validation failed: First name is required, Last name must be at least 2 characters long, Please enter a valid email address, ' +
        'Date of birth must be in the past, Phone number must be 10-15 digits long, City cannot contain < or >, ' +
        'Policy number must be 5-20 characters long, Allergies must be less than 1000 characters, Medical history must be less than 2000 characters',
    );
    const after = await t.runtime.database.db.select({ n: sql<number>`count(*)::int` }).from(patients);
    expect(after).toEqual(before);
  });

  it('applies the name, phone and date-of-birth validators', async () => {
    const messageFor = async (input: Record<string, unknown>) =>
      (await provider.gql(CREATE, { input: valid(input) })).errors?.[0]?.message;
    expect(await messageFor({ firstName: 'R2D2' })).toBe(
      'Validation failed: First name can only contain letters, spaces, hyphens, and apostrophes',
    );
    expect(await messageFor({ lastName: '<b>Bold</b>' })).toBe(
      'Validation failed: Last name contains invalid characters',
    );
    expect(await messageFor({ lastName: 'x'.repeat(50) })).toBe(
      'Validation failed: Last name must be less than 50 characters',
    );
    expect(await messageFor({ phone: '555-123-456a' })).toBe('Validation failed: Please enter a valid phone number');
    expect(await messageFor({ phone: '123-456-7890' })).toBeUndefined();
    expect(await messageFor({ phone: '+44 20 7946 0958' })).toBeUndefined();
    expect(await messageFor({ dateOfBirth: '1990-02-30' })).toBe('Validation failed: Please enter a valid date');
    expect(await messageFor({ dateOfBirth: '1850-01-01' })).toBe(
      'Validation failed: Please enter a valid date of birth',
    );
    expect(await messageFor({ dateOfBirth: '' })).toBe('Validation failed: Date of birth is required');
    expect(await messageFor({ email: 'x'.repeat(250) + '@example.net' })).toBe(
      'Validation failed: Email address is too long',
    );
    expect(await messageFor({ firstName: "Zoë-Anne O'Neil" })).toBeUndefined();
  });
});

describe('updatePatient', () => {
  it('checks and changes only the supplied fields, and records which fields changed', async () => {
    const created = await create(provider, valid({ email: 'update.me@example.net' }));
    const response = await provider.gql<{ updatePatient: Patient }>(UPDATE, {
      input: { id: created.id, phone: '503.555.0142', allergies: 'Latex' },
    });
    expect(response.data?.updatePatient).toMatchObject({
      firstName: 'Rosa',
      phone: '503.555.0142',
      allergies: 'Latex',
    });
    const [entry] = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'PATIENT_UPDATE'), sql`${auditEntries.details}->'patientIds' ? ${created.id}`));
    expect(entry?.details).toMatchObject({ fields: ['allergies', 'phone'] });
    expect(JSON.stringify(entry?.details)).not.toContain('Latex');
  });

  it('refuses bad values without changing anything', async () => {
    const created = await create(provider, valid({ email: 'stays.same@example.net' }));
    const response = await provider.gql(UPDATE, { input: { id: created.id, lastName: '', phone: 'abc' } });
    expect(response.errors?.[0]?.message).toBe(
      'Validation failed: Last name is required, Please enter a valid phone number',
    );
    const fetched = await provider.gql<{ getPatient: Patient }>(GET, { id: created.id });
    expect(fetched.data?.getPatient).toMatchObject({
      lastName: 'Quintero',
      phone: '(503) 555-0101',
      updatedAt: created.updatedAt,
    });
  });

  it('clears an optional field with null or blank', async () => {
    const created = await create(provider, valid({ email: 'clear.me@example.net', allergies: 'Peanuts' }));
    const response = await provider.gql<{ updatePatient: Patient }>(UPDATE, {
      input: { id: created.id, allergies: null, phone: '' },
    });
    expect(response.data?.updatePatient).toMatchObject({ allergies: null, phone: null });
  });

  it('lets only administrators change the primary provider', async () => {
    const created = await create(provider, valid({ email: 'moving@example.net' }));
    const denied = await provider.gql(UPDATE, { input: { id: created.id, owner: provider2Id } });
    expect(denied.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
    const moved = await admin.gql<{ updatePatient: Patient }>(UPDATE, {
      input: { id: created.id, owner: provider2Id },
    });
    expect(moved.data?.updatePatient.owner).toBe(provider2Id);
    const gone = await provider.gql(GET, { id: created.id });
    expect(gone.errors?.[0]?.message).toBe('Patient not found');
    const notAProvider = await admin.gql(UPDATE, { input: { id: created.id, owner: (await patient.me())!.userId } });
    expect(notAProvider.errors?.[0]?.message).toBe('Validation failed: Please choose a provider');
  });
});

describe('permissions', () => {
  let own: Patient;
  let others: Patient;
  beforeAll(async () => {
    own = await create(provider, valid({ email: 'own@example.net', lastName: 'Ownedbyone' }));
    others = await create(admin, valid({ email: 'others@example.net', lastName: 'Ownedbytwo', owner: provider2Id }));
  });

  it('administrators read, write and delete every patient', async () => {
    expect((await admin.gql(GET, { id: own.id })).data).not.toBeNull();
    expect((await admin.gql(UPDATE, { input: { id: others.id, city: 'Salem' } })).data).not.toBeNull();
    const extra = await create(admin, valid({ email: 'admin.made@example.net' }));
    expect(extra.owner).toBeNull();
    expect((await admin.gql(DELETE, { input: { id: extra.id } })).data).toEqual({ deletePatient: { id: extra.id } });
  });

  it("providers read and write their own patients and cannot reach another provider's by any id", async () => {
    expect((await provider.gql(GET, { id: own.id })).data).not.toBeNull();
    expect((await provider.gql(UPDATE, { input: { id: own.id, city: 'Boise' } })).data).not.toBeNull();
    for (const response of [
      await provider.gql(GET, { id: others.id }),
      await provider.gql(UPDATE, { input: { id: others.id, city: 'Boise' } }),
      await provider.gql(GET, { id: crypto.randomUUID() }),
      await provider.gql(GET, { id: 'not-a-uuid' }),
    ]) {
      expect(response.errors).toEqual([
        expect.objectContaining({
          message: 'Patient not found',
          extensions: { code: 'NOT_FOUND', messageId: 'patientMessages.notFound', params: {} },
        }),
      ]);
    }
    expect(await listAll(provider)).not.toContain(others.id);
    expect(await listAll(provider2)).toContain(others.id);
  });

  it('providers cannot delete, patients write nothing and read only their own record; each denial is audited', async () => {
    const cases: [TestClient, string, Record<string, unknown>, string][] = [
      [provider, DELETE, { input: { id: own.id } }, PATIENT_MESSAGES.cannotDelete],
      [patient, CREATE, { input: valid() }, PATIENT_MESSAGES.cannotCreate],
      [patient, UPDATE, { input: { id: own.id, city: 'X' } }, PATIENT_MESSAGES.cannotUpdate],
      [patient, DELETE, { input: { id: own.id } }, PATIENT_MESSAGES.cannotDelete],
    ];
    const patientUser = (await patient.me())!;
    const providerUser = (await provider.me())!;
    const denialsBefore = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'));
    for (const [client, query, variables, message] of cases) {
      const response = await client.gql(query, variables);
      expect(response.errors).toEqual([
        expect.objectContaining({
          message,
          extensions: {
            code: 'FORBIDDEN',
            messageId: expect.stringMatching(/^patientMessages\.cannot/) as unknown,
            params: {},
          },
        }),
      ]);
    }
    const denials = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'));
    // A patient reads the record linked to their account (patient:read:own), and no other: the list
    // holds none of the practice's records, and another's record answers like a missing one (recorded).
    const listed = await patient.gql<{ listPatients: { items: { id: string }[] } }>(LIST, {});
    expect(listed.data?.listPatients.items.map((p) => p.id)).not.toContain(own.id);
    expect((await patient.gql(GET, { id: own.id })).errors?.[0]).toMatchObject({
      message: PATIENT_MESSAGES.notFound,
      extensions: { code: 'NOT_FOUND' },
    });
    const denials2 = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'));
    const added = denials2.slice(denialsBefore.length);
    expect(denials.length - denialsBefore.length).toBe(cases.length);
    expect(added).toHaveLength(cases.length + 1);
    expect(added.filter((d) => d.userId === patientUser.userId)).toHaveLength(4);
    expect(added.filter((d) => d.userId === providerUser.userId)).toHaveLength(1);
    expect(added.every((d) => d.hipaaRequired && d.retentionYears === 6)).toBe(true);
  });

  it("records an attempt on another provider's patient as unauthorized access", async () => {
    await provider.gql(GET, { id: others.id });
    const entries = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(
        and(eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'), sql`${auditEntries.details}->'patientIds' ? ${others.id}`),
      );
    expect(entries.length).toBeGreaterThanOrEqual(1);
  });

  it('requires a session', async () => {
    const anonymous = new TestClient(t.app);
    const response = await anonymous.gql(LIST);
    expect(response.errors).toEqual([
      {
        message: 'Authentication required. Please sign in.',
        extensions: { code: 'UNAUTHENTICATED', messageId: 'messages.authRequired', params: {} },
      },
    ]);
  });
});

describe('audit of patient operations', () => {
  it('records PATIENT_VIEW, PATIENT_CREATE, PATIENT_UPDATE and PATIENT_DELETE with the patient ids', async () => {
    const created = await create(admin, valid({ email: 'audited@example.net', owner: providerId }));
    await admin.gql(GET, { id: created.id });
    await admin.gql(UPDATE, { input: { id: created.id, city: 'Tacoma' } });
    await provider.gql(LIST, { filter: { search: 'audited@' } });
    await admin.gql(DELETE, { input: { id: created.id } });
    const entries = await t.runtime.database.db
      .select()
      .from(auditEntries)
      .where(sql`${auditEntries.details}->'patientIds' ? ${created.id}`)
      .orderBy(auditEntries.id);
    expect(entries.map((e) => e.event)).toEqual([
      'PATIENT_CREATE',
      'PATIENT_VIEW',
      'PATIENT_UPDATE',
      'PATIENT_VIEW',
      'PATIENT_DELETE',
    ]);
    expect(entries.every((e) => e.hipaaRequired && e.retentionYears === 6)).toBe(true);
  });
});

describe('deletePatient', () => {
  it('removes the patient from every list, search, count and screen but keeps the record', async () => {
    const created = await create(
      admin,
      valid({ email: 'to.delete@example.net', lastName: 'Deletable', owner: providerId }),
    );
    const countBefore = (await admin.gql<{ countPatients: number }>(COUNT)).data!.countPatients;
    expect((await admin.gql(DELETE, { input: { id: created.id } })).data).toEqual({
      deletePatient: { id: created.id },
    });
    expect(await listAll(admin)).not.toContain(created.id);
    expect(await listAll(provider, { search: 'deletable' })).toEqual([]);
    expect((await admin.gql<{ countPatients: number }>(COUNT)).data!.countPatients).toBe(countBefore - 1);
    expect((await admin.gql(GET, { id: created.id })).errors?.[0]?.message).toBe('Patient not found');
    expect((await admin.gql(DELETE, { input: { id: created.id } })).errors?.[0]?.message).toBe('Patient not found');
    const [kept] = await t.runtime.database.db.select().from(patients).where(eq(patients.id, created.id));
    expect(kept?.deletedAt).toBeInstanceOf(Date);
    expect(kept?.lastName).toBe('Deletable');
  });
});

describe('search', () => {
  it('matches case-insensitive substrings of first name, last name, full name and email', async () => {
    const created = await create(
      provider,
      valid({ firstName: 'Philippa', lastName: 'Vandersloot', email: 'pv.search@clinic-mail.org' }),
    );
    for (const search of ['PHILIPP', 'ndersl', 'philippa vander', 'CLINIC-MAIL', 'pv.search@']) {
      expect(await listAll(provider, { search })).toEqual([created.id]);
    }
    expect(await listAll(provider, { search: 'philippa x' })).toEqual([]);
    expect(await listAll(provider, { search: '%' })).toEqual([]);
    expect(
      (await provider.gql<{ countPatients: number }>(COUNT, { filter: { search: 'vandersloot' } })).data?.countPatients,
    ).toBe(1);
  });
});

describe('paging', () => {
  it('visits every record exactly once in a stable order while records are added', async () => {
    const fresh = await createTestApp();
    const client = new TestClient(fresh.app);
    await client.signIn('admin@demo.test', DEMO_PASSWORD);
    const random = (n: number) => `${'abcdefghij'[n % 10]}${n}`;
    for (let i = 0; i < 130; i++) {
      await create(
        client,
        valid({
          email: `page${i}@example.net`,
          lastName: i % 3 === 0 ? 'Same' : `Name${'x'.repeat(i % 5)}`,
          firstName: `Pat ${random(i).replace(/\d/g, '')}`,
        }),
      );
    }
    const original = await listAll(client, undefined, 100);
    expect(original).toHaveLength(130);

    const seen: string[] = [];
    let nextToken: string | null = null;
    let round = 0;
    do {
      const response: { data: { listPatients: { items: Patient[]; nextToken: string | null } } | null } =
        await client.gql(LIST, { limit: 7, nextToken });
      seen.push(...response.data!.listPatients.items.map((p) => p.id));
      nextToken = response.data!.listPatients.nextToken;
      // Someone adds patients while we page: at the start, the end and the middle of the order.
      await create(
        client,
        valid({ email: `during${round}@example.net`, lastName: ['Aaa', 'Same', 'Zzz'][round % 3]! }),
      );
      round += 1;
    } while (nextToken);
    expect(new Set(seen).size).toBe(seen.length);
    for (const id of original) expect(seen).toContain(id);
  });

  it('defaults to 50 and caps the limit at 100', async () => {
    const fresh = await createTestApp();
    const client = new TestClient(fresh.app);
    await client.signIn('admin@demo.test', DEMO_PASSWORD);
    await fresh.runtime.database.db.insert(patients).values(
      Array.from({ length: 120 }, (_, i) => ({
        firstName: 'Bulk',
        lastName: `Row${String(i).padStart(3, '0')}`,
        email: `bulk${i}@example.net`,
        dateOfBirth: '1990-01-01',
      })),
    );
    const first = await client.gql<{ listPatients: { items: Patient[] } }>(LIST);
    expect(first.data?.listPatients.items).toHaveLength(50);
    const capped = await client.gql<{ listPatients: { items: Patient[] } }>(LIST, { limit: 1000 });
    expect(capped.data?.listPatients.items).toHaveLength(100);
  });

  it('refuses a forged or damaged token with a clear error', async () => {
    const first = await admin.gql<{ listPatients: { nextToken: string } }>(LIST, { limit: 1 });
    const token = first.data!.listPatients.nextToken;
    const [body, signature] = token.split('.') as [string, string];
    const forgedBody = Buffer.from(JSON.stringify(['a', 'a', crypto.randomUUID()])).toString('base64url');
    for (const bad of [
      `${forgedBody}.${signature}`,
      `${body}.${signature.slice(0, -2)}xx`,
      token.slice(0, 10),
      'garbage',
    ]) {
      const response = await admin.gql(LIST, { nextToken: bad });
      expect(response.errors).toEqual([
        expect.objectContaining({
          message: PATIENT_MESSAGES.invalidToken,
          extensions: { code: 'BAD_USER_INPUT', messageId: 'patientMessages.invalidToken', params: {} },
        }),
      ]);
    }
  });
});
