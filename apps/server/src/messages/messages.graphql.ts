import type { AttachmentInfo } from './messages.repository.ts';
import type { ConversationView, MessageRecipient, MessageView } from './messages.service.ts';
import { builder } from '../graphql/builder.ts';
import { idempotent } from '../graphql/idempotent.ts';
import { callerOf } from '../graphql/context.ts';

/*
 * Secure messages (decision 029). Attachments are uploaded and downloaded over plain HTTP
 * (`/api/messages/attachments`, messages.routes.ts); here they are named by id.
 */

const MessageAttachmentRef = builder.objectRef<AttachmentInfo>('MessageAttachment').implement({
  description: 'A file sent with a message: download it from /api/messages/attachments/{id}.',
  fields: (t) => ({
    id: t.exposeID('id'),
    fileName: t.exposeString('fileName'),
    mediaType: t.exposeString('mediaType', { description: 'application/pdf, image/png or image/jpeg' }),
    sizeBytes: t.exposeInt('sizeBytes'),
  }),
});

const MessageRef = builder.objectRef<MessageView>('SecureMessage').implement({
  fields: (t) => ({
    id: t.id({ resolve: (m) => m.record.message.id }),
    body: t.string({ resolve: (m) => m.record.message.body }),
    senderName: t.string({ resolve: (m) => m.record.senderName }),
    senderSide: t.string({ description: 'patient or practice', resolve: (m) => m.record.message.senderSide }),
    mine: t.boolean({ description: 'The caller sent it.', resolve: (m) => m.mine }),
    createdAt: t.string({ resolve: (m) => m.record.message.createdAt.toISOString() }),
    readAt: t.string({
      nullable: true,
      description: 'When the other side first read it (the read receipt).',
      resolve: (m) => m.record.message.readAt?.toISOString() ?? null,
    }),
    attachments: t.field({ type: [MessageAttachmentRef], resolve: (m) => m.record.attachments }),
  }),
});

const ConversationRef = builder.objectRef<ConversationView>('Conversation').implement({
  description: 'A conversation between a patient and their care team (clinical) or the office.',
  fields: (t) => ({
    id: t.id({ resolve: (c) => c.record.conversation.id }),
    kind: t.string({ description: 'clinical or office', resolve: (c) => c.record.conversation.kind }),
    subject: t.string({ resolve: (c) => c.record.conversation.subject }),
    patientId: t.id({ resolve: (c) => c.record.conversation.patientId }),
    patientName: t.string({ resolve: (c) => c.record.patientName }),
    providerName: t.string({
      nullable: true,
      description: "The patient's provider (a clinical conversation's care team); null for the office.",
      resolve: (c) => (c.record.conversation.kind === 'clinical' ? c.record.providerName : null),
    }),
    mySide: t.string({ description: 'patient or practice: the side the caller writes on', resolve: (c) => c.mySide }),
    lastMessageAt: t.string({ resolve: (c) => c.record.conversation.lastMessageAt.toISOString() }),
    lastMessagePreview: t.string({
      nullable: true,
      resolve: (c) => c.record.lastMessageBody?.slice(0, 140) ?? null,
    }),
    unreadCount: t.int({ resolve: (c) => c.record.unreadCount }),
    archived: t.boolean({ description: 'Archived by the caller.', resolve: (c) => c.record.archived }),
    messages: t.field({
      type: [MessageRef],
      nullable: true,
      description: 'The thread, oldest first: only when the conversation itself is read (`conversation`).',
      resolve: (c) => c.messages ?? null,
    }),
  }),
});

const ConversationListRef = builder
  .objectRef<{ items: ConversationView[]; nextToken: string | null }>('ConversationList')
  .implement({
    fields: (t) => ({
      items: t.field({ type: [ConversationRef], resolve: (l) => l.items }),
      nextToken: t.exposeString('nextToken', { nullable: true }),
    }),
  });

const MessageRecipientRef = builder.objectRef<MessageRecipient>('MessageRecipient').implement({
  description: 'Someone the caller may start a conversation with.',
  fields: (t) => ({
    patientId: t.exposeID('patientId'),
    kind: t.exposeString('kind', { description: 'clinical (the care team) or office' }),
    name: t.exposeString('name', {
      nullable: true,
      description: 'The provider (for a patient) or the patient (for the practice); null for the office.',
    }),
  }),
});

const ConversationFilterInput = builder.inputType('ConversationFilterInput', {
  fields: (t) => ({ archived: t.boolean(), search: t.string(), patientId: t.id() }),
});
const StartConversationInput = builder.inputType('StartConversationInput', {
  fields: (t) => ({
    patientId: t.id({ required: true }),
    kind: t.string({ required: true, description: 'clinical or office' }),
    subject: t.string({ required: true }),
    body: t.string({ required: true }),
    attachmentIds: t.idList(),
  }),
});
const SendMessageInput = builder.inputType('SendMessageInput', {
  fields: (t) => ({
    conversationId: t.id({ required: true }),
    body: t.string({ required: true }),
    attachmentIds: t.idList(),
  }),
});

builder.queryFields((t) => ({
  conversations: t.field({
    type: ConversationListRef,
    description: "The caller's conversations, latest message first (archived ones with archived: true).",
    args: { limit: t.arg.int(), nextToken: t.arg.string(), filter: t.arg({ type: ConversationFilterInput }) },
    resolve: (_root, args, ctx) =>
      ctx.messages.list(callerOf(ctx, 'conversations'), {
        limit: args.limit ?? null,
        nextToken: args.nextToken ?? null,
        filter: args.filter ?? {},
      }),
  }),
  conversation: t.field({
    type: ConversationRef,
    description: 'One conversation with its messages.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.messages.get(callerOf(ctx, 'conversation'), String(args.id)),
  }),
  unreadMessageCount: t.int({
    description: "The caller's unread messages (the header's badge).",
    resolve: (_root, _args, ctx) => ctx.messages.unreadCount(callerOf(ctx, 'unreadMessageCount')),
  }),
  messageRecipients: t.field({
    type: [MessageRecipientRef],
    description: 'Whom the caller may start a conversation with.',
    args: { search: t.arg.string() },
    resolve: (_root, args, ctx) => ctx.messages.recipients(callerOf(ctx, 'messageRecipients'), args.search ?? null),
  }),
}));

builder.mutationFields((t) => ({
  startConversation: t.field({
    type: ConversationRef,
    args: { input: t.arg({ type: StartConversationInput, required: true }) },
    resolve: idempotent('startConversation', {
      run: (caller, args: { input: object }, ctx) => ctx.messages.start(caller, { ...args.input }),
      replay: (caller, id, _args, ctx) => ctx.messages.get(caller, id),
    }),
  }),
  sendMessage: t.field({
    type: MessageRef,
    args: { input: t.arg({ type: SendMessageInput, required: true }) },
    resolve: idempotent('sendMessage', {
      run: (caller, args: { input: { conversationId: string | number } }, ctx) =>
        ctx.messages.send(caller, { ...args.input }),
      replay: (caller, id, args, ctx) => ctx.messages.sent(caller, String(args.input.conversationId), id),
    }),
  }),
  markConversationRead: t.field({
    type: ConversationRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.messages.markRead(callerOf(ctx, 'markConversationRead'), String(args.id)),
  }),
  archiveConversation: t.field({
    type: ConversationRef,
    args: { id: t.arg.id({ required: true }), archived: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.messages.archive(callerOf(ctx, 'archiveConversation'), String(args.id), args.archived),
  }),
}));
