/**
 * Secure messages (decision 029) against the real server: who may read, write and download what (a patient, another
 * patient, a provider on and off the care team, an administrator on clinical and office conversations), the type of
 * an attachment from its content, its size limit, text and files stored encrypted, read receipts, the live channel,
 * the e-mail that says only that a message waits, and the audit trail.
 */
import { randomUUID } from 'node:crypto';
import { buffer } from 'node:stream/consumers';
import { and, eq, gt, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  MESSAGE_ATTACHMENT_MAX_BYTES,
  MESSAGE_ATTACHMENTS_PATH,
  MESSAGE_PENDING_ATTACHMENTS_MAX,
  SECURE_MESSAGE_MESSAGES,
} from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { mailOutbox } from '../src/mail/mail.table.ts';
import { conversations, messageAttachments, messages } from '../src/messages/messages.table.ts';
import { signedInAccount, type SignedIn } from './factories/accounts.ts';
import { startConversation, uploadAttachment } from './factories/conversations.ts';
import { createPortalPatient, type PortalPatient } from './factories/patients.ts';
import type { TestClient, GraphQLResponse, TestApp } from './helpers.ts';
import { createTestApp } from './helpers.ts';
import { liveUrl, openLiveOrFail } from './live-helpers.ts';

const PASSWORD = 'Messages-Test-2026!';
const START = `mutation ($input: StartConversationInput!) { startConversation(input: $input) {
  id kind subject patientId providerName mySide unreadCount messages { id body mine readAt attachments { id fileName mediaType sizeBytes } } } }`;
const SEND = 'mutation ($input: SendMessageInput!) { sendMessage(input: $input) { id body mine readAt } }';
const GET = `query ($id: ID!) { conversation(id: $id) { id subject kind unreadCount archived
  messages { id body mine senderName readAt attachments { id fileName mediaType } } } }`;
const LIST = `query ($filter: ConversationFilterInput) { conversations(filter: $filter) {
  items { id subject unreadCount archived lastMessagePreview patientName } nextToken } }`;
const UNREAD = '{ unreadMessageCount }';
const READ = 'mutation ($id: ID!) { markConversationRead(id: $id) { id unreadCount } }';
const ARCHIVE =
  'mutation ($id: ID!, $archived: Boolean!) { archiveConversation(id: $id, archived: $archived) { id archived } }';
const RECIPIENTS = 'query ($search: String) { messageRecipients(search: $search) { patientId kind name } }';

