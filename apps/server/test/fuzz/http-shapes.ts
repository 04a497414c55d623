import fc from 'fast-check';
import { BREAKING_STRINGS, MARKUP_STRINGS, OTHER_HOSTILE_STRINGS } from './schema-operations.ts';

/**
 * Request shapes below the schema (decision 022, issue 24): GraphQL bodies whose fields have the wrong kind of
 * value, encoded paths that try to leave the web folder, and the headers of the plain HTTP routes. Each is an
 * arbitrary; fuzz.test.ts sends them and asserts that none is answered with a 5xx.
 */

/** Names a person (or a program pretending to be a browser) could give a file: every hostile text, and worse. */
const FILE_NAME_STRINGS: readonly string[] = [
  'invoice\u202efdp.exe',
  'scan\r\nX-Injected: 1.pdf',
  'scan\u0000.pdf',
  '../../etc/passwd',
  '..\\..\\boot.ini',
  'javascript:alert(1).pdf',
  ' JavaScript :alert(1)',
  'data:text/html;base64,PHNjcmlwdD4=',
  'CON.pdf',
  '.pdf',
  '.',
  'a'.repeat(300),
  'Note: scan 10:30.pdf',
  'تقرير.pdf',
];

/** A hostile text of any kind, as the schema fuzzer uses them. */
export const hostileText = fc.oneof(
  fc.constantFrom(...BREAKING_STRINGS, ...MARKUP_STRINGS, ...OTHER_HOSTILE_STRINGS, ...FILE_NAME_STRINGS),
  fc.string({ unit: 'binary', maxLength: 40 }),
);

/**
 * An X-File-Name header: usually URI-encoded as the browser sends it, sometimes raw (only what HTTP lets a
 * header hold: visible Latin-1 and spaces), sometimes a broken encoding.
 */
export const fileNameHeader: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: hostileText.map((text) => encodeURIComponent(text.isWellFormed() ? text : 'x')) },
  {
    weight: 1,
    arbitrary: fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((c) => String.fromCharCode(c)) }),
  },
  { weight: 1, arbitrary: fc.constantFrom('%', '%zz', '%E0%A4%A', '%C0%AE', '%00', '%0d%0a', '%ED%A0%80') },
);

/** The first bytes of an upload: a real PDF, PNG or JPEG start, or anything. */
export const uploadBody: fc.Arbitrary<Buffer> = fc.oneof(
  fc.constantFrom(
    Buffer.from('%PDF-1.4\n%fuzz\n'),
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]),
    Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0x10]),
  ),
  fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes)),
);

export const uploadContentType = fc.constantFrom(
  'application/octet-stream',
  'application/pdf',
  'image/png',
  'text/plain',
  'application/json',
  'multipart/form-data; boundary=x',
  '',
  '\u00ff/\u00ff',
);

const anyJson = fc.jsonValue({ maxDepth: 2 });

/**
 * A GraphQL request body whose query is no GraphQL text (`"null"`, a number, an array, JSON that looks like a
 * syntax tree) or whose variables, operation name or extensions are of the wrong kind; now and then a body that
 * is not an object at all.
 */
export const graphqlBody: fc.Arbitrary<unknown> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record(
      {
        query: fc.oneof(
          fc.constantFrom('null', '42', 'true', '"x"', '[]', '{}', '[1]', '{"kind":"Document","definitions":[]}'),
          anyJson.map((value) => JSON.stringify(value)),
          anyJson,
          fc.constantFrom('{ __typename }', 'query A { __typename } query B { __typename }', 'subscription { x }', '#'),
          hostileText,
        ),
        variables: anyJson,
        operationName: fc.oneof(anyJson, hostileText, fc.constantFrom('A', 'B', 'Missing')),
        extensions: fc.oneof(anyJson, fc.constant({ persistedQuery: { version: 1, sha256Hash: 'x' } })),
      },
      { requiredKeys: ['query'] },
    ),
  },
  { weight: 1, arbitrary: anyJson },
);

/** Pieces of a path that try to climb out of a folder, or hold what no file name may. */
const PATH_PIECES: readonly string[] = [
  '..',
  '%2e%2e',
  '%2E%2E',
  '.%2e',
  '..%2f',
  '..%2F',
  '%2e%2e%2f',
  '..%5c',
  '%2e%2e%5c',
  '%252e%252e%252f',
  '%c0%ae%c0%ae',
  '%00',
  'a%00b',
  '%0d%0a',
  '%ff',
  '%',
  '%zz',
  ';',
  'package.json',
  '.env',
  '.vite',
  'manifest.json',
  'index.html',
  'app.js',
  'etc',
  'passwd',
  '\u00e9',
  '%e2%80%ae',
];

/** Where a path starts: the web app's files, each family of /api routes, GraphQL. */
const PATH_PREFIXES: readonly string[] = [
  '/',
  '/assets/',
  '/api/',
  '/api/messages/attachments/',
  '/api/recordings/',
  '/api/audit/',
  '/api/reports/',
  '/api/data/',
  '/api/video/',
  '/graphql/',
  '//',
];

/** An encoded path that tries to leave the web folder, in every way we know of, and some overlong ones. */
export const hostilePath: fc.Arbitrary<string> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...PATH_PREFIXES),
        fc.array(fc.constantFrom(...PATH_PIECES), { minLength: 1, maxLength: 6 }),
        fc.constantFrom('/', '%2f', '%5c', ''),
      )
      .map(([prefix, pieces, separator]) => prefix + pieces.join(separator)),
  },
  {
    weight: 1,
    arbitrary: fc
      .tuple(fc.constantFrom(...PATH_PREFIXES), fc.integer({ min: 1_000, max: 60_000 }))
      .map(([prefix, length]) => prefix + 'a'.repeat(length)),
  },
);

export const pathMethod = fc.constantFrom<'GET' | 'HEAD' | 'POST' | 'PUT' | 'DELETE' | 'OPTIONS'>(
  'GET',
  'HEAD',
  'POST',
  'PUT',
  'DELETE',
  'OPTIONS',
);
