import fc from 'fast-check';
import { parse, specifiedRules, validate } from 'graphql';
import type { InjectOptions } from 'fastify';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DEMO_PASSWORD,
  ERROR_CODES,
  formatMessage,
  messageText,
  REQUEST_MESSAGES,
  type MessageParams,
} from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { GRAPHQL_LIMITS, GRAPHQL_PARSE_OPTIONS, graphqlValidationRules } from '../src/graphql/limits.ts';
import { schema } from '../src/graphql/schema.ts';
import { createTestApp, TestClient, type TestApp } from './helpers.ts';
import { webOperations } from './web-operations.ts';

const JSON_TYPE = { 'content-type': 'application/json' };
const ME = '{ me { userId } }';

let t: TestApp;
let admin: TestClient;

beforeAll(async () => {
  t = await createTestApp();
  admin = new TestClient(t.app);
  await admin.signIn('admin@demo.test', DEMO_PASSWORD);
});

interface ErrorBody {
  data?: unknown;
  errors: { message: string; extensions: { code: string; messageId?: string; params?: MessageParams } }[];
}

async function send(options: InjectOptions) {
  const response = await t.app.inject({ method: 'POST', url: '/graphql', ...options });
  return { status: response.statusCode, body: response.json<ErrorBody>(), headers: response.headers };
}

const auditCount = () => t.runtime.database.db.$count(auditEntries);

type Refusal = [
  name: string,
  request: InjectOptions,
  status: number,
  code: string,
  message: keyof typeof REQUEST_MESSAGES,
  params?: MessageParams,
];

const json = (payload: string | Buffer): InjectOptions => ({ headers: JSON_TYPE, payload });
const body = (value: unknown): InjectOptions => json(JSON.stringify(value));
const deepList = `${'['.repeat(5000)}"x"${']'.repeat(5000)}`;