/** The smallest valid PNG and JPEG beginnings and a PDF: the type is read from these bytes. */
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('IHDR-test-image'),
]);
const PDF = Buffer.from('%PDF-1.7\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

let t: TestApp;

/** A patient record of `provider`'s with its portal account, signed in. */
const patientOf = (provider: SignedIn): Promise<PortalPatient> =>
  createPortalPatient(t, provider.client, { record: { firstName: 'Rosa' }, account: { password: PASSWORD } });

function data<T>(response: GraphQLResponse<T>): T {
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data;
}

const errorOf = (response: GraphQLResponse) => ({
  code: response.errors?.[0]?.extensions?.code,
  message: response.errors?.[0]?.message,
});

function upload(client: TestClient, bytes: Buffer, fileName: string, contentType = 'application/octet-stream') {
  return uploadAttachment(t.app, client, bytes, { fileName, contentType });
}

async function download(client: TestClient, id: string) {
  return t.app.inject({
    method: 'GET',
    url: `${MESSAGE_ATTACHMENTS_PATH}/${id}`,
    headers: { cookie: client.cookie ?? '' },
  });
}

async function lastAuditId(): Promise<number> {
  const [row] = await t.runtime.database.db
    .select({ id: sql<number>`coalesce(max(${auditEntries.id}), 0)::int` })
    .from(auditEntries);
  return row!.id;
}

async function auditSince(since: number, userId: string) {
  return t.runtime.database.db
    .select({ event: auditEntries.event, details: auditEntries.details })
    .from(auditEntries)
    .where(and(gt(auditEntries.id, since), eq(auditEntries.userId, userId)));
}

let provider: SignedIn;
let otherProvider: SignedIn;
let admin: SignedIn;
let patient: PortalPatient;
let otherPatient: PortalPatient;

beforeAll(async () => {
  t = await createTestApp({ MESSAGE_MAIL_DELAY_MINUTES: '0' }, { demo: false });
  provider = await signedInAccount(t, 'provider', { firstName: 'Provider', lastName: 'Number1', password: PASSWORD });
  otherProvider = await signedInAccount(t, 'provider', {
    firstName: 'Provider',
    lastName: 'Number2',
    password: PASSWORD,
  });
  admin = await signedInAccount(t, 'admin', { password: PASSWORD });
  patient = await patientOf(provider);
  otherPatient = await patientOf(otherProvider);
});

describe('a conversation between a patient and their provider', () => {
  it('carries text and an attachment, stored encrypted, with unread counts, read receipts and live notices', async () => {
    const providerLive = await openLiveOrFail(await liveUrl(t.app), {
      cookie: provider.client.cookie,
      origin: t.runtime.config.publicUrl,
    });
    const patientLive = await openLiveOrFail(await liveUrl(t.app), {
      cookie: patient.client.cookie,
      origin: t.runtime.config.publicUrl,
    });
    const uploaded = await upload(patient.client, PDF, 'lab results.pdf', 'application/pdf');
    expect(uploaded.statusCode).toBe(201);
    const attachment = uploaded.json<{ id: string; fileName: string; mediaType: string; sizeBytes: number }>();
    expect(attachment).toMatchObject({
      fileName: 'lab results.pdf',
      mediaType: 'application/pdf',
      sizeBytes: PDF.length,
    });

    const since = await lastAuditId();
    const started = await startConversation(patient.client, patient.patientId, { attachmentIds: [attachment.id] });
    expect(started.messages).toHaveLength(1);
    expect(started.messages[0]!.attachments.map((a) => a.id)).toEqual([attachment.id]);

    // The provider hears of it live, and the header's count says one.
    expect(await providerLive.next('message-new')).toEqual({ type: 'message-new', conversationId: started.id });
    expect(data(await provider.client.gql<{ unreadMessageCount: number }>(UNREAD)).unreadMessageCount).toBe(1);
    const list = data(
      await provider.client.gql<{
        conversations: { items: { id: string; unreadCount: number; lastMessagePreview: string }[] };
      }>(LIST),
    );
    expect(list.conversations.items).toEqual([
      expect.objectContaining({ id: started.id, unreadCount: 1, lastMessagePreview: 'I wake at 3 am.' }),
    ]);

    // Stored encrypted: subject, text, file name and bytes.
    const db = t.runtime.database.db;
    const [conversation] = await db.select().from(conversations).where(eq(conversations.id, started.id));
    expect(conversation!.subject.startsWith('enc:')).toBe(true);
    const [message] = await db.select().from(messages).where(eq(messages.conversationId, started.id));
    expect(message!.body.startsWith('enc:')).toBe(true);
    const [stored] = await db.select().from(messageAttachments).where(eq(messageAttachments.id, attachment.id));
    expect(stored!.fileName.startsWith('enc:')).toBe(true);
    // The bytes are in the blob store (decision 070), sealed: none in the row.
    expect(stored!.data).toBeNull();
    const blob = await buffer(await t.runtime.blobStore.get(stored!.blobKey!));
    expect(blob.includes(Buffer.from('%PDF'))).toBe(false);
    expect(blob.includes(PDF.subarray(10, 30))).toBe(false);

    // The provider reads it: the patient's message shows when, and the patient hears of it live.
    const thread = data(
      await provider.client.gql<{ conversation: { messages: { readAt: string | null }[] } }>(GET, { id: started.id }),
    );
    expect(thread.conversation.messages[0]!.readAt).toBeNull();
    const marked = data(
      await provider.client.gql<{ markConversationRead: { unreadCount: number } }>(READ, { id: started.id }),
    );
    expect(marked.markConversationRead.unreadCount).toBe(0);
    expect(await patientLive.next('messages-read')).toEqual({ type: 'messages-read', conversationId: started.id });
    const seen = data(
      await patient.client.gql<{ conversation: { messages: { readAt: string | null; mine: boolean }[] } }>(GET, {
        id: started.id,
      }),
    );
    expect(seen.conversation.messages[0]?.mine).toBe(true);
    expect(Date.parse(seen.conversation.messages[0]?.readAt ?? '')).toBeGreaterThan(0);

    // The provider replies; the reply reaches the patient live and is unread for them.
    const before = patientLive.messages.length;
    data(await provider.client.gql(SEND, { input: { conversationId: started.id, body: 'Take it in the morning.' } }));
    expect(await patientLive.next('message-new', before)).toEqual({ type: 'message-new', conversationId: started.id });
    expect(data(await patient.client.gql<{ unreadMessageCount: number }>(UNREAD)).unreadMessageCount).toBe(1);

    // The downloaded file is the uploaded one, as an attachment that is never sniffed.
    const file = await download(provider.client, attachment.id);
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(PDF)).toBe(true);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toMatch(/^attachment; filename="lab results.pdf"/);
    expect(file.headers['x-content-type-options']).toBe('nosniff');

    // Every read and send is audited with the patient named.
    const patientEvents = await auditSince(since, patient.userId);
    const namesPatient = (events: { event: string; details: unknown }[], event: string) =>
      events.some(
        (e) =>
          e.event === event &&
          JSON.stringify((e.details as { patientIds?: unknown }).patientIds) === JSON.stringify([patient.patientId]),
      );
    expect(namesPatient(patientEvents, 'MESSAGE_SEND')).toBe(true);
    const providerEvents = await auditSince(since, provider.userId);
    for (const event of [
      'MESSAGE_THREAD_VIEW',
      'MESSAGE_READ',
      'MESSAGE_SEND',
      'MESSAGE_ATTACHMENT_DOWNLOAD',
      'MESSAGE_LIST_VIEW',
    ]) {
      expect(namesPatient(providerEvents, event), event).toBe(true);
    }
    providerLive.close();
    patientLive.close();
  });

  it('is found by a word of its text or subject, only by those who reach it', async () => {
    const started = await startConversation(patient.client, patient.patientId, {
      subject: 'Pharmacy question',
      body: 'Is sertraline available as a liquid?',
    });
    const search = async (client: TestClient, term: string) =>
      data(
        await client.gql<{ conversations: { items: { id: string }[] } }>(LIST, { filter: { search: term } }),
      ).conversations.items.map((c) => c.id);
    expect(await search(provider.client, 'sertral')).toEqual([started.id]);
    expect(await search(patient.client, 'pharmacy')).toEqual([started.id]);
    expect(await search(otherPatient.client, 'sertraline')).toEqual([]);
    expect(await search(otherProvider.client, 'sertraline')).toEqual([]);
  });

  it('is archived by one participant only, and comes back with a new message', async () => {
    const started = await startConversation(patient.client, patient.patientId, { subject: 'Archive me' });
    expect(
      data(
        await patient.client.gql<{ archiveConversation: { archived: boolean } }>(ARCHIVE, {
          id: started.id,
          archived: true,
        }),
      ).archiveConversation.archived,
    ).toBe(true);
    const ids = async (client: TestClient, archived: boolean) =>
      data(
        await client.gql<{ conversations: { items: { id: string }[] } }>(LIST, { filter: { archived } }),
      ).conversations.items.map((c) => c.id);
    expect(await ids(patient.client, false)).not.toContain(started.id);
    expect(await ids(patient.client, true)).toContain(started.id);
    expect(await ids(provider.client, false)).toContain(started.id);
    data(await provider.client.gql(SEND, { input: { conversationId: started.id, body: 'One more thing.' } }));
    expect(await ids(patient.client, false)).toContain(started.id);
  });
});

