/**
 * State-changing requests from a browser come from the product's own origin (decision 018, issue 24): `Origin`, or
 * `Sec-Fetch-Site` without it; requests with neither header (not a browser) and with an API token are served.
 * Uploads take only the types they store.
 */
import { randomUUID } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  AUDIT_BATCH_HEADER,
  AUDIT_CRITICAL_HEADER,
  AUDIT_CRITICAL_PATH,
  AUDIT_LOGS_PATH,
  DEMO_PASSWORD,
  INTAKE_CARD_PHOTOS_PATH,
  MESSAGE_ATTACHMENT_NAME_HEADER,
  MESSAGE_ATTACHMENTS_PATH,
  recordingChunkPath,
  REQUEST_MESSAGES,
} from '@telehealth/shared';
import { intakeCardPhotos } from '../src/intake/intake.table.ts';
import { messageAttachments } from '../src/messages/messages.table.ts';
import { createTestApp, TestClient, type TestApp } from './helpers.ts';

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-test')]);
const EVIL = 'http://evil.example';

let t: TestApp;
let patient: TestClient;
let patientId: string;
let own: string;

beforeAll(async () => {
  t = await createTestApp();
  own = new URL(t.runtime.config.publicUrl).origin;
  patient = new TestClient(t.app);
  patientId = (await patient.signIn('patient@demo.test', DEMO_PASSWORD)).user!.userId;
});

/** Every route that changes state, with a body it would accept from our own pages. */
const STATE_CHANGING = () => [
  {
    method: 'POST' as const,
    url: '/graphql',
    headers: { 'content-type': 'application/json' },
    payload: JSON.stringify({ query: '{ me { userId } }' }),
  },
  {
    method: 'POST' as const,
    url: MESSAGE_ATTACHMENTS_PATH,
    headers: { 'content-type': 'application/octet-stream', [MESSAGE_ATTACHMENT_NAME_HEADER]: 'scan.png' },
    payload: PNG,
  },
  {
    method: 'POST' as const,
    url: `${INTAKE_CARD_PHOTOS_PATH}/front`,
    headers: { 'content-type': 'application/octet-stream' },
    payload: PNG,
  },
  {
    method: 'PUT' as const,
    url: recordingChunkPath(randomUUID(), 0),
    headers: { 'content-type': 'application/octet-stream' },
    payload: Buffer.from('webm'),
  },
  {
    method: 'POST' as const,
    url: AUDIT_LOGS_PATH,
    headers: { 'content-type': 'application/json', [AUDIT_BATCH_HEADER]: '1' },
    payload: JSON.stringify({ logs: [], batchId: randomUUID(), timestamp: new Date().toISOString() }),
  },
  {
    method: 'POST' as const,
    url: AUDIT_CRITICAL_PATH,
    headers: { 'content-type': 'application/json', [AUDIT_CRITICAL_HEADER]: '1' },
    payload: JSON.stringify({}),
  },
];

/** The files the patient has uploaded: message attachments and insurance card photos. */
async function attachmentsOfPatient(): Promise<number> {
  const [attachments] = await t.runtime.database.db
    .select({ n: count() })
    .from(messageAttachments)
    .where(eq(messageAttachments.uploadedBy, patientId));
  const [cardPhotos] = await t.runtime.database.db
    .select({ n: count() })
    .from(intakeCardPhotos)
    .where(eq(intakeCardPhotos.uploadedBy, patientId));
  return attachments!.n + cardPhotos!.n;
}