const REFUSALS: Refusal[] = [
  // Not JSON, or nothing at all
  ['a batch of operations', body([{ query: ME }, { query: ME }]), 400, ERROR_CODES.badRequest, 'batchNotSupported'],
  ['an empty batch', body([]), 400, ERROR_CODES.badRequest, 'batchNotSupported'],
  ['a bare number', json('42'), 400, ERROR_CODES.badRequest, 'notAnObject'],
  ['a bare string', json('"{ me { userId } }"'), 400, ERROR_CODES.badRequest, 'notAnObject'],
  ['null', json('null'), 400, ERROR_CODES.badRequest, 'notAnObject'],
  ['truncated JSON', json('{"query":"{ me'), 400, ERROR_CODES.badRequest, 'notJson'],
  ['single quotes', json("{'query':'{ me { userId } }'}"), 400, ERROR_CODES.badRequest, 'notJson'],
  ['trailing junk', json(`${JSON.stringify({ query: ME })} x`), 400, ERROR_CODES.badRequest, 'notJson'],
  ['a comment', json(`{"query": "${ME}" /* hi */}`), 400, ERROR_CODES.badRequest, 'notJson'],
  ['NaN in variables', json(`{"query":"${ME}","variables":{"a":NaN}}`), 400, ERROR_CODES.badRequest, 'notJson'],
  ['Infinity', json(`{"query":"${ME}","variables":{"a":Infinity}}`), 400, ERROR_CODES.badRequest, 'notJson'],
  ['a raw NUL byte', json(`{"query":"${ME}\u0000"}`), 400, ERROR_CODES.badRequest, 'notJson'],
  [
    'UTF-16',
    json(Buffer.from(`\ufeff${JSON.stringify({ query: ME })}`, 'utf16le')),
    400,
    ERROR_CODES.badRequest,
    'notJson',
  ],
  ['an empty body', json(''), 400, ERROR_CODES.badRequest, 'emptyBody'],
  ['only whitespace', json('  \n '), 400, ERROR_CODES.badRequest, 'emptyBody'],
  [
    'a __proto__ key',
    json(`{"query":"${ME}","variables":{"__proto__":{"isAdmin":true}}}`),
    400,
    ERROR_CODES.badRequest,
    'forbiddenKey',
  ],
  [
    'a constructor key',
    body({ query: ME, variables: { input: { constructor: { prototype: { x: 1 } } } } }),
    400,
    ERROR_CODES.badRequest,
    'forbiddenKey',
  ],
  [
    'a body over the limit',
    body({ query: ME, variables: { padding: 'x'.repeat(2 * 1024 * 1024) } }),
    413,
    ERROR_CODES.payloadTooLarge,
    'bodyTooLarge',
    { limitKilobytes: 1024 },
  ],
  // Not POST with application/json
  [
    'GET',
    { method: 'GET', url: `/graphql?query=${encodeURIComponent(ME)}` },
    405,
    'METHOD_NOT_ALLOWED',
    'methodNotAllowed',
  ],
  ['PUT', { method: 'PUT', ...body({ query: ME }) }, 405, ERROR_CODES.methodNotAllowed, 'methodNotAllowed'],
  ...[
    'application/json-patch+json',
    'application/json, text/plain',
    'application/jsonx',
    'text/plain',
    'application/graphql',
    'application/x-www-form-urlencoded',
    'application/json; charset=utf-16',
  ].map((type): Refusal => [
    `Content-Type ${type}`,
    { headers: { 'content-type': type }, payload: JSON.stringify({ query: ME }) },
    415,
    ERROR_CODES.unsupportedMediaType,
    'unsupportedMediaType',
  ]),
  [
    'no Content-Type',
    { payload: JSON.stringify({ query: ME }) },
    415,
    ERROR_CODES.unsupportedMediaType,
    'unsupportedMediaType',
  ],
  // Not one GraphQL request
  ['no query', body({ variables: {} }), 400, ERROR_CODES.badRequest, 'queryMissing'],
  ['an empty query', body({ query: '' }), 400, ERROR_CODES.badRequest, 'queryMissing'],
  ['a null query', body({ query: null }), 400, ERROR_CODES.badRequest, 'queryMissing'],
  [
    'a persisted-query hash only',
    body({ extensions: { persistedQuery: { version: 1, sha256Hash: 'ab' } } }),
    400,
    ERROR_CODES.badRequest,
    'queryMissing',
  ],
  ['a number as query', body({ query: 1 }), 400, ERROR_CODES.badRequest, 'queryNotText'],
  [
    'an object as query',
    body({ query: { kind: 'Document', definitions: [] } }),
    400,
    ERROR_CODES.badRequest,
    'queryNotText',
  ],
  ['a list as query', body({ query: [ME] }), 400, ERROR_CODES.badRequest, 'queryNotText'],
  [
    'a JSON syntax tree as query text',
    body({ query: JSON.stringify({ kind: 'Document', definitions: [{ kind: 'OperationDefinition' }] }) }),
    400,
    ERROR_CODES.badRequest,
    'queryNotText',
  ],
  ['variables as text', body({ query: ME, variables: '{}' }), 400, ERROR_CODES.badRequest, 'variablesNotObject'],
  ['variables as a list', body({ query: ME, variables: [1] }), 400, ERROR_CODES.badRequest, 'variablesNotObject'],
  ['variables as a number', body({ query: ME, variables: 3 }), 400, ERROR_CODES.badRequest, 'variablesNotObject'],
  ['extensions as text', body({ query: ME, extensions: 'x' }), 400, ERROR_CODES.badRequest, 'extensionsNotObject'],
  ['extensions null', body({ query: ME, extensions: null }), 400, ERROR_CODES.badRequest, 'extensionsNotObject'],
  [
    'operationName as a number',
    body({ query: ME, operationName: 1 }),
    400,
    ERROR_CODES.badRequest,
    'operationNameNotText',
  ],
  [
    'operationName as an object',
    body({ query: ME, operationName: {} }),
    400,
    ERROR_CODES.badRequest,
    'operationNameNotText',
  ],
  // GraphQL documents over a limit
  [
    'a query over the depth limit',
    body({
      query: `{ me { ${'... on CurrentUser { '.repeat(GRAPHQL_LIMITS.depth)} userId ${'} '.repeat(GRAPHQL_LIMITS.depth)} } }`,
    }),
    400,
    ERROR_CODES.graphqlValidationFailed,
    'tooDeep',
    { limit: GRAPHQL_LIMITS.depth },
  ],
  [
    'a field repeated until it is too costly',
    body({ query: `{ me { ${'userId '.repeat(700)} } }` }),
    400,
    ERROR_CODES.graphqlValidationFailed,
    'tooCostly',
    { limit: GRAPHQL_LIMITS.cost },
  ],
  [
    'too many directives',
    body({ query: `{ me { ${'userId @include(if: true) '.repeat(GRAPHQL_LIMITS.directives + 1)} } }` }),
    400,
    ERROR_CODES.graphqlValidationFailed,
    'tooManyDirectives',
    { limit: GRAPHQL_LIMITS.directives },
  ],
  [
    'too many aliases',
    body({
      query: `{ ${Array.from({ length: GRAPHQL_LIMITS.aliases + 1 }, (_, i) => `a${i}: me { userId }`).join(' ')} }`,
    }),
    400,
    ERROR_CODES.graphqlValidationFailed,
    'tooManyAliases',
    { limit: GRAPHQL_LIMITS.aliases },
  ],
];