describe('who may see and write what', () => {
  let clinicalId: string;
  let officeId: string;
  let attachmentId: string;

  beforeAll(async () => {
    const uploaded = await upload(patient.client, PNG, 'rash.png');
    attachmentId = uploaded.json<{ id: string }>().id;
    clinicalId = (await startConversation(patient.client, patient.patientId, { attachmentIds: [attachmentId] })).id;
    officeId = data(
      await patient.client.gql<{ startConversation: { id: string } }>(START, {
        input: { patientId: patient.patientId, kind: 'office', subject: 'Invoice', body: 'I was billed twice.' },
      }),
    ).startConversation.id;
  });

  it('keeps another patient out, answering like a missing conversation and recording the attempt', async () => {
    const since = await lastAuditId();
    for (const id of [clinicalId, officeId]) {
      expect(errorOf(await otherPatient.client.gql(GET, { id }))).toEqual({
        code: 'NOT_FOUND',
        message: SECURE_MESSAGE_MESSAGES.notFound,
      });
      expect(errorOf(await otherPatient.client.gql(SEND, { input: { conversationId: id, body: 'Hello' } }))).toEqual({
        code: 'NOT_FOUND',
        message: SECURE_MESSAGE_MESSAGES.notFound,
      });
    }
    // A conversation that does not exist is answered the same way.
    expect(errorOf(await otherPatient.client.gql(GET, { id: randomUUID() }))).toMatchObject({ code: 'NOT_FOUND' });
    expect((await download(otherPatient.client, attachmentId)).statusCode).toBe(404);
    // Nor can a patient start a conversation about someone else.
    expect(
      errorOf(
        await otherPatient.client.gql(START, {
          input: { patientId: patient.patientId, kind: 'clinical', subject: 'Hi', body: 'Hello' },
        }),
      ),
    ).toMatchObject({ code: 'BAD_USER_INPUT' });
    const denials = (await auditSince(since, otherPatient.userId)).filter((e) => e.event === 'UNAUTHORIZED_ACCESS');
    expect(denials.length).toBeGreaterThanOrEqual(6);
  });

  it('keeps a provider off the care team out', async () => {
    expect(errorOf(await otherProvider.client.gql(GET, { id: clinicalId }))).toMatchObject({ code: 'NOT_FOUND' });
    expect((await download(otherProvider.client, attachmentId)).statusCode).toBe(404);
    expect(
      errorOf(
        await otherProvider.client.gql(START, {
          input: { patientId: patient.patientId, kind: 'clinical', subject: 'Hi', body: 'Hello' },
        }),
      ),
    ).toMatchObject({ code: 'BAD_USER_INPUT', message: SECURE_MESSAGE_MESSAGES.recipientNotYours });
  });

  it('answers a conversation or attachment of a kind the caller never reads exactly like a missing one, and records it', async () => {
    // Whole answers compared: status, code, message id, message, path; nothing tells the existing id apart.
    const asked = async (client: TestClient, query: string, variables: Record<string, unknown>) => {
      const response = await client.gql(query, variables);
      return JSON.stringify(response.errors);
    };
    const missing = randomUUID();
    const since = await lastAuditId();
    // The office's conversations are the administrators', not the providers'; clinical ones never the administrators'.
    for (const [who, id] of [
      [provider, officeId],
      [admin, clinicalId],
    ] as const) {
      expect(await asked(who.client, GET, { id })).toBe(await asked(who.client, GET, { id: missing }));
      expect(await asked(who.client, SEND, { input: { conversationId: id, body: 'Hello' } })).toBe(
        await asked(who.client, SEND, { input: { conversationId: missing, body: 'Hello' } }),
      );
      expect(await asked(who.client, READ, { id })).toBe(await asked(who.client, READ, { id: missing }));
      expect(await asked(who.client, ARCHIVE, { id, archived: true })).toBe(
        await asked(who.client, ARCHIVE, { id: missing, archived: true }),
      );
      expect(errorOf(await who.client.gql(GET, { id }))).toEqual({
        code: 'NOT_FOUND',
        message: SECURE_MESSAGE_MESSAGES.notFound,
      });
      const denials = (await auditSince(since, who.userId)).filter((e) => e.event === 'UNAUTHORIZED_ACCESS');
      expect(denials.map((e) => e.details)).toContainEqual(expect.objectContaining({ conversationIds: [id] }));
    }
    const existing = await download(admin.client, attachmentId);
    const random = await download(admin.client, randomUUID());
    expect(existing.statusCode).toBe(404);
    expect([existing.statusCode, existing.headers['content-type'], existing.body]).toEqual([
      random.statusCode,
      random.headers['content-type'],
      random.body,
    ]);
    const denials = (await auditSince(since, admin.userId)).filter((e) => e.event === 'UNAUTHORIZED_ACCESS');
    expect(denials.map((e) => e.details)).toContainEqual(expect.objectContaining({ attachmentIds: [attachmentId] }));
  });

  it('lets the administrators answer the office, never read a clinical conversation', async () => {
    const office = data(
      await admin.client.gql<{ conversation: { messages: { body: string }[] } }>(GET, { id: officeId }),
    );
    expect(office.conversation.messages.map((m) => m.body)).toEqual(['I was billed twice.']);
    data(await admin.client.gql(SEND, { input: { conversationId: officeId, body: 'Refunded today.' } }));
    expect(errorOf(await admin.client.gql(GET, { id: clinicalId }))).toEqual({
      code: 'NOT_FOUND',
      message: SECURE_MESSAGE_MESSAGES.notFound,
    });
    expect((await download(admin.client, attachmentId)).statusCode).toBe(404);
    const adminList = data(await admin.client.gql<{ conversations: { items: { id: string }[] } }>(LIST));
    expect(adminList.conversations.items.map((c) => c.id)).toContain(officeId);
    expect(adminList.conversations.items.map((c) => c.id)).not.toContain(clinicalId);
    // The patient's own provider does not see the office conversation in their list either.
    const providerList = data(await provider.client.gql<{ conversations: { items: { id: string }[] } }>(LIST));
    expect(providerList.conversations.items.map((c) => c.id)).not.toContain(officeId);
  });

  it('offers each person only the recipients they may write to', async () => {
    const mine = data(
      await patient.client.gql<{ messageRecipients: { patientId: string; kind: string; name: string | null }[] }>(
        RECIPIENTS,
      ),
    );
    expect(mine.messageRecipients).toEqual([
      { patientId: patient.patientId, kind: 'clinical', name: 'Provider Number1' },
      { patientId: patient.patientId, kind: 'office', name: null },
    ]);
    const theirs = data(await provider.client.gql<{ messageRecipients: { patientId: string }[] }>(RECIPIENTS));
    expect(theirs.messageRecipients.map((r) => r.patientId)).toEqual([patient.patientId]);
  });

  it('lets only the uploader send a pending attachment', async () => {
    const uploaded = (await upload(otherPatient.client, PNG, 'mine.png')).json<{ id: string }>();
    expect(
      errorOf(
        await patient.client.gql(SEND, {
          input: { conversationId: clinicalId, body: 'Stealing a file', attachmentIds: [uploaded.id] },
        }),
      ),
    ).toEqual({ code: 'BAD_USER_INPUT', message: SECURE_MESSAGE_MESSAGES.attachmentUnavailable });
    // Exactly as for an attachment that does not exist.
    const claim = async (attachmentId: string) =>
      JSON.stringify(
        (
          await patient.client.gql(SEND, {
            input: { conversationId: clinicalId, body: 'Stealing a file', attachmentIds: [attachmentId] },
          })
        ).errors,
      );
    expect(await claim(uploaded.id)).toBe(await claim(randomUUID()));
    // Nothing was written: the message was refused whole.
    const thread = data(
      await patient.client.gql<{ conversation: { messages: { body: string }[] } }>(GET, { id: clinicalId }),
    );
    expect(thread.conversation.messages.map((m) => m.body)).not.toContain('Stealing a file');
    expect((await download(patient.client, uploaded.id)).statusCode).toBe(404);
  });
});

