import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MESSAGE_ATTACHMENT_NAME_HEADER,
  MESSAGE_ATTACHMENTS_PATH,
  type ConversationKind,
  type StartConversationInput,
} from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest, type GraphQLErrorEntry } from '../../../lib/graphql.ts';
import { useSubmissionKey } from '../../../lib/submission-key.ts';
import { useLiveMessages } from '../../../lib/live-channel.ts';
import { UNREAD_MESSAGES_QUERY_KEY } from '../../../lib/unread-messages.ts';

export const messageQueryKeys = {
  all: ['messages'] as const,
  lists: ['messages', 'list'] as const,
  list: (filter: { archived: boolean; search: string; patientId?: string }) => ['messages', 'list', filter] as const,
  thread: (id: string) => ['messages', 'thread', id] as const,
  recipients: (search: string) => ['messages', 'recipients', search] as const,
};

const AttachmentSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  mediaType: z.string(),
  sizeBytes: z.number(),
});
export type MessageAttachment = z.infer<typeof AttachmentSchema>;

const MessageSchema = z.object({
  id: z.string(),
  body: z.string(),
  senderName: z.string(),
  senderSide: z.string(),
  mine: z.boolean(),
  createdAt: z.string(),
  readAt: z.string().nullable(),
  attachments: z.array(AttachmentSchema),
});
export type Message = z.infer<typeof MessageSchema>;

const ConversationSchema = z.object({
  id: z.string(),
  kind: z.enum(['clinical', 'office']),
  subject: z.string(),
  patientId: z.string(),
  patientName: z.string(),
  providerName: z.string().nullable(),
  mySide: z.enum(['patient', 'practice']),
  lastMessageAt: z.string(),
  lastMessagePreview: z.string().nullable(),
  unreadCount: z.number(),
  archived: z.boolean(),
});
export type Conversation = z.infer<typeof ConversationSchema>;

const CONVERSATION_FIELDS =
  'id kind subject patientId patientName providerName mySide lastMessageAt lastMessagePreview unreadCount archived';
const MESSAGE_FIELDS =
  'id body senderName senderSide mine createdAt readAt attachments { id fileName mediaType sizeBytes }';

/**
 * Any message or read anywhere in the caller's conversations: read the lists, the thread and the badge again. Used
 * once per screen (the messages screen, the chart's panel), whatever part of it is shown.
 */
export function useMessagesLiveRefresh() {
  const queryClient = useQueryClient();
  useLiveMessages((message) => {
    if (message.type === 'message-new' || message.type === 'messages-read') {
      void queryClient.invalidateQueries({ queryKey: messageQueryKeys.all });
      void queryClient.invalidateQueries({ queryKey: UNREAD_MESSAGES_QUERY_KEY });
    }
  });
}

/** The caller's conversations for one filter, page by page (`nextToken`), latest message first. */
export function useConversations(filter: { archived: boolean; search: string; patientId?: string }) {
  return useInfiniteQuery({
    queryKey: messageQueryKeys.list(filter),
    initialPageParam: null as string | null,
    getNextPageParam: (lastPage: { nextToken: string | null }) => lastPage.nextToken,
    placeholderData: keepPreviousData,
    queryFn: async ({ pageParam, signal }) =>
      (
        await graphqlRequest(
          `query Conversations($filter: ConversationFilterInput, $nextToken: String) { conversations(filter: $filter, limit: 50, nextToken: $nextToken) { items { ${CONVERSATION_FIELDS} } nextToken } }`,
          z.object({
            conversations: z.object({ items: z.array(ConversationSchema), nextToken: z.string().nullable() }),
          }),
          {
            nextToken: pageParam,
            filter: {
              archived: filter.archived,
              ...(filter.search ? { search: filter.search } : {}),
              ...(filter.patientId ? { patientId: filter.patientId } : {}),
            },
          },
          { signal },
        )
      ).conversations,
  });
}

