import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  ERROR_CODES,
  MESSAGE_ATTACHMENT_NAME_HEADER,
  MESSAGE_ATTACHMENTS_PATH,
} from '@telehealth/shared';
import { accessRequests } from '../src/access-requests/access-requests.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { messageAttachments } from '../src/messages/messages.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { createTestApp, TestClient, type TestApp, submitPatientAccessRequest } from './helpers.ts';

/** Log lines of the app, as parsed JSON. */
const logLines: Record<string, unknown>[] = [];
const logStream = { write: (line: string) => void logLines.push(JSON.parse(line) as Record<string, unknown>) };

let t: TestApp;
let admin: TestClient;
let provider: TestClient;
/** A web build of one page and one asset, so the static file handler is there to be attacked. */
const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'hostile-web-'));
fs.mkdirSync(path.join(webDist, 'assets'));
fs.writeFileSync(path.join(webDist, 'index.html'), '<html><head><title>x</title></head><body></body></html>');
fs.writeFileSync(path.join(webDist, 'assets/app.js'), 'export {};');
afterAll(() => fs.rmSync(webDist, { recursive: true, force: true }));

beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info', WEB_DIST_DIR: webDist }, { logStream });
  admin = new TestClient(t.app);
  await admin.signIn('admin@demo.test', DEMO_PASSWORD);
  provider = new TestClient(t.app);
  await provider.signIn('provider@demo.test', DEMO_PASSWORD);
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

describe('file names (issue 24)', () => {
  const PDF = Buffer.from('%PDF-1.4\n%fake but starts right\n');
  const upload = (client: TestClient, nameHeader: string) =>
    t.app.inject({
      method: 'POST',
      url: MESSAGE_ATTACHMENTS_PATH,
      headers: {
        cookie: client.cookie ?? '',
        'content-type': 'application/octet-stream',
        [MESSAGE_ATTACHMENT_NAME_HEADER]: nameHeader,
      },
      payload: PDF,
    });
  const attachmentCount = () => t.runtime.database.db.$count(messageAttachments);

  it('are refused with the field’s message when they hold NUL, a line break, markup or a right-to-left override', async () => {
    const before = await attachmentCount();
    for (const [name, message] of [
      ['scan\u0000.pdf', 'File name contains invalid characters'],
      ['scan\r\nX-Injected: 1.pdf', 'File name contains invalid characters'],
      ['invoice\u202efdp.exe', 'File name contains invalid characters'],
      ['<img src=x onerror=alert(1)>.pdf', 'File name cannot contain < or >'],
      ['javascript:alert(1).pdf', 'File name cannot start with a link such as javascript:'],
    ] as const) {
      const response = await upload(provider, encodeURIComponent(name));
      expect(response.statusCode, JSON.stringify(name)).toBe(400);
      expectRefused(response.json<Refused>(), 'fileName', message);
    }
    expect(await attachmentCount()).toBe(before);
  });

  it('are kept as typed otherwise, colons, right-to-left letters and all', async () => {
    for (const [name, stored] of [
      ['Note: scan 10:30.pdf', 'Note: scan 10:30.pdf'],
      ['تقرير.pdf', 'تقرير.pdf'],
    ] as const) {
      const response = await upload(provider, encodeURIComponent(name));
      expect(response.statusCode, name).toBe(201);
      expect(response.json<{ fileName: string }>().fileName).toBe(stored);
    }
  });
});

describe('display names in a video visit (issue 24)', () => {
  const someAppointment = '00000000-0000-4000-8000-000000000001';

  it('refuse line breaks, markup and overrides in a guest’s name before anything is looked up or mailed', async () => {
    for (const [name, message] of [
      ['Ann\nBcc: someone@evil.example', 'Name contains invalid characters'],
      ['<b>Dr. Who</b>', 'Name cannot contain < or >'],
      ['Ann \u202eeeG', 'Name contains invalid characters'],
      ['javascript:alert(1)', 'Name cannot start with a link such as javascript:'],
    ] as const) {
      const response = await provider.gql(
        'mutation I($input: InviteVideoGuestInput!) { inviteVideoGuest(input: $input) { id } }',
        { input: { appointmentId: someAppointment, name, email: 'guest@example.com' } },
      );
      expectRefused(response, 'name', message);
    }
  });

  it('refuse them in the identity a caller asks a token for', async () => {
    const response = await provider.gql(
      'mutation T($input: VideoTokenInput!) { requestVideoToken(input: $input) { token } }',
      { input: { identity: 'Maya\r\nOkafor', room: `room-${someAppointment}` } },
    );
    expectRefused(response, 'identity', 'Name contains invalid characters');
  });

  it('refuse them in the identity and room a recording is started with, which are answered back', async () => {
    for (const [input, field, message] of [
      [{ identity: 'Dr\n<b>Okafor</b>', roomSid: 'room-1' }, 'identity', 'Name contains invalid characters'],
      [{ identity: 'Dr Okafor', roomSid: 'room<script>' }, 'roomSid', 'Room cannot contain < or >'],
    ] as const) {
      const response = await provider.gql(
        'mutation R($input: RecordingStartInput!) { startRecording(input: $input) { recordingSid roomSid } }',
        { input: { ...input, appointmentId: someAppointment } },
      );
      expectRefused(response, field, message);
    }
  });
});