describe('attachments', () => {
  it('take their type from the content: a PNG named .pdf is a PNG, text named .png is refused', async () => {
    const renamed = await upload(patient.client, PNG, 'scan.pdf', 'application/pdf');
    expect(renamed.statusCode).toBe(201);
    expect(renamed.json()).toMatchObject({ mediaType: 'image/png', fileName: 'scan.png' });

    const text = await upload(patient.client, Buffer.from('just some text, not an image'), 'photo.png', 'image/png');
    expect(text.statusCode).toBe(400);
    expect(text.json()).toMatchObject({
      errors: [{ message: SECURE_MESSAGE_MESSAGES.attachmentWrongType, extensions: { code: 'BAD_USER_INPUT' } }],
    });
  });

  it('are at most 10 MB', async () => {
    const tooLarge = Buffer.alloc(MESSAGE_ATTACHMENT_MAX_BYTES + 1, 0);
    PNG.copy(tooLarge);
    const response = await upload(patient.client, tooLarge, 'huge.png');
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({
      errors: [
        {
          message: 'The file is too large: attachments can be at most 10 MB.',
          extensions: { code: 'PAYLOAD_TOO_LARGE' },
        },
      ],
    });
    const atLimit = Buffer.alloc(MESSAGE_ATTACHMENT_MAX_BYTES, 0);
    PNG.copy(atLimit);
    expect((await upload(patient.client, atLimit, 'big.png')).statusCode).toBe(201);
  });

  it('wait unsent at most 20 at a time per person', async () => {
    const uploader = await patientOf(provider);
    for (let i = 0; i < MESSAGE_PENDING_ATTACHMENTS_MAX; i++) {
      expect((await upload(uploader.client, PNG, `page-${i}.png`)).statusCode).toBe(201);
    }
    const refused = await upload(uploader.client, PNG, 'one-more.png');
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ errors: [{ message: SECURE_MESSAGE_MESSAGES.attachmentsPending }] });
  });

  it('need a session', async () => {
    const response = await t.app.inject({ method: 'POST', url: MESSAGE_ATTACHMENTS_PATH, payload: PNG });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      errors: [{ extensions: { code: 'UNAUTHENTICATED', messageId: 'messages.authRequired' } }],
    });
  });
});