describe('state-changing requests from another origin', () => {
  it('covers every route that is not GET, HEAD or OPTIONS', () => {
    // Fastify's route tree, one line per path with its methods: the list above must name every unsafe one.
    const tree = t.app.printRoutes({ commonPrefix: false, includeMeta: false });
    const unsafe = [...tree.matchAll(/(\S+) \(([^)]*)\)/g)]
      .filter(([, , methods]) => methods!.split(', ').some((m) => !['GET', 'HEAD', 'OPTIONS'].includes(m)))
      .map(([, path]) => path!.replace(/^[└├│─\s/]+/, ''));
    expect(unsafe.length).toBeGreaterThanOrEqual(STATE_CHANGING().length);
    // Fastify prints a path whose segment has a parameter of another name for another method (the card photos'
    // POST /:side and GET /:id) as `:side|:id`.
    const covered = STATE_CHANGING().map((r) =>
      r.url
        .replace(/^\//, '')
        .replace(/[0-9a-f-]{36}\/chunks\/0$/, ':id/chunks/:seq')
        .replace(/card-photos\/front$/, 'card-photos/:side|:id'),
    );
    for (const path of unsafe) expect(covered, `${path} is not in STATE_CHANGING`).toContain(path);
  });

  it('are refused with 403 CROSS_ORIGIN_REQUEST on every route, before anything is done', async () => {
    const before = await attachmentsOfPatient();
    for (const request of STATE_CHANGING()) {
      for (const headers of [
        { origin: EVIL },
        { origin: 'null' },
        // A sibling subdomain: the attack of the finding.
        { origin: own.replace('://', '://files.') },
        { 'sec-fetch-site': 'cross-site' },
        { 'sec-fetch-site': 'same-site' },
        { 'sec-fetch-site': 'none' },
      ]) {
        const response = await t.app.inject({
          ...request,
          headers: { ...request.headers, ...headers, cookie: patient.cookie ?? '' },
        });
        expect(response.statusCode, `${request.url} ${JSON.stringify(headers)}`).toBe(403);
        expect(response.json()).toEqual({
          errors: [
            {
              message: REQUEST_MESSAGES.crossOrigin,
              extensions: { code: 'CROSS_ORIGIN_REQUEST', messageId: 'requestMessages.crossOrigin', params: {} },
            },
          ],
        });
      }
    }
    expect(await attachmentsOfPatient()).toBe(before);
  });

  it('stops the finding: a foreign page posting text/plain creates no attachment', async () => {
    const before = await attachmentsOfPatient();
    const response = await t.app.inject({
      method: 'POST',
      url: MESSAGE_ATTACHMENTS_PATH,
      headers: { origin: EVIL, 'content-type': 'text/plain', cookie: patient.cookie ?? '' },
      payload: PNG,
    });
    expect(response.statusCode).toBe(403);
    expect(await attachmentsOfPatient()).toBe(before);
  });

  it('serves our own origin, same-origin fetches, requests with no browser header, and API tokens', async () => {
    for (const headers of [{ origin: own }, { 'sec-fetch-site': 'same-origin' }, {}]) {
      const response = await t.app.inject({
        method: 'POST',
        url: MESSAGE_ATTACHMENTS_PATH,
        headers: {
          ...headers,
          'content-type': 'application/octet-stream',
          [MESSAGE_ATTACHMENT_NAME_HEADER]: 'scan.png',
          cookie: patient.cookie ?? '',
        },
        payload: PNG,
      });
      expect(response.statusCode, JSON.stringify(headers)).toBe(201);
    }
    // A log collector's token is no cookie riding along: its answer is the token's, not the origin's.
    const withToken = await t.app.inject({
      method: 'POST',
      url: '/graphql',
      headers: { origin: EVIL, authorization: 'Bearer not-a-real-token', 'content-type': 'application/json' },
      payload: JSON.stringify({ query: '{ me { userId } }' }),
    });
    expect(withToken.statusCode).toBe(200);
    // Reading is not checked: links and bookmarks from anywhere open our pages.
    const health = await t.app.inject({ method: 'GET', url: '/api/health', headers: { origin: EVIL } });
    expect(health.statusCode).toBe(200);
  });
});

describe('uploads take only the types they store', () => {
  it('refuses any other Content-Type with 415 UNSUPPORTED_MEDIA_TYPE, before the body is read', async () => {
    const before = await attachmentsOfPatient();
    for (const [url, method, types] of [
      [MESSAGE_ATTACHMENTS_PATH, 'POST', 'application/octet-stream, application/pdf, image/png, image/jpeg'],
      [recordingChunkPath(randomUUID(), 0), 'PUT', 'application/octet-stream, video/webm'],
    ] as const) {
      for (const type of ['text/plain', 'multipart/form-data; boundary=x', 'application/x-www-form-urlencoded', '']) {
        const response = await t.app.inject({
          method,
          url,
          headers: {
            origin: own,
            ...(type ? { 'content-type': type } : {}),
            [MESSAGE_ATTACHMENT_NAME_HEADER]: 'scan.png',
            cookie: patient.cookie ?? '',
          },
          payload: PNG,
        });
        expect(response.statusCode, `${url} ${type}`).toBe(415);
        expect(response.json()).toEqual({
          errors: [
            {
              message: REQUEST_MESSAGES.uploadType.replace('{{types}}', types),
              extensions: {
                code: 'UNSUPPORTED_MEDIA_TYPE',
                messageId: 'requestMessages.uploadType',
                params: { types },
              },
            },
          ],
        });
      }
    }
    expect(await attachmentsOfPatient()).toBe(before);
    // A type it stores, as claimed: accepted (the content still decides).
    const png = await t.app.inject({
      method: 'POST',
      url: MESSAGE_ATTACHMENTS_PATH,
      headers: {
        origin: own,
        'content-type': 'image/png',
        [MESSAGE_ATTACHMENT_NAME_HEADER]: 'scan.png',
        cookie: patient.cookie ?? '',
      },
      payload: PNG,
    });
    expect(png.statusCode).toBe(201);
  });
});
