import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { DEMO_PASSWORD, ERROR_CODES } from '@telehealth/shared';
import { migrateDatabase } from '../src/db/client.ts';
import { ENCRYPTED_TABLES } from '../src/keys/encrypted-columns.ts';
import { EncryptedValueError, Keyring, parseDataKeys } from '../src/keys/keyring.ts';
import { rotateDataKeys } from '../src/keys/reencrypt.ts';
import { serializeError } from '../src/log-redaction.ts';
import {
  createTestApp,
  createTestDatabase,
  runNode,
  TEST_DATA_KEY,
  TWO_CLI_STARTS,
  TestClient,
  type TestApp,
} from './helpers.ts';
import { gqlFrom } from './mail-helpers.ts';
import { afterFile } from './file-cleanup.ts';

const SERVER_ROOT = path.resolve(import.meta.dirname, '..');
const CLINICAL = ['reasonForCare', 'allergies', 'currentMedications', 'medicalHistory', 'insurancePolicyNumber'];
const PATIENT_FIELDS = `id firstName lastName email ${CLINICAL.join(' ')}`;
const CREATE = `mutation ($input: CreatePatientInput!) { createPatient(input: $input) { ${PATIENT_FIELDS} } }`;
const UPDATE = `mutation ($input: UpdatePatientInput!) { updatePatient(input: $input) { id } }`;
const GET = `query ($id: ID!) { getPatient(id: $id) { ${PATIENT_FIELDS} } }`;
const LIST = `query ($t: String) { listPatients(limit: 100, nextToken: $t) { items { ${PATIENT_FIELDS} } nextToken } }`;
const SUBMIT_PATIENT =
  'mutation ($input: PatientAccessRequestInput!) { submitPatientAccessRequest(input: $input) { success } }';
const GET_REQUEST =
  'query ($id: ID!) { getAccessRequest(id: $id) { id declineReason patientForm { reasonForInterest currentConditions currentMedications allergies additionalQuestions } } }';
const LIST_REQUESTS = '{ listAccessRequests(limit: 100) { items { id email declineReason } } }';
const DECLINE = 'mutation ($id: ID!, $reason: String) { declineAccessRequest(id: $id, reason: $reason) { id } }';

type Patient = Record<string, string | null> & { id: string };

const newKey = (id: string) => `${id}:${randomBytes(32).toString('base64')}`;
let uniqueCounter = 0;
/** Text no other test writes, so finding it anywhere in the database means it leaked. */
const marker = (label: string) => `${label} ${randomBytes(6).toString('hex')} ${++uniqueCounter}`;

function clinicalText() {
  return {
    reasonForCare: marker('Intrusive memories after the flood'),
    allergies: marker('Penicillin, hives'),
    currentMedications: marker('Sertraline 50 mg'),
    medicalHistory: marker('Two depressive episodes'),
    insurancePolicyNumber: `POL-${randomBytes(4).toString('hex')}-${++uniqueCounter}`,
  };
}

async function createPatient(client: TestClient, extra: Record<string, unknown> = {}): Promise<Patient> {
  const n = ++uniqueCounter;
  const response = await client.gql<{ createPatient: Patient }>(CREATE, {
    input: {
      firstName: 'Mara',
      lastName: `Keyes${String.fromCharCode(97 + (n % 26))}`,
      email: `mara.keyes.${n}.${randomBytes(3).toString('hex')}@example.net`,
      dateOfBirth: '1980-02-03',
      ...clinicalText(),
      ...extra,
    },
  });
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.createPatient;
}

function patientRequestForm() {
  return {
    firstName: 'Ines',
    lastName: 'Okafor',
    dateOfBirth: '1991-09-14',
    phone: '503-555-0144',
    email: `ines.${randomBytes(4).toString('hex')}@mail.example`,
    reasonForInterest: marker('Panic at work since spring'),
    currentConditions: marker('Asthma'),
    currentMedications: marker('Albuterol inhaler'),
    allergies: marker('Latex'),
    additionalQuestions: marker('Can my partner join?'),
    consentToContact: true,
  };
}