describe('a request that is not a GraphQL request', () => {
  it.each(REFUSALS)('%s', async (_name, request, status, code, message, params = {}) => {
    const response = await send(request);
    expect(response.status).toBe(status);
    expect(response.body.errors).toEqual([
      expect.objectContaining({
        message: formatMessage(REQUEST_MESSAGES[message], params),
        extensions: { code, messageId: `requestMessages.${message}`, params },
      }),
    ]);
    if (status === 405) expect(response.headers['allow']).toBe('POST');
  });

  it('accepts application/json with a UTF-8 charset', async () => {
    for (const type of ['application/json; charset=utf-8', 'Application/JSON;charset="UTF-8"']) {
      const response = await send({ headers: { 'content-type': type }, payload: JSON.stringify({ query: ME }) });
      expect(response.status, type).toBe(200);
      expect(response.body).toEqual({ data: { me: null } });
    }
  });

  it('answers a document that does not parse, or is too long, with GraphQL errors and 400', async () => {
    for (const query of ['{ me { userId }', `{ listPatients(filter: { search: ${deepList} }) { nextToken } }`]) {
      const response = await send(body({ query }));
      expect(response.status).toBe(400);
      expect(response.body.errors[0]?.message).toMatch(/^Syntax Error/);
      expect(response.body.errors[0]?.extensions.code).toBe(ERROR_CODES.graphqlValidationFailed);
    }
  });

  it('answers an unknown operation name with 400, with or without variables, also once the query is compiled', async () => {
    const query = 'query A { me { userId } }';
    for (let i = 0; i < 3; i += 1) expect((await send(body({ query, operationName: 'A' }))).status).toBe(200);
    for (const request of [
      { query, operationName: 'B' },
      { query, operationName: 'B', variables: {} },
    ]) {
      const response = await send(body(request));
      expect(response.status).toBe(400);
      expect(response.body.errors).toEqual([
        expect.objectContaining({
          message: 'Unknown operation named "B".',
          extensions: { code: ERROR_CODES.graphqlValidationFailed },
        }),
      ]);
    }
  });

  it('never answers 5xx to any JSON body, nor to any text', async () => {
    const anyJson = fc.jsonValue({ maxDepth: 4 });
    const requestLike = fc.record(
      {
        query: fc.oneof(fc.string(), fc.constant(ME), fc.constant('query Q($a: Int) { me { userId } }'), anyJson),
        variables: fc.oneof(fc.dictionary(fc.string(), anyJson), anyJson),
        extensions: anyJson,
        operationName: fc.oneof(fc.string(), fc.constant('Q'), anyJson),
      },
      { requiredKeys: [] },
    );
    const bodies = fc.oneof(
      anyJson.map((value) => JSON.stringify(value)),
      requestLike.map((value) => JSON.stringify(value)),
      fc.string({ unit: 'binary' }),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (payload) => {
        const response = await t.app.inject({ method: 'POST', url: '/graphql', headers: JSON_TYPE, payload });
        expect(response.statusCode).toBeLessThan(500);
        expect(
          response.json<ErrorBody>().errors?.every((e) => e.extensions.code !== ERROR_CODES.internal) ?? true,
        ).toBe(true);
      }),
      { numRuns: 200 },
    );
  });
});