describe('the e-mail that a message waits', () => {
  async function mailsTo(email: string) {
    return t.runtime.database.db
      .select({
        subject: mailOutbox.subject,
        text: mailOutbox.textBody,
        html: mailOutbox.htmlBody,
        kind: mailOutbox.kind,
      })
      .from(mailOutbox)
      .where(eq(mailOutbox.toAddress, email));
  }
  const emailOf = async (userId: string) => {
    const [row] = await t.runtime.database.db
      .execute<{ email: string }>(sql`SELECT email FROM users WHERE id = ${userId}`)
      .then((r) => r.rows);
    return row!.email;
  };

  it('says only that there is a message, with a link, once per unread burst', async () => {
    const someone = await patientOf(provider);
    const providerEmail = await emailOf(provider.userId);
    const before = (await mailsTo(providerEmail)).length;
    const started = await startConversation(someone.client, someone.patientId, {
      subject: 'Thoughts of self-harm',
      body: 'I have been feeling hopeless about my depression.',
    });
    data(
      await someone.client.gql(SEND, {
        input: { conversationId: started.id, body: 'And the lithium makes me shake.' },
      }),
    );
    await t.runtime.jobs.drain({ scheduled: true });
    const mails = (await mailsTo(providerEmail)).slice(before);
    expect(mails).toHaveLength(1);
    const [mail] = mails;
    expect(mail!.kind).toBe('message-waiting');
    expect(mail!.subject).toBe('You have a new secure message');
    expect(mail!.text).toBe(
      [
        'You have a new message in your portal. For your privacy it is not included in this e-mail: sign in to read it.',
        `Read the message:\n${t.runtime.config.publicUrl}/messages`,
        '--',
        `${t.runtime.config.settings.current().practiceName} · This is an automatic message; please do not reply.`,
      ].join('\n\n'),
    );
    for (const secret of ['self-harm', 'hopeless', 'lithium', 'Rosa', someone.patientId]) {
      expect(mail!.text).not.toContain(secret);
      expect(mail!.html).not.toContain(secret);
    }
    // The job's own audit entry: the server acting as SYSTEM, for no operation, naming whose conversation it was.
    const notified = await t.runtime.database.db
      .select({
        level: auditEntries.level,
        userId: auditEntries.userId,
        userRole: auditEntries.userRole,
        url: auditEntries.url,
        details: auditEntries.details,
      })
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.event, 'MESSAGE_NOTIFIED'),
          sql`${auditEntries.details}->>'conversationId' = ${started.id}`,
        ),
      );
    expect(notified).toEqual([
      {
        level: 'INFO',
        userId: 'system',
        userRole: 'system',
        url: null,
        details: { conversationId: started.id, side: 'practice', recipients: 1, patientIds: [someone.patientId] },
      },
    ]);

    // Read, then written to again: a new mail; written to again unread: none.
    data(await provider.client.gql(READ, { id: started.id }));
    data(await someone.client.gql(SEND, { input: { conversationId: started.id, body: 'Third.' } }));
    await t.runtime.jobs.drain({ scheduled: true });
    data(await someone.client.gql(SEND, { input: { conversationId: started.id, body: 'Fourth.' } }));
    await t.runtime.jobs.drain({ scheduled: true });
    expect((await mailsTo(providerEmail)).slice(before)).toHaveLength(2);
  });

  it('is not sent when the message was read before the mail went out', async () => {
    const someone = await patientOf(provider);
    const providerEmail = await emailOf(provider.userId);
    const started = await startConversation(someone.client, someone.patientId, { subject: 'Quick question' });
    data(await provider.client.gql(READ, { id: started.id }));
    await t.runtime.jobs.drain({ scheduled: true });
    const before = (await mailsTo(providerEmail)).length;
    // The job runs again (as a late one would) and finds nothing unread.
    await t.runtime.messages.notify(started.id, 'practice');
    expect(await mailsTo(providerEmail)).toHaveLength(before);
  });
});