export function useConversation(id: string | null) {
  return useQuery({
    queryKey: messageQueryKeys.thread(id ?? ''),
    enabled: !!id,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query Conversation($id: ID!) { conversation(id: $id) { ${CONVERSATION_FIELDS} messages { ${MESSAGE_FIELDS} } } }`,
          z.object({ conversation: ConversationSchema.extend({ messages: z.array(MessageSchema) }) }),
          { id },
          { signal },
        )
      ).conversation,
  });
}

function useInvalidateMessages() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: messageQueryKeys.all });
    void queryClient.invalidateQueries({ queryKey: UNREAD_MESSAGES_QUERY_KEY });
  };
}

export function useMarkConversationRead() {
  const invalidate = useInvalidateMessages();
  return useMutation({
    mutationFn: async (id: string) =>
      graphqlRequest(
        'mutation MarkConversationRead($id: ID!) { markConversationRead(id: $id) { id unreadCount } }',
        z.object({ markConversationRead: z.object({ id: z.string(), unreadCount: z.number() }) }),
        { id },
      ),
    onSuccess: invalidate,
  });
}

export function useArchiveConversation() {
  const invalidate = useInvalidateMessages();
  return useMutation({
    mutationFn: async (input: { id: string; archived: boolean }) =>
      graphqlRequest(
        'mutation ArchiveConversation($id: ID!, $archived: Boolean!) { archiveConversation(id: $id, archived: $archived) { id archived } }',
        z.object({ archiveConversation: z.object({ id: z.string(), archived: z.boolean() }) }),
        input,
      ),
    onSuccess: invalidate,
  });
}

export function useSendMessage() {
  const invalidate = useInvalidateMessages();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: (input: { conversationId: string; body: string; attachmentIds: string[] }) =>
      submission.send((idempotencyKey) =>
        graphqlRequest(
          `mutation SendMessage($input: SendMessageInput!) { sendMessage(input: $input) { ${MESSAGE_FIELDS} } }`,
          z.object({ sendMessage: MessageSchema }),
          { input },
          { idempotencyKey },
        ),
      ),
    onSuccess: invalidate,
  });
}

export function useStartConversation() {
  const invalidate = useInvalidateMessages();
  const submission = useSubmissionKey();
  return useMutation({
    mutationFn: (input: StartConversationInput) =>
      submission.send(
        async (idempotencyKey) =>
          (
            await graphqlRequest(
              `mutation StartConversation($input: StartConversationInput!) { startConversation(input: $input) { id } }`,
              z.object({ startConversation: z.object({ id: z.string() }) }),
              { input },
              { idempotencyKey },
            )
          ).startConversation,
      ),
    onSuccess: invalidate,
  });
}

const RecipientSchema = z.object({
  patientId: z.string(),
  kind: z.enum(['clinical', 'office']),
  name: z.string().nullable(),
});
export type MessageRecipient = z.infer<typeof RecipientSchema> & { kind: ConversationKind };

export function useMessageRecipients(search: string, enabled: boolean) {
  return useQuery({
    queryKey: messageQueryKeys.recipients(search),
    enabled,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          'query MessageRecipients($search: String) { messageRecipients(search: $search) { patientId kind name } }',
          z.object({ messageRecipients: z.array(RecipientSchema) }),
          { search: search || null },
          { signal },
        )
      ).messageRecipients,
  });
}

/** Why an upload failed: the server's error entry (translated by its message id), or none (the network). */
export class UploadError extends Error {
  readonly entry: GraphQLErrorEntry | null;
  constructor(entry: GraphQLErrorEntry | null) {
    super(entry?.message ?? 'upload failed');
    this.entry = entry;
  }
}

/** Uploads one file with the session cookie, reporting progress (0 to 1). */
export function uploadAttachment(file: File, onProgress: (fraction: number) => void): Promise<MessageAttachment> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('POST', MESSAGE_ATTACHMENTS_PATH);
    request.setRequestHeader('content-type', 'application/octet-stream');
    request.setRequestHeader(MESSAGE_ATTACHMENT_NAME_HEADER, encodeURIComponent(file.name));
    request.upload.onprogress = (event) => {
      if (event.lengthComputable) onProgress(event.loaded / event.total);
    };
    request.onload = () => {
      try {
        const body: unknown = JSON.parse(request.responseText);
        if (request.status === 201) {
          resolve(AttachmentSchema.parse(body));
          return;
        }
        const entry = z.object({ errors: z.array(z.custom<GraphQLErrorEntry>()) }).safeParse(body);
        reject(new UploadError(entry.success ? (entry.data.errors[0] ?? null) : null));
      } catch {
        reject(new UploadError(null));
      }
    };
    request.onerror = () => reject(new UploadError(null));
    request.send(file);
  });
}

export function attachmentUrl(id: string): string {
  return `${MESSAGE_ATTACHMENTS_PATH}/${encodeURIComponent(id)}`;
}