async function submitRequest(t: TestApp, form: ReturnType<typeof patientRequestForm>): Promise<string> {
  const response = await gqlFrom<{ submitPatientAccessRequest: { success: boolean } }>(
    t.app,
    `10.9.0.${++uniqueCounter % 250}`,
    SUBMIT_PATIENT,
    { input: form },
  );
  expect(response.data?.submitPatientAccessRequest.success).toBe(true);
  const { rows } = await t.runtime.database.pool.query<{ id: string }>(
    'SELECT id FROM access_requests WHERE email = $1',
    [form.email],
  );
  return rows[0]!.id;
}

/** Every row of every table as PostgreSQL prints it: what a dump of the database would hold. */
async function wholeDatabaseText(t: TestApp): Promise<string> {
  const pool = t.runtime.database.pool;
  const { rows: tables } = await pool.query<{ schema: string; name: string }>(
    "SELECT table_schema AS schema, table_name AS name FROM information_schema.tables WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema')",
  );
  const parts: string[] = [];
  for (const { schema, name } of tables) {
    const { rows } = await pool.query<{ row: string }>(`SELECT t::text AS row FROM "${schema}"."${name}" t`);
    parts.push(...rows.map((r) => r.row));
  }
  return parts.join('\n');
}

async function storedPatient(t: TestApp, id: string): Promise<Record<string, string | null>> {
  const { rows } = await t.runtime.database.pool.query<Record<string, string | null>>(
    'SELECT reason_for_care, allergies, current_medications, medical_history, insurance_policy_number FROM patients WHERE id = $1',
    [id],
  );
  return rows[0]!;
}

describe('the keyring', () => {
  const keyring = new Keyring([{ id: 'k1', key: randomBytes(32) }]);
  const place = { table: 'patients', column: 'allergies', id: '3f1c1a52-6a43-4d0c-9a59-0d7d4c3b1e11' };

  it('round-trips text with a fresh IV each time and the key id in the stored value', () => {
    const text = 'Pollen; amoxicillin — rash (2019) ✓';
    const first = keyring.encrypt(text, place);
    const second = keyring.encrypt(text, place);
    expect(first).toMatch(/^enc:v1:k1:[\w-]{16}:[\w-]+$/);
    expect(first).not.toBe(second);
    expect(keyring.decrypt(first, place)).toBe(text);
    expect(keyring.decrypt(keyring.encrypt('', place), place)).toBe('');
  });

  it('refuses a value moved to another row, column or table, or changed in any byte', () => {
    const stored = keyring.encrypt('Lithium 300 mg', place);
    for (const elsewhere of [
      { ...place, id: '3f1c1a52-6a43-4d0c-9a59-0d7d4c3b1e12' },
      { ...place, column: 'medical_history' },
      { ...place, table: 'notes' },
    ]) {
      expect(() => keyring.decrypt(stored, elsewhere)).toThrow(EncryptedValueError);
    }
    const [head, body] = [stored.slice(0, stored.lastIndexOf(':') + 1), stored.slice(stored.lastIndexOf(':') + 1)];
    const bytes = Buffer.from(body, 'base64url');
    for (let i = 0; i < bytes.length; i++) {
      const flipped = Buffer.from(bytes);
      flipped[i]! ^= 0x01;
      expect(() => keyring.decrypt(head + flipped.toString('base64url'), place)).toThrow(
        /^Cannot decrypt patients\.allergies of row 3f1c1a52-6a43-4d0c-9a59-0d7d4c3b1e11: it fails authentication/,
      );
    }
    expect(() => keyring.decrypt('Lithium 300 mg', place)).toThrow(/not an encrypted value/);
    expect(() => keyring.decrypt(stored.replace('enc:v1:k1:', 'enc:v1:k9:'), place)).toThrow(
      /under data key "k9", which the keyring does not hold/,
    );
  });

  it('decrypts with every key it holds and encrypts with the first', () => {
    const oldKey = { id: 'old', key: randomBytes(32) };
    const stored = new Keyring([oldKey]).encrypt('Quetiapine', place);
    const both = new Keyring([{ id: 'new', key: randomBytes(32) }, oldKey]);
    expect(both.decrypt(stored, place)).toBe('Quetiapine');
    expect(both.isCurrent(stored)).toBe(false);
    expect(both.isCurrent(both.encrypt('Quetiapine', place))).toBe(true);
    expect(both.keyIds).toEqual(['new', 'old']);
    // Same id, other key material (a key replaced instead of added): refused, not garbage.
    expect(() => new Keyring([{ id: 'old', key: randomBytes(32) }]).decrypt(stored, place)).toThrow(
      EncryptedValueError,
    );
  });
});