describe('limits on what one request may ask for', () => {
  it('refuses 200 aliased listPatients before anything runs: no audit entry is written', async () => {
    const aliases = Array.from({ length: 200 }, (_, i) => `p${i}: listPatients { items { id firstName } }`);
    const before = await auditCount();
    const response = await admin.gql(`query { ${aliases.join(' ')} }`);
    expect(response.status).toBe(400);
    expect(response.data).toBeNull();
    expect(response.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.graphqlValidationFailed);
    expect(await auditCount()).toBe(before);
  });

  it('refuses one more alias than the limit, also for signIn: no password is tried', async () => {
    const list = (field: (i: number) => string) =>
      Array.from({ length: GRAPHQL_LIMITS.aliases + 1 }, (_, i) => field(i)).join(' ');
    const before = await auditCount();
    const lists = await admin.gql(`query { ${list((i) => `p${i}: listPatients { nextToken }`)} }`);
    const anonymous = new TestClient(t.app);
    const signIns = await anonymous.gql(
      `mutation { ${list((i) => `s${i}: signIn(email: "admin@demo.test", password: "wrong-${i}") { success }`)} }`,
    );
    for (const response of [lists, signIns]) {
      expect(response.status).toBe(400);
      expect(response.errors?.[0]).toEqual(
        expect.objectContaining({
          message: formatMessage(REQUEST_MESSAGES.tooManyAliases, { limit: GRAPHQL_LIMITS.aliases }),
        }),
      );
    }
    // The sign-ins also break the rule of one credential operation per request (password-limits.test.ts).
    expect(signIns.errors).toHaveLength(2);
    expect(await auditCount()).toBe(before);
    // The account is not locked: the attempts never ran.
    expect((await anonymous.signIn('admin@demo.test', DEMO_PASSWORD)).success).toBe(true);
  });

  it('lets every operation the web app sends through', () => {
    const operations = webOperations();
    // The extraction found them all (29 when this was written); fewer means it missed some.
    expect(operations.length).toBeGreaterThanOrEqual(29);
    const rules = [...specifiedRules, ...graphqlValidationRules({ production: true })];
    for (const { document, source } of operations) {
      const errors = validate(schema, parse(document, GRAPHQL_PARSE_OPTIONS), rules);
      expect(
        errors.map((error) => error.message),
        source,
      ).toEqual([]);
    }
  });
});

describe('what anonymous callers learn about the schema', () => {
  const INTROSPECTION = ['{ __schema { queryType { name } } }', '{ __type(name: "Patient") { fields { name } } }'];

  it('refuses introspection to anonymous callers and allows it to signed-in ones outside production', async () => {
    const anonymous = new TestClient(t.app);
    for (const query of INTROSPECTION) {
      const refused = await anonymous.gql(query);
      expect(refused.data).toBeNull();
      expect(refused.errors?.[0]?.extensions?.code).toBe(ERROR_CODES.unauthenticated);
      const allowed = await admin.gql(query);
      expect(allowed.errors).toBeUndefined();
      expect(allowed.data).not.toBeNull();
    }
  });

  it('gives no "Did you mean" suggestions for fields, arguments, input fields or enum values', async () => {
    const anonymous = new TestClient(t.app);
    const responses = [
      await anonymous.gql('{ mee { userId } }'),
      await anonymous.gql('{ me { userid } }'),
      await anonymous.gql('{ listPatients(limt: 5) { nextToken } }'),
      await anonymous.gql('mutation C($input: CreatePatientInput!) { createPatient(input: $input) { id } }', {
        input: { firstNme: 'A', lastName: 'B', email: 'a@b.example', dateOfBirth: '1990-01-01', phone: '5035550101' },
      }),
    ];
    for (const response of responses) {
      expect(response.status).toBe(400);
      expect(response.errors?.length).toBeGreaterThan(0);
      for (const error of response.errors ?? []) expect(error.message).not.toMatch(/did you mean/i);
    }
  });
});

