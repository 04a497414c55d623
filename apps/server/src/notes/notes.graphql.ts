import type { noteTemplates } from './notes.table.ts';
import { tagsOf, type NoteView } from './notes.service.ts';
import { builder } from '../graphql/builder.ts';
import { idempotent } from '../graphql/idempotent.ts';
import { callerOf, type GraphQLContext } from '../graphql/context.ts';
import { DeletedRecordRef } from '../patients/patients.graphql.ts';

type AddendumView = Awaited<ReturnType<GraphQLContext['notes']['get']>>['addenda'][number];
type HistoryView = Awaited<ReturnType<GraphQLContext['notes']['history']>>;
type TemplateRow = typeof noteTemplates.$inferSelect;

const AddendumRef = builder.objectRef<AddendumView>('NoteAddendum').implement({
  description: 'An addendum to a signed note: signed and dated when written, never changed.',
  fields: (t) => ({
    id: t.exposeID('id'),
    noteVersion: t.exposeInt('noteVersion'),
    content: t.string({ resolve: (a) => a.content }),
    authorName: t.exposeString('authorName'),
    signedAt: t.string({ resolve: (a) => a.signedAt.toISOString() }),
  }),
});

/** A note as the caller may see it; with `addenda` when read one at a time. */
type NoteResult = NoteView & { addenda?: AddendumView[] };

const NoteRef = builder.objectRef<NoteResult>('Note').implement({
  description:
    'A clinical note. Content and tags are null where the caller may only see that it exists (administrators), and in lists for a psychotherapy note (read it with getNote).',
  fields: (t) => ({
    id: t.id({ resolve: (v) => v.record.note.id }),
    title: t.string({ resolve: (v) => v.record.note.title }),
    content: t.string({ nullable: true, resolve: (v) => (v.contentVisible ? v.record.note.content : null) }),
    tags: t.stringList({ nullable: true, resolve: (v) => (v.contentVisible ? tagsOf(v.record) : null) }),
    category: t.string({ resolve: (v) => v.record.note.category }),
    priority: t.string({ resolve: (v) => v.record.note.priority }),
    isPrivate: t.boolean({
      description: 'A psychotherapy note (HIPAA): readable by its author only, never part of the record.',
      resolve: (v) => v.record.note.isPrivate,
    }),
    patientId: t.id({ nullable: true, resolve: (v) => v.record.note.patientId }),
    patientName: t.string({ nullable: true, resolve: (v) => v.record.patientName }),
    appointmentId: t.id({ nullable: true, resolve: (v) => v.record.note.appointmentId }),
    templateId: t.id({
      nullable: true,
      description: 'The template the note was started from (the editor shows the record beside some).',
      resolve: (v) => v.record.note.templateId,
    }),
    owner: t.id({ description: "The author's account id.", resolve: (v) => v.record.note.authorId }),
    authorName: t.string({ resolve: (v) => v.record.authorName }),
    isAuthor: t.boolean({ resolve: (v) => v.isAuthor }),
    status: t.string({ description: 'draft or signed', resolve: (v) => (v.record.note.signedAt ? 'signed' : 'draft') }),
    version: t.int({ resolve: (v) => v.record.note.version }),
    signedAt: t.string({ nullable: true, resolve: (v) => v.record.note.signedAt?.toISOString() ?? null }),
    signedByName: t.string({ nullable: true, resolve: (v) => v.record.signedByName }),
    createdAt: t.string({ resolve: (v) => v.record.note.createdAt.toISOString() }),
    updatedAt: t.string({ resolve: (v) => v.record.note.updatedAt.toISOString() }),
    addendumCount: t.int({
      description: 'How many addenda the note has (0 where its content is withheld).',
      resolve: (v) => (v.contentVisible ? v.record.addendumCount : 0),
    }),
    addenda: t.field({
      type: [AddendumRef],
      nullable: true,
      description: 'Oldest first; only when the note is read with getNote (null in lists).',
      resolve: (v) => v.addenda ?? null,
    }),
  }),
});

const NoteListRef = builder.objectRef<{ items: NoteView[]; nextToken: string | null }>('NoteList').implement({
  fields: (t) => ({
    items: t.field({ type: [NoteRef], resolve: (l) => l.items }),
    nextToken: t.exposeString('nextToken', { nullable: true }),
  }),
});

