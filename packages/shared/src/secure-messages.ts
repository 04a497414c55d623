import { messageSection } from './field-messages.ts';
import { z } from 'zod';
import { OptionalBooleanSchema, RecordIdSchema, textSchema } from './text.ts';

/**
 * Secure messages (decision 029): conversations between one patient and their care team. A `clinical`
 * conversation is with the providers who may see the patient (today the primary provider); an `office`
 * conversation is with the practice's administrators, for questions that are not clinical (any administrator
 * answers). Text and attachments are stored encrypted; e-mails only say that a message is waiting.
 */
export const CONVERSATION_KINDS = ['clinical', 'office'] as const;
export type ConversationKind = (typeof CONVERSATION_KINDS)[number];

/** Which side of a conversation a person writes on: the patient, or the practice (providers, the office). */
export const MESSAGE_SIDES = ['patient', 'practice'] as const;
export type MessageSide = (typeof MESSAGE_SIDES)[number];

export const MESSAGE_SUBJECT_MAX = 150;
export const MESSAGE_BODY_MAX = 10_000;
export const MESSAGE_SEARCH_MAX = 100;
/** A message carries at most this many attachments. */
export const MESSAGE_ATTACHMENTS_MAX = 5;
/** The largest attachment, in bytes (10 MB). */
export const MESSAGE_ATTACHMENT_MAX_BYTES = 10 * 1024 * 1024;
export const MESSAGE_ATTACHMENT_NAME_MAX = 200;
/** At most this many files uploaded and not sent yet per person (they are deleted unsent after a day). */
export const MESSAGE_PENDING_ATTACHMENTS_MAX = 20;
/** The default of MESSAGE_RESPONSE_BUSINESS_DAYS: when the practice answers, shown under every compose box. */
export const MESSAGE_RESPONSE_BUSINESS_DAYS = 2;

/** Upload (POST, the raw bytes) and download (GET `${path}/:id`) of attachments, with the session cookie. */
export const MESSAGE_ATTACHMENTS_PATH = '/api/messages/attachments';
/** The header that carries an upload's file name (URI-encoded): never in the URL, where logs would keep it. */
export const MESSAGE_ATTACHMENT_NAME_HEADER = 'x-file-name';

/** The kinds of file accepted, each known by how its content starts, and the extension its name gets. */
export const MESSAGE_ATTACHMENT_TYPES = [
  { mediaType: 'application/pdf', extension: 'pdf', magic: [0x25, 0x50, 0x44, 0x46, 0x2d] },
  { mediaType: 'image/png', extension: 'png', magic: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] },
  { mediaType: 'image/jpeg', extension: 'jpg', magic: [0xff, 0xd8, 0xff] },
] as const;
export type MessageAttachmentType = (typeof MESSAGE_ATTACHMENT_TYPES)[number]['mediaType'];
/**
 * The Content-Type an attachment's upload may claim: generic bytes (what the web app sends) or a type it is kept
 * as. Anything else is refused with 415 before the body is read (none of these is a type a page of another site
 * may send without asking first); the content still decides the type.
 */
export const MESSAGE_ATTACHMENT_UPLOAD_TYPES: readonly string[] = [
  'application/octet-stream',
  ...MESSAGE_ATTACHMENT_TYPES.map((t) => t.mediaType),
];

/**
 * The type of a file from its first bytes (PDF, PNG or JPEG), or null for anything else, whatever its name or
 * the type the browser claimed. The browser checks before uploading; the server checks again.
 */
export function detectAttachmentType(bytes: Uint8Array): MessageAttachmentType | null {
  const found = MESSAGE_ATTACHMENT_TYPES.find(
    ({ magic }) => bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte),
  );
  return found?.mediaType ?? null;
}

/**
 * The longest file name an upload may give (most file systems allow 255 characters): a longer one is refused, a
 * name up to this is kept, shortened to MESSAGE_ATTACHMENT_NAME_MAX with the extension of its content's type.
 */
export const MESSAGE_ATTACHMENT_NAME_INPUT_MAX = 255;

/**
 * A file's name as the uploader's computer gives it (the X-File-Name header, URI-decoded), under the one text
 * rule as a one-line field: no control characters or line breaks, no bidirectional overrides (which make
 * `invoice\u202Efdp.exe` read as `invoiceexe.pdf`), no `<` `>`, no `javascript:` start. The browser checks it with
 * this schema before uploading; the server again.
 */