describe('links in short fields (issue 24)', () => {
  it('are refused where they start a value, whatever their case and spacing', async () => {
    for (const [field, value, message] of [
      [
        'emergencyContactName',
        'javascript:alert(1)',
        'Emergency contact name cannot start with a link such as javascript:',
      ],
      ['city', ' JavaScript :alert(1)', 'City cannot start with a link such as javascript:'],
      ['insuranceProvider', 'vbscript:msgbox(1)', 'Insurance provider cannot start with a link such as javascript:'],
      ['street', 'data:text/html;base64,PHNjcmlwdD4=', 'Street address cannot start with a link such as javascript:'],
    ] as const) {
      expectRefused(await admin.gql(CREATE_PATIENT, { input: newPatient({ [field]: value }) }), field, message);
    }
    const request = await submitPatientAccessRequest(t.app, { currentProvider: 'javascript:alert(1)' });
    expectRefused(request, 'currentProvider', 'Current provider cannot start with a link such as javascript:');
  });

  it('are not ordinary text with a colon, nor a link inside free text', async () => {
    const response = await admin.gql<{ createPatient: { street: string; allergies: string } }>(CREATE_PATIENT, {
      input: newPatient({ street: 'Note: back door, 10:30', allergies: 'javascript:alert(1)' }),
    });
    expect(response.errors).toBeUndefined();
    expect(response.data?.createPatient).toMatchObject({
      street: 'Note: back door, 10:30',
      allergies: 'javascript:alert(1)',
    });
  });
});

describe('request shapes that answered 500 (issue 24)', () => {
  it('a query that is JSON rather than GraphQL text is a 400, null included', async () => {
    for (const query of ['null', '42', 'true', '"text"', '[]', '{}', '{"kind":"Document","definitions":[]}']) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/graphql',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ query }),
      });
      expect(response.statusCode, query).toBe(400);
      expect(response.json<Refused>().errors?.[0]?.extensions?.code, query).toBe(ERROR_CODES.badRequest);
    }
  });

  it('a path that leaves the web folder or holds a NUL is a 404 with a code, on every route', async () => {
    for (const url of [
      '/..%2f..%2fpackage.json',
      '/%2e%2e%2fpackage.json',
      '/..%5c..%5cpackage.json',
      '/assets/..%2f..%2fpackage.json',
      '/api/..%2f..%2fpackage.json',
      '/graphql/..%2f',
      '/%00',
      '/assets/app.js%00',
    ]) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(404);
      expect(response.json<Refused>().errors?.[0]?.extensions?.code, url).toBe(ERROR_CODES.notFound);
    }
  });

  it('a path that is not percent-encoded UTF-8 is a 400 with a code that does not repeat it', async () => {
    for (const url of ['/%zz', '/%c0%ae%c0%ae/package.json', '/assets/%ff.js']) {
      const response = await t.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json<Refused>().errors?.[0]?.extensions?.code, url).toBe(ERROR_CODES.badRequest);
      expect(response.body, url).not.toContain(url);
    }
  });
});

describe('a browser audit batch (issue 24)', () => {
  const post = (client: TestClient, body: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/audit/logs',
      headers: { cookie: client.cookie ?? '', 'content-type': 'application/json', 'x-audit-batch': 'b1' },
      payload: JSON.stringify(body),
    });
  const batch = (entry: Record<string, unknown>, batchId = 'b1') => ({
    logs: [{ event: 'PAGE_VIEW', sessionId: 's1', url: '/dashboard', ...entry }],
    batchId,
    timestamp: new Date().toISOString(),
  });
  const clientEntries = () => t.runtime.database.db.$count(auditEntries, sql`${auditEntries.source} = 'client'`);

  it('goes through the text rule: addresses, session and batch ids, and every text in its details', async () => {
    const before = await clientEntries();
    for (const [body, problem] of [
      [batch({ url: '/dashboard\u0000' }), 'url contains invalid characters'],
      [batch({ url: '/a\r\nSet-Cookie: x=1' }), 'url contains invalid characters'],
      [batch({ referrer: '/patients/\u202egpj.exe' }), 'referrer contains invalid characters'],
      [batch({ url: '/<script>alert(1)</script>' }), 'url cannot contain < or >'],
      [batch({ sessionId: 's\u0007' }), 'sessionId contains invalid characters'],
      [batch({ details: { note: { deep: ['ok', 'bad\u0000'] } } }), 'details contains invalid characters'],
      [batch({ details: { ['k\u0001']: 1 } }), 'details contains invalid characters'],
      [batch({}, 'b\n1'), 'batchId contains invalid characters'],
    ] as const) {
      const response = await post(provider, body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.body, JSON.stringify(body)).toContain(problem);
    }
    expect(await clientEntries()).toBe(before);
  });

  it('is kept when its text passes, markup in its details included', async () => {
    const before = await clientEntries();
    const response = await post(provider, batch({ details: { label: 'Show <all>', lines: 'one\ntwo' } }));
    expect(response.statusCode).toBe(202);
    expect(await clientEntries()).toBe(before + 1);
  });
});
