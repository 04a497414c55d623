import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from './graphql.ts';
import { useLiveMessages } from './live-channel.ts';

/** The header's unread badge (the messages feature invalidates it too). */
export const UNREAD_MESSAGES_QUERY_KEY = ['messages', 'unread'] as const;

/** The signed-in person's unread messages; a new message or a read elsewhere updates it without a reload. */
export function useUnreadMessageCount(enabled: boolean): number {
  const queryClient = useQueryClient();
  useLiveMessages((message) => {
    if (message.type === 'message-new' || message.type === 'messages-read')
      void queryClient.invalidateQueries({ queryKey: UNREAD_MESSAGES_QUERY_KEY });
  }, enabled);
  const query = useQuery({
    queryKey: UNREAD_MESSAGES_QUERY_KEY,
    enabled,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          'query UnreadMessageCount { unreadMessageCount }',
          z.object({ unreadMessageCount: z.number() }),
          {},
          { signal },
        )
      ).unreadMessageCount,
  });
  return query.data ?? 0;
}