describe('clinical text in the database', () => {
  let t: TestApp;
  let admin: TestClient;
  let provider: TestClient;

  beforeAll(async () => {
    t = await createTestApp();
    admin = new TestClient(t.app);
    provider = new TestClient(t.app);
    await admin.signIn('admin@demo.test', DEMO_PASSWORD);
    await provider.signIn('provider@demo.test', DEMO_PASSWORD);
  });

  it('is stored encrypted for patients and access requests, and the API answers the plain text', async () => {
    const clinical = clinicalText();
    const created = await createPatient(provider, clinical);
    expect(created).toMatchObject(clinical);
    const updatedText = marker('Now also nightmares');
    expect((await provider.gql(UPDATE, { input: { id: created.id, medicalHistory: updatedText } })).errors).toBe(
      undefined,
    );
    const read = await provider.gql<{ getPatient: Patient }>(GET, { id: created.id });
    expect(read.data?.getPatient).toMatchObject({ ...clinical, medicalHistory: updatedText });

    const form = patientRequestForm();
    const requestId = await submitRequest(t, form);
    const reason = marker('Outside our service area');
    expect((await admin.gql(DECLINE, { id: requestId, reason })).errors).toBe(undefined);
    const request = await admin.gql<{
      getAccessRequest: { declineReason: string; patientForm: Record<string, string> };
    }>(GET_REQUEST, { id: requestId });
    expect(request.data?.getAccessRequest.declineReason).toBe(reason);
    expect(request.data?.getAccessRequest.patientForm).toMatchObject({
      reasonForInterest: form.reasonForInterest,
      currentConditions: form.currentConditions,
      allergies: form.allergies,
    });

    // Each protected column holds a value under the test key, and no table anywhere holds the plain text.
    for (const value of Object.values(await storedPatient(t, created.id))) expect(value).toMatch(/^enc:v1:test:/);
    const { rows } = await t.runtime.database.pool.query<{ form: string; decline_reason: string }>(
      'SELECT form, decline_reason FROM access_requests WHERE id = $1',
      [requestId],
    );
    expect(rows[0]?.form).toMatch(/^enc:v1:test:/);
    expect(rows[0]?.decline_reason).toMatch(/^enc:v1:test:/);
    const dump = await wholeDatabaseText(t);
    const secrets = [
      ...Object.values(clinical),
      updatedText,
      reason,
      form.reasonForInterest,
      form.currentConditions,
      form.currentMedications,
      form.allergies,
      form.additionalQuestions,
    ];
    for (const secret of secrets) expect(dump).not.toContain(secret);
    // The names stay searchable (decision 016).
    expect(dump).toContain(created.email);
  });

  it('keeps plain text out of an encrypted column even for a write that bypasses the repository', async () => {
    const created = await createPatient(provider);
    await expect(
      t.runtime.database.pool.query('UPDATE patients SET allergies = $1 WHERE id = $2', ['Peanuts', created.id]),
    ).rejects.toMatchObject({ code: '23514', constraint: 'patients_allergies_encrypted' });
  });

  it('fails loudly on a flipped byte: a server error naming table, column and row, without the value', async () => {
    const created = await createPatient(provider);
    const stored = (await storedPatient(t, created.id)).allergies!;
    const cut = stored.lastIndexOf(':') + 1;
    const bytes = Buffer.from(stored.slice(cut), 'base64url');
    bytes[3]! ^= 0x40;
    const tampered = stored.slice(0, cut) + bytes.toString('base64url');
    await t.runtime.database.pool.query('UPDATE patients SET allergies = $1 WHERE id = $2', [tampered, created.id]);

    const logged = vi.spyOn(t.app.log, 'error');
    try {
      const response = await provider.gql<{ getPatient: Patient }>(GET, { id: created.id });
      expect(response.errors?.[0]).toMatchObject({
        path: ['getPatient', 'allergies'],
        extensions: { code: ERROR_CODES.internal },
      });
      // Never garbage: the damaged field has no value; the others are intact.
      expect(response.data?.getPatient.allergies).toBeNull();
      expect(response.data?.getPatient.reasonForCare).toBe(created.reasonForCare);
      const error = logged.mock.calls
        .map(([fields]) => (fields as { err?: unknown }).err)
        .find((err) => err instanceof EncryptedValueError);
      const line = JSON.stringify(serializeError(error));
      expect(line).toContain(`Cannot decrypt patients.allergies of row ${created.id}: it fails authentication`);
      expect(line).not.toContain(created.allergies);
      expect(line).not.toContain(tampered.slice(cut, cut + 12));
    } finally {
      logged.mockRestore();
    }
  });

  it('refuses ciphertext copied to another row or another column', async () => {
    const [first, second] = [await createPatient(provider), await createPatient(provider)];
    const stored = await storedPatient(t, first.id);
    await t.runtime.database.pool.query('UPDATE patients SET allergies = $1 WHERE id = $2', [
      stored.allergies,
      second.id,
    ]);
    await t.runtime.database.pool.query('UPDATE patients SET medical_history = $1 WHERE id = $2', [
      stored.allergies,
      first.id,
    ]);
    const copiedRow = await provider.gql<{ getPatient: Patient }>(GET, { id: second.id });
    expect(copiedRow.errors?.[0]).toMatchObject({ path: ['getPatient', 'allergies'] });
    expect(copiedRow.data?.getPatient.allergies).toBeNull();
    const copiedColumn = await provider.gql<{ getPatient: Patient }>(GET, { id: first.id });
    expect(copiedColumn.errors?.[0]).toMatchObject({ path: ['getPatient', 'medicalHistory'] });
    expect(copiedColumn.data?.getPatient.allergies).toBe(first.allergies);

    // A form moved to another request fails the whole read: the form is one value.
    const [a, b] = [await submitRequest(t, patientRequestForm()), await submitRequest(t, patientRequestForm())];
    await t.runtime.database.pool.query(
      'UPDATE access_requests SET form = (SELECT form FROM access_requests WHERE id = $1) WHERE id = $2',
      [a, b],
    );
    const moved = await admin.gql(GET_REQUEST, { id: b });
    expect(moved.data).toBeNull();
    expect(moved.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.internal);
    expect((await admin.gql(GET_REQUEST, { id: a })).errors).toBe(undefined);
  });

  it('decrypts nothing for a list that shows no clinical text', async () => {
    const created = await createPatient(provider);
    await t.runtime.database.pool.query("UPDATE patients SET allergies = 'enc:v1:test:broken' WHERE id = $1", [
      created.id,
    ]);
    const response = await provider.gql<{ listPatients: { items: Patient[] } }>(
      'query { listPatients(limit: 100) { items { id email } } }',
    );
    expect(response.errors).toBe(undefined);
    expect(response.data?.listPatients.items.map((p) => p.id)).toContain(created.id);
  });
});

