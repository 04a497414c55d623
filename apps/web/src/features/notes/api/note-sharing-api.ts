import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

// A provider shares a signed note with its patient from the reader (decision 031).

const NoteSharingSchema = z.object({
  shareable: z.boolean(),
  sharedAt: z.string().nullable(),
  sharedByName: z.string().nullable(),
});
export type NoteSharing = z.infer<typeof NoteSharingSchema>;
const FIELDS = 'shareable sharedAt sharedByName';
const sharingKey = (noteId: string) => ['notes', 'sharing', noteId] as const;

export function useNoteSharing(noteId: string, enabled: boolean) {
  return useQuery({
    queryKey: sharingKey(noteId),
    enabled,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query NoteSharing($noteId: ID!) { noteSharing(noteId: $noteId) { ${FIELDS} } }`,
          z.object({ noteSharing: NoteSharingSchema }),
          { noteId },
          { signal },
        )
      ).noteSharing,
  });
}

export function useSetNoteSharing(noteId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (share: boolean) =>
      share
        ? (
            await graphqlRequest(
              `mutation ShareNote($noteId: ID!) { shareNote(noteId: $noteId) { ${FIELDS} } }`,
              z.object({ shareNote: NoteSharingSchema }),
              { noteId },
            )
          ).shareNote
        : (
            await graphqlRequest(
              `mutation UnshareNote($noteId: ID!) { unshareNote(noteId: $noteId) { ${FIELDS} } }`,
              z.object({ unshareNote: NoteSharingSchema }),
              { noteId },
            )
          ).unshareNote,
    onSuccess: (sharing) => queryClient.setQueryData(sharingKey(noteId), sharing),
  });
}