export const AttachmentFileNameSchema = textSchema({
  label: 'File name',
  kind: 'short',
  max: MESSAGE_ATTACHMENT_NAME_INPUT_MAX,
});

/** What an upload says besides its bytes: the file's name (see AttachmentFileNameSchema). */
export const AttachmentUploadSchema = z.object({ fileName: AttachmentFileNameSchema });

/** The name a file is kept under: its own base, with the extension of the type its content has. */
export function attachmentFileName(name: string, mediaType: MessageAttachmentType): string {
  const extension = MESSAGE_ATTACHMENT_TYPES.find((t) => t.mediaType === mediaType)!.extension;
  const base = name
    .replace(/[\\/]/g, '_')
    .replace(/\.[A-Za-z0-9]{1,5}$/, '')
    .trim()
    .slice(0, MESSAGE_ATTACHMENT_NAME_MAX - extension.length - 1);
  return `${base || 'attachment'}.${extension}`;
}

export const SECURE_MESSAGE_MESSAGES = {
  notFound: 'Conversation not found',
  attachmentNotFound: 'Attachment not found',
  cannotRead: 'You do not have permission to read messages',
  cannotSend: 'You do not have permission to send messages',
  cannotUseOffice: 'Only the practice’s administrators answer the office’s messages.',
  recipientRequired: 'Please choose who to write to',
  recipientNotYours: 'You can write only to your own patients, or to your own care team.',
  noPortalAccount: 'This patient has no portal account yet, so they cannot read messages.',
  subjectRequired: 'Please write a subject',
  bodyRequired: 'Please write a message',
  attachmentTooLarge: 'The file is too large: attachments can be at most {{maxMegabytes}} MB.',
  attachmentWrongType: 'This kind of file cannot be attached: choose a PDF, PNG or JPEG file.',
  attachmentEmpty: 'The file is empty.',
  attachmentsTooMany: 'A message can carry at most {{max}} attachments.',
  attachmentUnavailable: 'An attachment could not be found. Please attach the file again.',
  attachmentsPending: 'You have many files waiting to be sent. Send or remove them, then attach more.',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const secureMessageMessage = messageSection('secureMessageMessages', SECURE_MESSAGE_MESSAGES);

const SubjectSchema = textSchema({ label: 'Subject', kind: 'short', max: MESSAGE_SUBJECT_MAX }).refine(
  (value) => value.length > 0,
  { error: secureMessageMessage.error('subjectRequired') },
);
const BodySchema = textSchema({ label: 'Message', kind: 'free', max: MESSAGE_BODY_MAX }).refine(
  (value) => value.trim().length > 0,
  { error: secureMessageMessage.error('bodyRequired') },
);
const AttachmentIdsSchema = z
  .array(RecordIdSchema)
  .max(MESSAGE_ATTACHMENTS_MAX, {
    error: secureMessageMessage.error('attachmentsTooMany', { max: MESSAGE_ATTACHMENTS_MAX }),
  })
  .nullish()
  .transform((ids) => [...new Set(ids ?? [])]);

/** A new conversation: about which patient, with whom (their care team, or the office), its subject and first message. */
export const StartConversationInputSchema = z.object({
  patientId: RecordIdSchema.refine((v) => v.length > 0, { error: secureMessageMessage.error('recipientRequired') }),
  kind: z.enum(CONVERSATION_KINDS, { error: secureMessageMessage.error('recipientRequired') }),
  subject: SubjectSchema,
  body: BodySchema,
  attachmentIds: AttachmentIdsSchema,
});
export type StartConversationInput = z.input<typeof StartConversationInputSchema>;

export const SendMessageInputSchema = z.object({
  conversationId: RecordIdSchema,
  body: BodySchema,
  attachmentIds: AttachmentIdsSchema,
});
export type SendMessageInput = z.input<typeof SendMessageInputSchema>;

export const ConversationFilterSchema = z.object({
  /** true: the caller's archived conversations only; otherwise those not archived. */
  archived: OptionalBooleanSchema,
  search: textSchema({ label: 'Search', kind: 'search', max: MESSAGE_SEARCH_MAX }).nullish(),
  /** One patient's conversations (the chart's panel). */
  patientId: RecordIdSchema.nullish(),
});
export type ConversationFilter = z.input<typeof ConversationFilterSchema>;
