import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, ERROR_CODES } from '@telehealth/shared';
import { accessRequests, patients } from '../src/db/schema.ts';
import { createTestApp, TestClient, type TestApp, submitPatientAccessRequest } from './helpers.ts';

/** Log lines of the app, as parsed JSON. */
const logLines: Record<string, unknown>[] = [];
const logStream = { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) };

let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, { logStream });
  admin = new TestClient(t.app);
  await admin.signIn('admin@demo.test', DEMO_PASSWORD);
});

const CREATE_PATIENT =
  'mutation C($input: CreatePatientInput!) { createPatient(input: $input) { id firstName street allergies } }';
const newPatient = (fields: Record<string, unknown> = {}) => ({
  firstName: 'Ann',
  lastName: 'Lee',
  email: `ann.${crypto.randomUUID()}@example.com`,
  dateOfBirth: '1990-01-01',
  ...fields,
});

interface Refused {
  errors?: { message: string; extensions?: { code?: string; fieldErrors?: Record<string, string> } }[];
}

function expectRefused(response: Refused, field: string, message: string) {
  expect(response.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.badUserInput);
  expect(response.errors?.[0]?.extensions?.fieldErrors?.[field]).toBe(message);
}

const patientCount = () => t.runtime.database.db.$count(patients);

describe('text that no rule accepts', () => {
  // The browser checks each field with its shared schema first and says "First name contains invalid
  // characters"; a request that gets past it meets the net under the schemas, which names the argument.
  it('is refused, naming the argument, and nothing is stored: NUL, control characters, lone surrogates', async () => {
    const before = await patientCount();
    for (const [field, value] of [
      ['firstName', 'Ann\u0000'],
      ['lastName', 'Lee\ud800'],
      ['city', 'Salem\u001b[2J'],
      ['allergies', 'Penicillin\u0000'],
      ['medicalHistory', 'Asthma\udfff'],
    ] as const) {
      const response = await admin.gql(CREATE_PATIENT, { input: newPatient({ [field]: value }) });
      expect(response.status, field).toBe(200);
      expectRefused(response, `input.${field}`, `input.${field} contains invalid characters`);
    }
    expect(await patientCount()).toBe(before);
  });

  it('is refused in a search, which PostgreSQL would otherwise refuse (SQLSTATE 22021)', async () => {
    for (const query of [
      'query L($f: PatientFilterInput) { listPatients(filter: $f) { nextToken } }',
      'query C($f: PatientFilterInput) { countPatients(filter: $f) }',
    ]) {
      const response = await admin.gql(query, { f: { search: 'Lee\u0000' } });
      expect(response.status).toBe(200);
      expectRefused(response, 'f.search', 'f.search contains invalid characters');
    }
  });

  it('is refused in the public forms, before anything is stored or audited', async () => {
    const before = await t.runtime.database.db.$count(accessRequests);
    const response = await submitPatientAccessRequest(t.app, { reasonForInterest: 'Anxiety \ud800' });
    expectRefused(response, 'input.reasonForInterest', 'input.reasonForInterest contains invalid characters');
    expect(await t.runtime.database.db.$count(accessRequests)).toBe(before);
  });

  it('is refused by the net under the schemas for any argument, also a literal: an id, an unknown account', async () => {
    const byVariable = await admin.gql('mutation S($id: ID!) { sendInvitation(accountId: $id) { success } }', {
      id: '\ud800',
    });
    expectRefused(byVariable, 'id', 'id contains invalid characters');
    const literal = await admin.gql('{ getPatient(id: "a\\u0000b") { id } }');
    expectRefused(literal, 'id', 'id contains invalid characters');
    const nested = await admin.gql('{ listPatients(filter: { search: "x\\u0001" }) { nextToken } }');
    expectRefused(nested, 'filter.search', 'filter.search contains invalid characters');
  });
});

describe('markup', () => {
  it('is refused in short fields, with a message that says which characters', async () => {
    for (const [field, value, message] of [
      // Names keep the specification's message for markup.
      ['firstName', '<scr<script>x</script>ipt>', 'First name contains invalid characters'],
      ['street', '<img src=x onerror=alert(1)>', 'Street address cannot contain < or >'],
      ['city', '<svg/onload=alert(1)>', 'City cannot contain < or >'],
      ['insuranceProvider', '<script src=//evil.example/x.js>', 'Insurance provider cannot contain < or >'],
    ] as const) {
      expectRefused(await admin.gql(CREATE_PATIENT, { input: newPatient({ [field]: value }) }), field, message);
    }
  });

  it('is kept as typed in free text, and read back as the same text', async () => {
    const allergies = 'Penicillin <b>severe</b>\n<script>alert(1)</script> javascript:alert(1) & dose < 5 mg';
    const response = await admin.gql<{ createPatient: { id: string; allergies: string } }>(CREATE_PATIENT, {
      input: newPatient({ allergies }),
    });
    expect(response.errors).toBeUndefined();
    expect(response.data?.createPatient.allergies).toBe(allergies);
    const read = await admin.gql<{ getPatient: { allergies: string } }>(
      'query G($id: ID!) { getPatient(id: $id) { allergies } }',
      { id: response.data?.createPatient.id },
    );
    expect(read.data?.getPatient.allergies).toBe(allergies);
  });
});

describe('normalisation', () => {
  it('stores text in NFC, so the same name typed two ways is one name', async () => {
    const response = await admin.gql<{ createPatient: { firstName: string } }>(CREATE_PATIENT, {
      input: newPatient({ firstName: 'Jose\u0301' }),
    });
    expect(response.data?.createPatient.firstName).toBe('José');
  });
});

describe('the log of a refused request', () => {
  it('names the code and the field at info, never the value', async () => {
    const marker = `Zz${crypto.randomUUID().slice(0, 8)}`;
    logLines.length = 0;
    await admin.gql(CREATE_PATIENT, { input: newPatient({ firstName: `${marker}1`, city: `<${marker}>` }) });
    await admin.gql(CREATE_PATIENT, { input: newPatient({ lastName: `${marker}\u0000` }) });
    // A document not run before: once compiled (graphql-jit), the message names the variable differently.
    await admin.gql('query LogTest($f: PatientFilterInput) { listPatients(filter: $f) { nextToken } }', {
      f: { search: 42 },
    });
    await t.app.inject({ method: 'POST', url: '/graphql', headers: { 'content-type': 'text/plain' }, payload: marker });
    const refusals = logLines.filter((line) => line['msg'] === 'request refused');
    expect(refusals.map((line) => [line['level'], line['refused']])).toEqual([
      [30, { code: ERROR_CODES.badUserInput, messageId: 'messages.validationFailed', fields: ['firstName', 'city'] }],
      [30, { code: ERROR_CODES.badUserInput, messageId: 'messages.validationFailed', fields: ['input.lastName'] }],
      [30, { code: ERROR_CODES.graphqlValidationFailed, variable: 'f' }],
      [30, { code: ERROR_CODES.unsupportedMediaType, messageId: 'requestMessages.unsupportedMediaType' }],
    ]);
    expect(JSON.stringify(logLines)).not.toContain(marker);
  });
});
