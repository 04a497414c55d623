/**
 * Message attachments and insurance card photos in the blob store (decision 070), through their HTTP routes:
 * uploads streamed into the store with nothing in the row, downloads whole and by byte ranges (206, 416), refused
 * uploads that leave no blob, the removal of a replaced photo's and a pruned attachment's blob, and rows from before
 * the store (their bytes sealed in the row) still read.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { INTAKE_CARD_PHOTOS_PATH, MESSAGE_ATTACHMENT_MAX_BYTES, MESSAGE_ATTACHMENTS_PATH } from '@telehealth/shared';
import { SEGMENT_BYTES } from '../src/blobs/sealed-blobs.ts';
import { sealFileBytes } from '../src/http/encrypted-files.ts';
import { intakeCardPhotos } from '../src/intake/intake.table.ts';
import { messageAttachmentsEncrypted } from '../src/keys/encrypted-columns.ts';
import { messageAttachments } from '../src/messages/messages.table.ts';
import { signedInAccount, type SignedIn } from './factories/accounts.ts';
import { uploadAttachment } from './factories/conversations.ts';
import { createPortalPatient, type PortalPatient } from './factories/patients.ts';
import { createTestApp, type TestApp, type TestClient } from './helpers.ts';

const PNG_HEAD = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/** A PNG by its first bytes, three segments and a bit long, so ranges cross segment boundaries. */
const BIG_PNG = Buffer.concat([PNG_HEAD, randomBytes(3 * SEGMENT_BYTES + 1000)]);

let t: TestApp;
let provider: SignedIn;
let patient: PortalPatient;

beforeAll(async () => {
  t = await createTestApp({}, { demo: false });
  provider = await signedInAccount(t, 'provider', { password: 'Blob-Files-Test-2026!' });
  patient = await createPortalPatient(t, provider.client, { account: { password: 'Blob-Files-Test-2026!' } });
});

function upload(client: TestClient, payload: Buffer | Readable) {
  return uploadAttachment(t.app, client, payload);
}

function get(client: TestClient, url: string, range?: string) {
  return t.app.inject({
    method: 'GET',
    url,
    headers: { cookie: client.cookie ?? '', ...(range ? { range } : {}) },
  });
}

async function blobKeys(prefix: string): Promise<string[]> {
  const keys: string[] = [];
  for await (const entry of t.runtime.blobStore.list(prefix)) keys.push(entry.key);
  return keys.sort();
}

async function attachmentRow(id: string) {
  const [row] = await t.runtime.database.db.select().from(messageAttachments).where(eq(messageAttachments.id, id));
  return row!;
}