describe('in production', () => {
  it('turns introspection off for everyone, administrators included', async () => {
    const production = await createTestApp({ NODE_ENV: 'production' });
    const client = new TestClient(production.app);
    expect((await client.signIn('admin@demo.test', DEMO_PASSWORD)).success).toBe(true);
    for (const query of ['{ __schema { queryType { name } } }', '{ __type(name: "Patient") { name } }']) {
      const response = await client.gql(query);
      expect(response.status).toBe(400);
      expect(response.errors?.[0]?.message).toMatch(/introspection has been disabled/);
    }
    expect((await client.gql(ME)).data).toEqual({ me: { userId: expect.any(String) as unknown } });
  });
});

describe('errors carry a code, a message id and its parameters', () => {
  it('for a refused input, a missing session and a record not found', async () => {
    const anonymous = new TestClient(t.app);
    const refused = await anonymous.gql('{ listPatients { nextToken } }');
    expect(refused.errors?.[0]).toEqual({
      message: messageText('messages.authRequired'),
      extensions: { code: ERROR_CODES.unauthenticated, messageId: 'messages.authRequired', params: {} },
    });
    const missing = await admin.gql('query G($id: ID!) { getPatient(id: $id) { id } }', { id: crypto.randomUUID() });
    expect(missing.errors?.[0]).toMatchObject({
      message: 'Patient not found',
      extensions: { code: ERROR_CODES.notFound, messageId: 'patientMessages.notFound', params: {} },
    });
    const invalid = await admin.gql('mutation C($input: CreatePatientInput!) { createPatient(input: $input) { id } }', {
      input: { firstName: '', lastName: 'B', email: 'not-an-email', dateOfBirth: '1990-01-01', phone: '5035550101' },
    });
    const extensions = invalid.errors?.[0]?.extensions as Record<string, unknown> & { params: { problems: string } };
    expect(extensions).toMatchObject({ code: ERROR_CODES.badUserInput, messageId: 'messages.validationFailed' });
    expect(invalid.errors?.[0]?.message).toBe(messageText('messages.validationFailed', extensions.params));
    expect(Object.keys(extensions['fieldErrors'] as object)).toEqual(expect.arrayContaining(['firstName', 'email']));
    // Each field's problem by id and parameters (decision 052): the browser translates these, never the English.
    expect(extensions['fields']).toEqual([
      { field: 'firstName', messageId: 'fieldMessages.required', params: { label: 'First name' } },
      { field: 'lastName', messageId: 'fieldMessages.tooShort', params: { label: 'Last name', min: 2 } },
      { field: 'email', messageId: 'fieldMessages.emailInvalid', params: {} },
    ]);
  });

  it("for a refused sign-in, in the result's errorMessage beside the specification's error", async () => {
    const response = await new TestClient(t.app).gql<{
      signIn: { error: string; errorMessage: { id: string; params: { name: string; value: string }[] } };
    }>(
      'mutation S($e: String!, $p: String!) { signIn(email: $e, password: $p) { error errorMessage { id params { name value } } } }',
      { e: 'nobody@demo.test', p: 'Wrong-Pass-2026!' },
    );
    expect(response.data?.signIn).toEqual({
      error: messageText('messages.invalidCredentials'),
      errorMessage: { id: 'messages.invalidCredentials', params: [] },
    });
  });
});