describe('keys', () => {
  it('are generated into DATA_DIR (mode 0600) when DATA_ENCRYPTION_KEY is not set, and read back at the next start', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'telehealth-keys-'));
    afterFile(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const databaseUrl = await createTestDatabase();
    const first = await createTestApp({ DATA_ENCRYPTION_KEY: '', DATA_DIR: dataDir }, { databaseUrl });
    const file = path.join(dataDir, 'data-keys');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const parsed = parseDataKeys(fs.readFileSync(file, 'utf8'));
    expect('keys' in parsed && parsed.keys.map((k) => k.id)).toEqual(['k1']);

    const client = new TestClient(first.app);
    await client.signIn('provider@demo.test', DEMO_PASSWORD);
    const created = await createPatient(client);
    expect((await storedPatient(first, created.id)).allergies).toMatch(/^enc:v1:k1:/);

    const second = await createTestApp({ DATA_ENCRYPTION_KEY: '', DATA_DIR: dataDir }, { databaseUrl });
    const again = new TestClient(second.app);
    await again.signIn('provider@demo.test', DEMO_PASSWORD);
    expect((await again.gql<{ getPatient: Patient }>(GET, { id: created.id })).data?.getPatient).toMatchObject({
      allergies: created.allergies,
    });
  });

  it('are required to start in production', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'telehealth-keys-'));
    afterFile(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const result = await runNode(path.join(SERVER_ROOT, 'src/main.ts'), {
      NODE_ENV: 'production',
      AUTH_SECRET: 'x'.repeat(40),
      DATA_ENCRYPTION_KEY: '',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
    });
    expect(result.code).toBe(1);
    expect(result.output).toContain('DATA_ENCRYPTION_KEY: required when NODE_ENV=production');
    expect(fs.existsSync(path.join(dataDir, 'pg'))).toBe(false);
  });
});

