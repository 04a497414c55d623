import {
  infiniteQueryOptions,
  keepPreviousData,
  queryOptions,
  useInfiniteQuery,
  useMutation,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query';
import type { NoteInput, NoteTemplateInput } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';
import { useSubmissionKey } from '../../../lib/submission-key.ts';

/** What the list asks the server for: every filter is applied there. */
export interface NoteListFilter {
  search: string;
  category: string | null;
  priority: string | null;
  patientId?: string | null;
}

function toFilterInput(filter: NoteListFilter) {
  return {
    search: filter.search.trim() || null,
    category: filter.category,
    priority: filter.priority,
    patientId: filter.patientId ?? null,
  };
}

export const noteQueryKeys = {
  all: ['notes'] as const,
  list: (filter: NoteListFilter) => ['notes', 'list', toFilterInput(filter)] as const,
  stats: ['notes', 'stats'] as const,
  detail: (id: string) => ['notes', 'detail', id] as const,
  history: (id: string) => ['notes', 'history', id] as const,
  templates: ['notes', 'templates'] as const,
};

const AddendumSchema = z.object({
  id: z.string(),
  noteVersion: z.number(),
  content: z.string(),
  authorName: z.string(),
  signedAt: z.string(),
});
export type NoteAddendum = z.infer<typeof AddendumSchema>;

const NoteSchema = z.object({
  id: z.string(),
  title: z.string(),
  content: z.string().nullable(),
  tags: z.array(z.string()).nullable(),
  category: z.string(),
  priority: z.string(),
  isPrivate: z.boolean(),
  patientId: z.string().nullable(),
  patientName: z.string().nullable(),
  appointmentId: z.string().nullable(),
  templateId: z.string().nullable(),
  authorName: z.string(),
  isAuthor: z.boolean(),
  status: z.enum(['draft', 'signed']),
  version: z.number(),
  signedAt: z.string().nullable(),
  signedByName: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  addendumCount: z.number(),
  addenda: z.array(AddendumSchema).nullable(),
});
export type Note = z.infer<typeof NoteSchema>;

const NOTE_FIELDS = `id title content tags category priority isPrivate patientId patientName appointmentId templateId authorName
  isAuthor status version signedAt signedByName createdAt updatedAt addendumCount`;
const NOTE_WITH_ADDENDA = `${NOTE_FIELDS} addenda { id noteVersion content authorName signedAt }`;

const NotePageSchema = z.object({
  items: z.array(NoteSchema.extend({ addenda: z.null() })),
  nextToken: z.string().nullable(),
});

export const NOTE_PAGE_SIZE = 24;

export function noteListQueryOptions(filter: NoteListFilter) {
  return infiniteQueryOptions({
    queryKey: noteQueryKeys.list(filter),
    queryFn: async ({ pageParam, signal }) => {
      const data = await graphqlRequest(
        `query ListNotes($limit: Int, $nextToken: String, $filter: NoteFilterInput) {
          listNotes(limit: $limit, nextToken: $nextToken, filter: $filter) { items { ${NOTE_FIELDS} addenda { id } } nextToken } }`,
        z.object({ listNotes: NotePageSchema }),
        { limit: NOTE_PAGE_SIZE, nextToken: pageParam, filter: toFilterInput(filter) },
        { signal },
      );
      return data.listNotes;
    },
    initialPageParam: null as string | null,
    getNextPageParam: (page) => page.nextToken,
  });
}

/** The notes the caller may see, page by page, filtered on the server; the old results stay while a new search loads. */
export function useNoteList(filter: NoteListFilter) {
  return useInfiniteQuery({ ...noteListQueryOptions(filter), placeholderData: keepPreviousData });
}

const StatsSchema = z.object({ total: z.number(), medical: z.number(), highPriority: z.number(), private: z.number() });

export function useNoteStats() {
  return useQuery({
    queryKey: noteQueryKeys.stats,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          'query NoteStats { noteStats { total medical highPriority private } }',
          z.object({ noteStats: StatsSchema }),
          {},
          { signal },
        )
      ).noteStats,
  });
}

export function noteQueryOptions(id: string) {
  return queryOptions({
    queryKey: noteQueryKeys.detail(id),
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query GetNote($id: ID!) { getNote(id: $id) { ${NOTE_WITH_ADDENDA} } }`,
          z.object({ getNote: NoteSchema }),
          { id },
          { signal },
        )
      ).getNote,
  });
}

export function useNote(id: string | null) {
  return useQuery({ ...noteQueryOptions(id ?? ''), enabled: id !== null });
}

const HistorySchema = z.object({
  versions: z.array(
    z.object({
      version: z.number(),
      title: z.string(),
      content: z.string(),
      tags: z.array(z.string()),
      signedAt: z.string(),
      signedByName: z.string(),
    }),
  ),
  unlocks: z.array(
    z.object({ version: z.number(), reason: z.string(), unlockedByName: z.string(), unlockedAt: z.string() }),
  ),
});
export type NoteHistory = z.infer<typeof HistorySchema>;

export function useNoteHistory(id: string, enabled: boolean) {
  return useQuery({
    queryKey: noteQueryKeys.history(id),
    enabled,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query NoteHistory($id: ID!) { noteHistory(id: $id) {
            versions { version title content tags signedAt signedByName } unlocks { version reason unlockedByName unlockedAt } } }`,
          z.object({ noteHistory: HistorySchema }),
          { id },
          { signal },
        )
      ).noteHistory,
  });
}