const NoteStatsRef = builder
  .objectRef<{ total: number; medical: number; highPriority: number; private: number }>('NoteStats')
  .implement({
    description: "The specification's stats over every note the caller may see.",
    fields: (t) => ({
      total: t.exposeInt('total'),
      medical: t.exposeInt('medical'),
      highPriority: t.exposeInt('highPriority', { description: 'high or urgent' }),
      private: t.exposeInt('private', { description: "The caller's psychotherapy notes." }),
    }),
  });

const NoteVersionRef = builder.objectRef<HistoryView['versions'][number]>('NoteVersion').implement({
  description: 'A signed version of a note, as it was signed.',
  fields: (t) => ({
    version: t.exposeInt('version'),
    title: t.string({ resolve: (v) => v.title }),
    content: t.string({ resolve: (v) => v.content }),
    tags: t.stringList({ resolve: (v) => JSON.parse(v.tags) as string[] }),
    category: t.exposeString('category'),
    priority: t.exposeString('priority'),
    signedAt: t.string({ resolve: (v) => v.signedAt.toISOString() }),
    signedByName: t.exposeString('signedByName'),
  }),
});

const NoteUnlockRef = builder.objectRef<HistoryView['unlocks'][number]>('NoteUnlock').implement({
  fields: (t) => ({
    version: t.exposeInt('version', { description: 'The signed version that was unlocked.' }),
    reason: t.string({ resolve: (u) => u.reason }),
    unlockedByName: t.exposeString('unlockedByName'),
    unlockedAt: t.string({ resolve: (u) => u.unlockedAt.toISOString() }),
  }),
});

const NoteHistoryRef = builder.objectRef<HistoryView>('NoteHistory').implement({
  fields: (t) => ({
    versions: t.field({ type: [NoteVersionRef], resolve: (h) => h.versions }),
    unlocks: t.field({ type: [NoteUnlockRef], resolve: (h) => h.unlocks }),
  }),
});

const PsychotherapyNoteActivityRef = builder
  .objectRef<{ at: Date; event: string; action: string | null }>('PsychotherapyNoteActivity')
  .implement({
    description: 'One audit entry about a psychotherapy note, as only its author reads it.',
    fields: (t) => ({
      at: t.string({ resolve: (a) => a.at.toISOString() }),
      event: t.exposeString('event'),
      action: t.exposeString('action', {
        nullable: true,
        description: 'create, update, read, list, history, activity, sign, unlock, addendum or delete.',
      }),
    }),
  });

const NoteTemplateRef = builder.objectRef<TemplateRow>('NoteTemplate').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    key: t.exposeString('key', {
      nullable: true,
      description:
        'Set for the built-in templates (soap, psychiatricEvaluation, riskAssessment, dap, medicationManagement).',
    }),
    name: t.exposeString('name'),
    body: t.exposeString('body'),
    category: t.exposeString('category'),
    isActive: t.exposeBoolean('isActive'),
  }),
});

const NoteFilterInput = builder.inputType('NoteFilterInput', {
  fields: (t) => ({
    search: t.string({ description: 'Whole words or their beginnings, all of them.' }),
    category: t.string(),
    priority: t.string(),
    patientId: t.id(),
    status: t.string({ description: 'draft or signed' }),
  }),
});

const noteFields = (t: Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0]) => ({
  title: t.string(),
  content: t.string(),
  category: t.string({ description: 'Default general.' }),
  priority: t.string({ description: 'Default medium.' }),
  tags: t.stringList(),
  patientId: t.id(),
  appointmentId: t.id(),
  isPrivate: t.boolean({ description: 'A psychotherapy note: readable by its author only.' }),
  templateId: t.id(),
});