describe('values written before encryption', () => {
  it('are encrypted at start, in the migration path, once', async () => {
    const databaseUrl = await createTestDatabase();
    // The database as the previous release left it: every migration before 0005, plain text in the rows.
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'telehealth-migrations-'));
    afterFile(() => fs.rmSync(folder, { recursive: true, force: true }));
    const source = path.join(SERVER_ROOT, 'drizzle');
    const journal = JSON.parse(fs.readFileSync(path.join(source, 'meta/_journal.json'), 'utf8')) as {
      entries: { tag: string }[];
    };
    const before = journal.entries.filter((entry) => Number(entry.tag.slice(0, 4)) < 5);
    fs.mkdirSync(path.join(folder, 'meta'));
    fs.writeFileSync(path.join(folder, 'meta/_journal.json'), JSON.stringify({ ...journal, entries: before }));
    for (const { tag } of before) fs.copyFileSync(path.join(source, `${tag}.sql`), path.join(folder, `${tag}.sql`));
    await migrateDatabase(databaseUrl, { migrationsFolder: folder });

    const old = new (await import('pg')).default.Client({ connectionString: databaseUrl });
    await old.connect();
    const clinical = Array.from({ length: 3 }, clinicalText);
    const patientIds: string[] = [];
    for (const c of clinical) {
      const { rows } = await old.query<{ id: string }>(
        `INSERT INTO patients (first_name, last_name, email, date_of_birth, reason_for_care, allergies, current_medications, medical_history, insurance_policy_number)
         VALUES ('Old', 'Record', $1, '1970-01-01', $2, $3, $4, $5, $6) RETURNING id`,
        [
          `old.${randomBytes(3).toString('hex')}@example.net`,
          c.reasonForCare,
          c.allergies,
          c.currentMedications,
          c.medicalHistory,
          c.insurancePolicyNumber,
        ],
      );
      patientIds.push(rows[0]!.id);
    }
    const form = patientRequestForm();
    const reason = marker('Declined before encryption');
    const { rows: requests } = await old.query<{ id: string }>(
      `INSERT INTO access_requests (kind, status, first_name, last_name, email, form, decline_reason)
       VALUES ('patient', 'declined', $1, $2, $3, $4::jsonb, $5) RETURNING id`,
      [form.firstName, form.lastName, form.email, JSON.stringify(form), reason],
    );
    await old.end();

    const t = await createTestApp({}, { databaseUrl });
    const dump = await wholeDatabaseText(t);
    for (const secret of [
      ...clinical.flatMap((c) => Object.values(c)),
      form.reasonForInterest,
      form.allergies,
      reason,
    ]) {
      expect(dump).not.toContain(secret);
    }
    const { rows: constraints } = await t.runtime.database.pool.query<{ conname: string; convalidated: boolean }>(
      "SELECT conname, convalidated FROM pg_constraint WHERE conname LIKE '%\\_encrypted'",
    );
    const expected = ENCRYPTED_TABLES.flatMap((set) => set.columns.map((c) => c.constraint));
    expect(constraints.filter((c) => c.convalidated).map((c) => c.conname)).toEqual(expect.arrayContaining(expected));
    const { rows: audit } = await t.runtime.database.pool.query<{ details: { rows: Record<string, number> } }>(
      "SELECT details FROM audit_entries WHERE event = 'DATA_REENCRYPTED'",
    );
    expect(audit.map((a) => a.details.rows)).toEqual([{ patients: 3, access_requests: 1 }]);

    const admin = new TestClient(t.app);
    await admin.signIn('admin@demo.test', DEMO_PASSWORD);
    for (const [i, id] of patientIds.entries()) {
      expect((await admin.gql<{ getPatient: Patient }>(GET, { id })).data?.getPatient).toMatchObject(clinical[i]!);
    }
    const request = await admin.gql<{ getAccessRequest: { declineReason: string; patientForm: object } }>(GET_REQUEST, {
      id: requests[0]!.id,
    });
    expect(request.data?.getAccessRequest).toMatchObject({
      declineReason: reason,
      patientForm: { reasonForInterest: form.reasonForInterest, allergies: form.allergies },
    });

    // A second start finds nothing to do and leaves every value as it was.
    const storedBefore = await storedPatient(t, patientIds[0]!);
    const again = await createTestApp({}, { databaseUrl });
    expect(await storedPatient(again, patientIds[0]!)).toEqual(storedBefore);
    const { rows: entries } = await again.runtime.database.pool.query(
      "SELECT 1 FROM audit_entries WHERE event = 'DATA_REENCRYPTED'",
    );
    expect(entries).toHaveLength(1);
  });
});