describe('message attachments in the blob store', () => {
  let id: string;

  it('streams an upload into the store, sealed, with no bytes in the row', async () => {
    const before = await blobKeys('message_attachments/');
    const uploaded = await upload(patient.client, BIG_PNG);
    expect(uploaded.statusCode).toBe(201);
    id = uploaded.json<{ id: string; sizeBytes: number }>().id;
    expect(uploaded.json()).toMatchObject({ sizeBytes: BIG_PNG.length, mediaType: 'image/png' });
    const row = await attachmentRow(id);
    expect(row.data).toBeNull();
    expect(row.keyId).toBe('test');
    expect(await blobKeys('message_attachments/')).toEqual([...before, row.blobKey].sort());
    const stored = await buffer(await t.runtime.blobStore.get(row.blobKey!));
    expect(stored.includes(BIG_PNG.subarray(100, 132))).toBe(false);
  });

  it('serves the whole file and byte ranges: first byte, last byte, across segments, a suffix', async () => {
    const url = `${MESSAGE_ATTACHMENTS_PATH}/${id}`;
    const whole = await get(patient.client, url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(whole.headers['content-length']).toBe(String(BIG_PNG.length));
    expect(whole.rawPayload.equals(BIG_PNG)).toBe(true);

    const size = BIG_PNG.length;
    const cases: [string, number, number][] = [
      ['bytes=0-0', 0, 0],
      [`bytes=${size - 1}-${size - 1}`, size - 1, size - 1],
      [`bytes=${SEGMENT_BYTES - 5}-${2 * SEGMENT_BYTES + 5}`, SEGMENT_BYTES - 5, 2 * SEGMENT_BYTES + 5],
      ['bytes=-10', size - 10, size - 1],
      [`bytes=100-${size + 500}`, 100, size - 1],
    ];
    for (const [range, start, end] of cases) {
      const part = await get(patient.client, url, range);
      expect(part.statusCode, range).toBe(206);
      expect(part.headers['content-range'], range).toBe(`bytes ${start}-${end}/${size}`);
      expect(part.headers['content-length'], range).toBe(String(end - start + 1));
      expect(part.rawPayload.equals(BIG_PNG.subarray(start, end + 1)), range).toBe(true);
      expect(part.headers['content-disposition']).toMatch(/^attachment/);
    }
  });

  it('answers 416 for a range past the end, and the whole file for a malformed one', async () => {
    const url = `${MESSAGE_ATTACHMENTS_PATH}/${id}`;
    const past = await get(patient.client, url, `bytes=${BIG_PNG.length}-`);
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toBe(`bytes */${BIG_PNG.length}`);
    expect(past.json()).toMatchObject({ errors: [{ extensions: { code: 'RANGE_NOT_SATISFIABLE' } }] });
    const malformed = await get(patient.client, url, 'bytes=abc');
    expect(malformed.statusCode).toBe(200);
    expect(malformed.rawPayload.length).toBe(BIG_PNG.length);
    // Out of reach answers like a missing one, Range or not.
    expect((await get(provider.client, url, 'bytes=0-0')).statusCode).toBe(404);
  });

  it('leaves no blob when an upload is refused: not an accepted type, empty, over the limit while streaming', async () => {
    const before = await blobKeys('message_attachments/');
    expect((await upload(patient.client, Buffer.from('plain text, not an image'))).statusCode).toBe(400);
    expect((await upload(patient.client, Buffer.alloc(0))).statusCode).toBe(400);
    // Sent without a length (chunked), so only the stream's count can refuse it.
    let sent = 0;
    const endless = new Readable({
      read() {
        this.push(sent === 0 ? Buffer.concat([PNG_HEAD, Buffer.alloc(64 * 1024 - 8)]) : Buffer.alloc(64 * 1024));
        sent += 64 * 1024;
        if (sent > MESSAGE_ATTACHMENT_MAX_BYTES + 64 * 1024) this.push(null);
      },
    });
    const tooLarge = await upload(patient.client, endless);
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json()).toMatchObject({ errors: [{ extensions: { code: 'PAYLOAD_TOO_LARGE' } }] });
    expect(await blobKeys('message_attachments/')).toEqual(before);
  });

  it('removes the blob with the row when an unsent attachment is pruned', async () => {
    const uploaded = await upload(patient.client, BIG_PNG);
    const pendingId = uploaded.json<{ id: string }>().id;
    const { blobKey } = await attachmentRow(pendingId);
    expect(await t.runtime.blobStore.size(blobKey!)).not.toBeNull();
    await t.runtime.database.db
      .update(messageAttachments)
      .set({ createdAt: sql`now() - interval '2 days'` })
      .where(eq(messageAttachments.id, pendingId));
    expect(await t.runtime.messages.pruneUnsentAttachments()).toBeGreaterThanOrEqual(1);
    expect(
      await t.runtime.database.db.select().from(messageAttachments).where(eq(messageAttachments.id, pendingId)),
    ).toEqual([]);
    expect(await t.runtime.blobStore.size(blobKey!)).toBeNull();
  });

  it('still reads a file from before the store, sealed in its row, whole and by ranges', async () => {
    const oldId = randomUUID();
    const bytes = Buffer.concat([PNG_HEAD, randomBytes(5000)]);
    await t.runtime.database.db.insert(messageAttachments).values(
      messageAttachmentsEncrypted.seal(t.runtime.keyring, oldId, {
        id: oldId,
        uploadedBy: patient.userId,
        fileName: 'old.png',
        mediaType: 'image/png',
        sizeBytes: bytes.length,
        data: sealFileBytes(t.runtime.keyring, 'message_attachments', oldId, bytes),
      }),
    );
    const url = `${MESSAGE_ATTACHMENTS_PATH}/${oldId}`;
    expect((await get(patient.client, url)).rawPayload.equals(bytes)).toBe(true);
    const part = await get(patient.client, url, 'bytes=10-19');
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(bytes.subarray(10, 20))).toBe(true);
    expect((await get(patient.client, url, `bytes=${bytes.length}-`)).statusCode).toBe(416);
  });

  it('refuses a row that holds neither bytes nor a blob', async () => {
    await expect(
      t.runtime.database.db.insert(messageAttachments).values(
        messageAttachmentsEncrypted.seal(t.runtime.keyring, randomUUID(), {
          id: randomUUID(),
          uploadedBy: patient.userId,
          fileName: 'nothing.png',
          mediaType: 'image/png',
          sizeBytes: 0,
        }),
      ),
    ).rejects.toThrow();
  });
});