const TemplateSchema = z.object({
  id: z.string(),
  key: z.string().nullable(),
  name: z.string(),
  body: z.string(),
  category: z.string(),
  isActive: z.boolean(),
});
export type NoteTemplate = z.infer<typeof TemplateSchema>;

export function useNoteTemplates() {
  return useQuery({
    queryKey: noteQueryKeys.templates,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          'query NoteTemplates { noteTemplates { id key name body category isActive } }',
          z.object({ noteTemplates: z.array(TemplateSchema) }),
          {},
          { signal },
        )
      ).noteTemplates,
    staleTime: 5 * 60_000,
  });
}

/** Every change to a note reloads the lists and the stats, and keeps the note as the server answered it. */
function useNoteMutation<TInput>(run: (input: TInput) => Promise<Note>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: run,
    onSuccess: (note) => {
      queryClient.setQueryData(noteQueryKeys.detail(note.id), note);
      return queryClient.invalidateQueries({ queryKey: noteQueryKeys.all });
    },
  });
}

export function useCreateNote() {
  const submission = useSubmissionKey();
  return useNoteMutation((input: NoteInput) =>
    submission.send(async (idempotencyKey) => {
      const data = await graphqlRequest(
        `mutation CreateNote($input: CreateNoteInput!) { createNote(input: $input) { ${NOTE_WITH_ADDENDA} } }`,
        z.object({ createNote: NoteSchema }),
        { input },
        { idempotencyKey },
      );
      return data.createNote;
    }),
  );
}

export function useUpdateNote() {
  return useNoteMutation(async (input: NoteInput & { id: string }) => {
    const data = await graphqlRequest(
      `mutation UpdateNote($input: UpdateNoteInput!) { updateNote(input: $input) { ${NOTE_WITH_ADDENDA} } }`,
      z.object({ updateNote: NoteSchema }),
      { input },
    );
    return data.updateNote;
  });
}

export interface IdentityProof {
  password?: string | null;
  code?: string | null;
}

export function useSignNote() {
  return useNoteMutation(async (input: { id: string } & IdentityProof) => {
    const data = await graphqlRequest(
      `mutation SignNote($input: SignNoteInput!) { signNote(input: $input) { ${NOTE_WITH_ADDENDA} } }`,
      z.object({ signNote: NoteSchema }),
      { input },
    );
    return data.signNote;
  });
}

export function useUnlockNote() {
  return useNoteMutation(async (input: { id: string; reason: string }) => {
    const data = await graphqlRequest(
      `mutation UnlockNote($input: UnlockNoteInput!) { unlockNote(input: $input) { ${NOTE_WITH_ADDENDA} } }`,
      z.object({ unlockNote: NoteSchema }),
      { input },
    );
    return data.unlockNote;
  });
}

export function useAddAddendum() {
  return useNoteMutation(async (input: { noteId: string; content: string } & IdentityProof) => {
    const data = await graphqlRequest(
      `mutation AddNoteAddendum($input: AddNoteAddendumInput!) { addNoteAddendum(input: $input) { ${NOTE_WITH_ADDENDA} } }`,
      z.object({ addNoteAddendum: NoteSchema }),
      { input },
    );
    return data.addNoteAddendum;
  });
}

export function useDeleteNote() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (id: string) =>
      (
        await graphqlRequest(
          'mutation DeleteNote($id: ID!) { deleteNote(id: $id) { id } }',
          z.object({ deleteNote: z.object({ id: z.string() }) }),
          { id },
        )
      ).deleteNote,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: noteQueryKeys.all }),
  });
}

export function useSaveTemplate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: NoteTemplateInput) =>
      (
        await graphqlRequest(
          'mutation SaveNoteTemplate($input: NoteTemplateInput!) { saveNoteTemplate(input: $input) { id key name body category isActive } }',
          z.object({ saveNoteTemplate: TemplateSchema }),
          { input },
        )
      ).saveNoteTemplate,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: noteQueryKeys.templates }),
  });
}

const PatientAppointmentSchema = z.object({ id: z.string(), date: z.string(), time: z.string(), status: z.string() });

/** The chosen patient's appointments, for the note's appointment choice (the editor orders them). */
export function usePatientAppointments(patientId: string | null) {
  return useQuery({
    queryKey: ['appointments', 'for-note', patientId],
    enabled: !!patientId,
    queryFn: async ({ signal }) =>
      (
        await graphqlRequest(
          `query NoteAppointments($filter: AppointmentFilterInput) { listAppointments(filter: $filter, limit: 100) { items { id date time status } } }`,
          z.object({ listAppointments: z.object({ items: z.array(PatientAppointmentSchema) }) }),
          { filter: { patientId } },
          { signal },
        )
      ).listAppointments.items,
  });
}
