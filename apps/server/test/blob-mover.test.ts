/**
 * The mover (decision 071): files that rows hold as bytea (written the way of before the blob store) are readable
 * before, moved into the blob store, readable after, their bytes gone; a second run does nothing; a run stopped
 * half-way is finished by the next; a server that starts with rows left starts the mover itself. Recordings,
 * message attachments and insurance card photos.
 */
import { buffer } from 'node:stream/consumers';
import { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, INTAKE_CARD_PHOTOS_PATH, MESSAGE_ATTACHMENTS_PATH } from '@telehealth/shared';
import { sealFileBytes } from '../src/http/encrypted-files.ts';
import { scanWebm, withFixedMetadata } from '../src/video/webm-seekable.ts';
import { TEST_BUDGET_MS } from './budget.ts';
import { startConversation, uploadAttachment } from './factories/conversations.ts';
import { createPortalPatient } from './factories/patients.ts';
import { legacyRecording as legacyRecordingOf, RECORDING_WEBM as webm } from './factories/recordings.ts';
import { createTestApp, openTestRuntime, TestClient, type TestApp } from './helpers.ts';

let t: TestApp;
let provider: TestClient;
let providerId: string;
let patientRecordId: string;

beforeAll(async () => {
  t = await createTestApp();
  provider = new TestClient(t.app);
  providerId = (await provider.signIn('provider@demo.test', DEMO_PASSWORD)).user!.userId;
  const created = await provider.gql<{ createPatient: { id: string } }>(
    'mutation ($input: CreatePatientInput!) { createPatient(input: $input) { id } }',
    { input: { firstName: 'Ana', lastName: 'Mover', email: 'ana.mover@example.net', dateOfBirth: '1988-02-03' } },
  );
  patientRecordId = created.data!.createPatient.id;
});

const db = () => t.runtime.database.db;

async function count(query: ReturnType<typeof sql>): Promise<number> {
  const [row] = (await db().execute<{ n: number }>(query)).rows;
  return row!.n;
}

const legacyRecording = (kind: 'segments' | 'chunks', partBytes: number) =>
  legacyRecordingOf(t, { providerId, patientId: patientRecordId }, kind, partBytes);

async function play(recordingId: string, range?: string) {
  const response = await t.app.inject({
    method: 'GET',
    url: `/api/recordings/${recordingId}/file`,
    headers: { cookie: provider.cookie ?? '', ...(range ? { range } : {}) },
  });
  expect(response.statusCode).toBe(range ? 206 : 200);
  return response.rawPayload;
}

const bytesLeft = () =>
  count(sql`SELECT ((SELECT count(*) FROM video_recording_segments)
                  + (SELECT count(*) FROM video_recording_chunks WHERE data IS NOT NULL))::int AS n`);

describe('the mover', () => {
  it('moves recordings assembled before and parts not yet assembled: readable before and after, bytes gone, once', async () => {
    const assembled = await legacyRecording('segments', 40_000);
    const inParts = await legacyRecording('chunks', 50_000);
    expect(await play(assembled)).toEqual(webm);
    expect(await play(assembled, 'bytes=39990-80010')).toEqual(webm.subarray(39990, 80011));
    expect(await bytesLeft()).toBe(4 + 4);

    const progress: { table: string; moved: number; remaining: number }[] = [];
    const result = await t.runtime.bytesMover.moveAll({ onProgress: (p) => progress.push(p) });
    expect(result.moved).toMatchObject({ video_recording_chunks: 4, video_recording_segments: 1 });
    expect(progress).toContainEqual(expect.objectContaining({ table: 'video_recording_segments', remaining: 0 }));
    expect(await bytesLeft()).toBe(0);

    // The assembled one plays from its blob, every range.
    expect(await play(assembled)).toEqual(webm);
    expect(await play(assembled, 'bytes=39990-80010')).toEqual(webm.subarray(39990, 80011));
    const [moved] = (
      await db().execute<{ blob_key: string | null; segment_bytes: number | null }>(
        sql`SELECT blob_key, segment_bytes FROM video_recordings WHERE id = ${assembled}`,
      )
    ).rows;
    expect(moved!.segment_bytes).toBeNull();
    expect(await t.runtime.blobStore.size(moved!.blob_key!)).toBeGreaterThan(webm.length);

    // The one in parts is assembled from its moved parts, as it would have been from its bytes.
    await t.runtime.recordingFiles.finalize(inParts);
    const parts = () =>
      Readable.from(
        Array.from({ length: Math.ceil(webm.length / 50_000) }, (_, n) => webm.subarray(n * 50_000, (n + 1) * 50_000)),
      );
    const fix = await scanWebm(parts());
    expect(await play(inParts)).toEqual(await buffer(withFixedMetadata(parts(), fix)));

    // A second run finds nothing to do.
    const again = await t.runtime.bytesMover.moveAll();
    expect(Object.values(again.moved).every((n) => n === 0)).toBe(true);
    expect(await t.runtime.bytesMover.anyLeft()).toBe(false);
  });

  it('a run stopped half-way leaves every file readable, and the next run finishes', async () => {
    const ids = [await legacyRecording('chunks', 30_000), await legacyRecording('segments', 60_000)];
    let writes = 0;
    await expect(
      t.runtime.bytesMover.moveAll({
        batchSize: 1,
        afterWrite: () => (++writes === 3 ? Promise.reject(new Error('the server stopped')) : Promise.resolve()),
      }),
    ).rejects.toThrow('the server stopped');
    // Two parts moved, the rest still bytes; the blob of the row being moved was not kept.
    expect(
      await count(
        sql`SELECT count(*)::int AS n FROM video_recording_chunks WHERE blob_key IS NOT NULL AND recording_id = ${ids[0]!}`,
      ),
    ).toBe(2);
    expect(await bytesLeft()).toBe(6 - 2 + 3);
    expect(await play(ids[1]!)).toEqual(webm);

    const rest = await t.runtime.bytesMover.moveAll({ batchSize: 1 });
    expect(rest.moved).toMatchObject({ video_recording_chunks: 4, video_recording_segments: 1 });
    expect(await bytesLeft()).toBe(0);
    expect(await play(ids[1]!)).toEqual(webm);
    await t.runtime.recordingFiles.finalize(ids[0]!);
    expect((await play(ids[0]!)).length).toBeGreaterThan(webm.length - 1000);
  });

  it('a server that starts with files in the database moves them itself', async () => {
    const id = await legacyRecording('segments', 70_000);
    // A second instance on the same database and DATA_DIR (so the same blob store) starts the mover at its start.
    const other = await openTestRuntime(t.databaseUrl, { DATA_DIR: t.runtime.config.dataDir });
    // Its mover is a job on the shared queue (either runtime's worker may run it): done when the queue is empty.
    await other.jobs.drain({ timeoutMs: TEST_BUDGET_MS });
    expect(await bytesLeft()).toBe(0);
    await other.close();
    expect(await play(id)).toEqual(webm);
  });
});