describe('insurance card photos in the blob store', () => {
  function uploadPhoto(side: string, payload: Buffer) {
    return t.app.inject({
      method: 'POST',
      url: `${INTAKE_CARD_PHOTOS_PATH}/${side}`,
      headers: { cookie: patient.client.cookie ?? '', 'content-type': 'image/png' },
      payload,
    });
  }
  async function photoRow(id: string) {
    const [row] = await t.runtime.database.db.select().from(intakeCardPhotos).where(eq(intakeCardPhotos.id, id));
    return row;
  }

  it('keeps a photo in the store, serves ranges, and removes the old blob when a new photo replaces it', async () => {
    const first = await uploadPhoto('front', BIG_PNG);
    expect(first.statusCode).toBe(201);
    const firstId = first.json<{ id: string }>().id;
    const firstRow = (await photoRow(firstId))!;
    expect(firstRow.data).toBeNull();
    expect(await t.runtime.blobStore.size(firstRow.blobKey!)).not.toBeNull();

    const url = `${INTAKE_CARD_PHOTOS_PATH}/${firstId}`;
    const part = await get(provider.client, url, `bytes=${SEGMENT_BYTES}-${SEGMENT_BYTES + 9}`);
    expect(part.statusCode).toBe(206);
    expect(part.rawPayload.equals(BIG_PNG.subarray(SEGMENT_BYTES, SEGMENT_BYTES + 10))).toBe(true);

    const replacement = Buffer.concat([PNG_HEAD, randomBytes(2000)]);
    const second = await uploadPhoto('front', replacement);
    expect(second.statusCode).toBe(201);
    const secondRow = (await photoRow(second.json<{ id: string }>().id))!;
    expect(await photoRow(firstId)).toBeUndefined();
    expect(await t.runtime.blobStore.size(firstRow.blobKey!)).toBeNull();
    expect(await t.runtime.blobStore.size(secondRow.blobKey!)).not.toBeNull();
    expect(
      (await get(patient.client, `${INTAKE_CARD_PHOTOS_PATH}/${secondRow.id}`)).rawPayload.equals(replacement),
    ).toBe(true);
  });

  it('leaves no blob when a photo is refused', async () => {
    const before = await blobKeys('intake_card_photos/');
    expect((await uploadPhoto('back', Buffer.from('not an image at all'))).statusCode).toBe(400);
    expect((await uploadPhoto('middle', BIG_PNG)).statusCode).toBe(400);
    expect(await blobKeys('intake_card_photos/')).toEqual(before);
  });
});