/** A rotation's count for every encrypted table, all zero (a test names the tables that differ). */
const EVERY_TABLE_ZERO = Object.fromEntries(ENCRYPTED_TABLES.map((set) => [set.tableName, 0]));

describe('key rotation', () => {
  const k2 = newKey('k2');
  let signedNoteId: string;
  let databaseUrl: string;
  let before: TestApp;
  let during: TestApp;
  let provider: TestClient;
  let patients: Patient[];
  let requestIds: string[];

  beforeAll(async () => {
    before = await createTestApp();
    databaseUrl = before.databaseUrl;
    const client = new TestClient(before.app);
    await client.signIn('provider@demo.test', DEMO_PASSWORD);
    patients = [];
    for (let i = 0; i < 12; i++) patients.push(await createPatient(client));
    requestIds = [];
    for (let i = 0; i < 3; i++) requestIds.push(await submitRequest(before, patientRequestForm()));
    // A signed note: locked against every change but a re-encryption (decision 027).
    const note = await client.gql<{ createNote: { id: string } }>(
      'mutation ($input: CreateNoteInput!) { createNote(input: $input) { id } }',
      { input: { title: 'Signed before the rotation', content: 'Kept readable' } },
    );
    signedNoteId = note.data!.createNote.id;
    await client.gql('mutation ($input: SignNoteInput!) { signNote(input: $input) { id } }', {
      input: { id: signedNoteId, password: DEMO_PASSWORD },
    });
    // Every server restarts with the new key first and the old one still held.
    during = await createTestApp({ DATA_ENCRYPTION_KEY: `${k2},${TEST_DATA_KEY}` }, { databaseUrl });
    provider = new TestClient(during.app);
    await provider.signIn('provider@demo.test', DEMO_PASSWORD);
  });

  it('re-encrypts everything under the new key while reads and writes go on, losing no update', async () => {
    const changedDuring = marker('Changed while rotating');
    const createdDuring: Patient[] = [];
    const progress: string[] = [];
    let raced = false;
    const result = await rotateDataKeys(during.runtime.database.db, during.runtime.keyring, {
      batchSize: 4,
      onProgress: ({ table, done, total }) => progress.push(`${table} ${done}/${total}`),
      afterRead: async (table, ids) => {
        // Between the walk's read and its write: a read, a new patient and, once, a change to a row in this batch.
        const id = patients[createdDuring.length % patients.length]!.id;
        const read = await provider.gql<{ getPatient: Patient }>(GET, { id });
        expect(read.errors).toBe(undefined);
        createdDuring.push(await createPatient(provider));
        if (table === 'patients' && !raced) {
          raced = true;
          const target = patients.find((p) => ids.includes(p.id))!;
          await provider.gql(UPDATE, { input: { id: target.id, allergies: changedDuring } });
          target.allergies = changedDuring;
        }
      },
    });
    expect(raced).toBe(true);
    expect(result.remaining).toEqual(EVERY_TABLE_ZERO);
    expect(result.rewritten.patients).toBeGreaterThanOrEqual(12 - 1);
    expect(result.rewritten.notes).toBe(1);
    expect(result.rewritten.note_versions).toBe(1);
    const note = await provider.gql<{ getNote: { content: string; status: string } }>(
      'query ($id: ID!) { getNote(id: $id) { content status } }',
      { id: signedNoteId },
    );
    expect(note.data?.getNote).toEqual({ content: 'Kept readable', status: 'signed' });
    expect(result.rewritten.access_requests).toBe(3);
    expect(progress).toContain('access_requests 3/3');

    const { rows } = await during.runtime.database.pool.query<Record<string, string | null>>(
      'SELECT reason_for_care, allergies, current_medications, medical_history, insurance_policy_number FROM patients',
    );
    for (const value of rows.flatMap((r) => Object.values(r)).filter((v) => v !== null)) {
      expect(value).toMatch(/^enc:v1:k2:/);
    }
    // The change made between the walk's read and write was kept.
    const raced1 = patients.find((p) => p.allergies === changedDuring)!;
    expect((await provider.gql<{ getPatient: Patient }>(GET, { id: raced1.id })).data?.getPatient.allergies).toBe(
      changedDuring,
    );
  });

  it('is safe to run again, and catches values a server on the old key wrote meanwhile', async () => {
    const stale = new TestClient(before.app);
    await stale.signIn('provider@demo.test', DEMO_PASSWORD);
    const oldKeyText = marker('Written by a server not yet restarted');
    await stale.gql(UPDATE, { input: { id: patients[0]!.id, currentMedications: oldKeyText } });
    expect((await storedPatient(during, patients[0]!.id)).current_medications).toMatch(/^enc:v1:test:/);
    patients[0]!.currentMedications = oldKeyText;

    const again = await rotateDataKeys(during.runtime.database.db, during.runtime.keyring);
    expect(again.rewritten).toEqual({ ...EVERY_TABLE_ZERO, patients: 1 });
    expect(again.remaining).toEqual(EVERY_TABLE_ZERO);
    const third = await rotateDataKeys(during.runtime.database.db, during.runtime.keyring);
    expect(third.rewritten).toEqual(EVERY_TABLE_ZERO);
  });

  it('leaves the old key removable: a server with only the new key reads everything', async () => {
    const after = await createTestApp({ DATA_ENCRYPTION_KEY: k2 }, { databaseUrl });
    const admin = new TestClient(after.app);
    await admin.signIn('admin@demo.test', DEMO_PASSWORD);
    const items: Patient[] = [];
    let token: string | null = null;
    do {
      const page: { data: { listPatients: { items: Patient[]; nextToken: string | null } } | null; errors?: unknown } =
        await admin.gql(LIST, { t: token });
      expect(page.errors).toBe(undefined);
      items.push(...page.data!.listPatients.items);
      token = page.data!.listPatients.nextToken;
    } while (token);
    for (const patient of patients) expect(items.find((p) => p.id === patient.id)).toEqual(patient);
    for (const id of requestIds) expect((await admin.gql(GET_REQUEST, { id })).errors).toBe(undefined);
    expect((await admin.gql(LIST_REQUESTS)).errors).toBe(undefined);
  });

  it(
    'runs as npm run keys:rotate: progress, a summary, and nothing to do the second time',
    TWO_CLI_STARTS,
    async () => {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'telehealth-keys-'));
      afterFile(() => fs.rmSync(dataDir, { recursive: true, force: true }));
      const env = {
        DATABASE_URL: databaseUrl,
        DATA_DIR: dataDir,
        AUTH_SECRET: 'test-secret-that-is-long-enough-0123456789',
        DATA_ENCRYPTION_KEY: `${newKey('k3')},${k2}`,
        LOG_LEVEL: 'silent',
      };
      const first = await runNode(path.join(SERVER_ROOT, 'src/cli/keys-rotate.ts'), env);
      expect(first.code, first.output).toBe(0);
      expect(first.output).toContain('Current data key: "k3"; older keys held: "k2".');
      expect(first.output).toMatch(/patients: \d+ of \d+ rows/);
      expect(first.output).toMatch(/Done: \d+ rows re-encrypted; every encrypted value is under "k3"\./);
      expect(first.output).toContain('No value needs "k2" any more');
      const second = await runNode(path.join(SERVER_ROOT, 'src/cli/keys-rotate.ts'), env);
      expect(second.code).toBe(0);
      expect(second.output).toContain('Nothing to do: every encrypted value is already under "k3".');
    },
  );
});