describe('the mover, message attachments and card photos', () => {
  const PDF = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(70_000, 'lab results ')]);
  const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('IHDR-card')]);

  /** Makes the row's file what the release before the blob store wrote: its bytes sealed in the row, no blob. */
  async function asBefore(table: string, id: string): Promise<void> {
    const [row] = (
      await db().execute<{ blob_key: string; key_id: string; wrapped_key: Buffer; size_bytes: number }>(
        sql`SELECT blob_key, key_id, wrapped_key, size_bytes FROM ${sql.identifier(table)} WHERE id = ${id}`,
      )
    ).rows;
    const plain = await buffer(
      await t.runtime.blobs.read({
        blobKey: row!.blob_key,
        keyId: row!.key_id,
        wrappedKey: row!.wrapped_key,
        plainBytes: row!.size_bytes,
        context: { table, column: 'data', id },
      }),
    );
    const data = sealFileBytes(t.runtime.keyring, table, id, plain);
    await db().execute(
      sql`UPDATE ${sql.identifier(table)} SET data = ${data}, blob_key = NULL, key_id = NULL, wrapped_key = NULL
          WHERE id = ${id}`,
    );
    await t.runtime.blobStore.delete(row!.blob_key);
  }

  async function download(client: TestClient, url: string): Promise<Buffer> {
    const response = await t.app.inject({ method: 'GET', url, headers: { cookie: client.cookie ?? '' } });
    expect(response.statusCode).toBe(200);
    return response.rawPayload;
  }

  it('are readable before, moved, readable after, their bytes gone', async () => {
    const patient = await createPortalPatient(t, provider, {
      record: { firstName: 'Ines', lastName: 'Mover', email: 'ines.mover@example.net', dateOfBirth: '1991-06-07' },
    });
    const uploaded = await uploadAttachment(t.app, patient.client, PDF, {
      fileName: 'labs.pdf',
      contentType: 'application/pdf',
    });
    expect(uploaded.statusCode).toBe(201);
    const attachmentId = uploaded.json<{ id: string }>().id;
    await startConversation(patient.client, patient.patientId, { attachmentIds: [attachmentId] });
    const photo = await t.app.inject({
      method: 'POST',
      url: `${INTAKE_CARD_PHOTOS_PATH}/front`,
      headers: { cookie: patient.client.cookie ?? '', 'content-type': 'image/png' },
      payload: PNG,
    });
    expect(photo.statusCode).toBe(201);
    const photoId = photo.json<{ id: string }>().id;
    await asBefore('message_attachments', attachmentId);
    await asBefore('intake_card_photos', photoId);
    const attachmentUrl = `${MESSAGE_ATTACHMENTS_PATH}/${attachmentId}`;
    const photoUrl = `${INTAKE_CARD_PHOTOS_PATH}/${photoId}`;
    expect(await download(provider, attachmentUrl)).toEqual(PDF);
    expect(await download(provider, photoUrl)).toEqual(PNG);

    const result = await t.runtime.bytesMover.moveAll();
    expect(result.moved).toMatchObject({ message_attachments: 1, intake_card_photos: 1 });
    for (const [table, id] of [
      ['message_attachments', attachmentId],
      ['intake_card_photos', photoId],
    ] as const) {
      const [row] = (
        await db().execute<{ data: Buffer | null; blob_key: string | null }>(
          sql`SELECT data, blob_key FROM ${sql.identifier(table)} WHERE id = ${id}`,
        )
      ).rows;
      expect(row!.data).toBeNull();
      expect(await t.runtime.blobStore.size(row!.blob_key!)).toBeGreaterThan(0);
    }
    expect(await download(provider, attachmentUrl)).toEqual(PDF);
    expect(await download(provider, photoUrl)).toEqual(PNG);
    expect(await t.runtime.bytesMover.anyLeft()).toBe(false);
  });
});