const CreateNoteInput = builder.inputType('CreateNoteInput', { fields: (t) => noteFields(t) });
const UpdateNoteInput = builder.inputType('UpdateNoteInput', {
  description: 'The whole draft as the editor holds it.',
  fields: (t) => ({ id: t.id({ required: true }), ...noteFields(t) }),
});
const SignNoteInput = builder.inputType('SignNoteInput', {
  description: 'The password, or a current authenticator code, re-entered.',
  fields: (t) => ({ id: t.id({ required: true }), password: t.string(), code: t.string() }),
});
const AddNoteAddendumInput = builder.inputType('AddNoteAddendumInput', {
  fields: (t) => ({
    noteId: t.id({ required: true }),
    content: t.string(),
    password: t.string(),
    code: t.string(),
  }),
});
const UnlockNoteInput = builder.inputType('UnlockNoteInput', {
  fields: (t) => ({ id: t.id({ required: true }), reason: t.string() }),
});
const NoteTemplateInput = builder.inputType('NoteTemplateInput', {
  description: 'Without id: a new template.',
  fields: (t) => ({
    id: t.id(),
    name: t.string(),
    body: t.string(),
    category: t.string(),
    isActive: t.boolean(),
  }),
});

const plain = (input: object) => ({ ...input });

builder.queryFields((t) => ({
  listNotes: t.field({
    type: NoteListRef,
    args: { limit: t.arg.int(), nextToken: t.arg.string(), filter: t.arg({ type: NoteFilterInput }) },
    resolve: (_root, args, ctx) =>
      ctx.notes.list(callerOf(ctx, 'listNotes'), { ...args, filter: args.filter ? plain(args.filter) : null }),
  }),
  noteStats: t.field({
    type: NoteStatsRef,
    resolve: (_root, _args, ctx) => ctx.notes.stats(callerOf(ctx, 'noteStats')),
  }),
  getNote: t.field({
    type: NoteRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.notes.get(callerOf(ctx, 'getNote'), String(args.id)),
  }),
  noteHistory: t.field({
    type: NoteHistoryRef,
    description: 'Every signed version and unlock of a note, oldest first.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.notes.history(callerOf(ctx, 'noteHistory'), String(args.id)),
  }),
  psychotherapyNoteActivity: t.field({
    type: [PsychotherapyNoteActivityRef],
    description:
      "What the audit trail holds about one of the caller's own psychotherapy notes, oldest first (the author only: these entries are sealed for the author, decision 027).",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.notes.psychotherapyActivity(callerOf(ctx, 'psychotherapyNoteActivity'), String(args.id)),
  }),
  noteTemplates: t.field({
    type: [NoteTemplateRef],
    resolve: (_root, _args, ctx) => ctx.notes.templates(callerOf(ctx, 'noteTemplates')),
  }),
}));

builder.mutationFields((t) => ({
  createNote: t.field({
    type: NoteRef,
    args: { input: t.arg({ type: CreateNoteInput, required: true }) },
    resolve: idempotent('createNote', {
      run: (caller, args: { input: object }, ctx) => ctx.notes.create(caller, plain(args.input)),
      replay: (caller, id, _args, ctx) => ctx.notes.get(caller, id),
    }),
  }),
  updateNote: t.field({
    type: NoteRef,
    args: { input: t.arg({ type: UpdateNoteInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.notes.update(callerOf(ctx, 'updateNote'), plain(args.input)),
  }),
  deleteNote: t.field({
    type: DeletedRecordRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.notes.delete(callerOf(ctx, 'deleteNote'), String(args.id)),
  }),
  signNote: t.field({
    type: NoteRef,
    args: { input: t.arg({ type: SignNoteInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.notes.sign(callerOf(ctx, 'signNote'), ctx.meta, plain(args.input)),
  }),
  unlockNote: t.field({
    type: NoteRef,
    args: { input: t.arg({ type: UnlockNoteInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.notes.unlock(callerOf(ctx, 'unlockNote'), plain(args.input)),
  }),
  addNoteAddendum: t.field({
    type: NoteRef,
    args: { input: t.arg({ type: AddNoteAddendumInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.notes.addAddendum(callerOf(ctx, 'addNoteAddendum'), ctx.meta, plain(args.input)),
  }),
  saveNoteTemplate: t.field({
    type: NoteTemplateRef,
    description: 'Administrators: add or change a template of the practice.',
    args: { input: t.arg({ type: NoteTemplateInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.notes.saveTemplate(callerOf(ctx, 'saveNoteTemplate'), plain(args.input)),
  }),
}));
