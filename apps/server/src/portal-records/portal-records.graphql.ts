import type { MyAccount } from '../auth/account.service.ts';
import { unauthenticated } from '../errors.ts';
import type { CorrectionRecord } from './portal-records.repository.ts';
import type { RecordAccessEntry, SharedNoteView } from './portal-records.service.ts';
import { tagsOf } from '../notes/notes.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf, type GraphQLContext } from '../graphql/context.ts';
import { PatientRef } from '../patients/patients.graphql.ts';

// The patient portal's My Records, Who viewed my record and My account (decision 031).

type SharedAddendum = NonNullable<SharedNoteView['addenda']>[number];

const SharedNoteAddendumRef = builder.objectRef<SharedAddendum>('SharedNoteAddendum').implement({
  fields: (t) => ({
    id: t.exposeID('id'),
    content: t.string({ resolve: (a) => a.content }),
    authorName: t.exposeString('authorName'),
    signedAt: t.string({ resolve: (a) => a.signedAt.toISOString() }),
  }),
});

const SharedNoteRef = builder.objectRef<SharedNoteView>('SharedNote').implement({
  description:
    'A signed note (never a psychotherapy note) a provider shared with the patient. Content and addenda only when read with sharedNote.',
  fields: (t) => ({
    id: t.id({ resolve: (v) => v.record.note.id }),
    title: t.string({ resolve: (v) => v.record.note.title }),
    content: t.string({ nullable: true, resolve: (v) => (v.addenda ? v.record.note.content : null) }),
    tags: t.stringList({ nullable: true, resolve: (v) => (v.addenda ? tagsOf(v.record) : null) }),
    category: t.string({ resolve: (v) => v.record.note.category }),
    authorName: t.string({ resolve: (v) => v.record.authorName }),
    signedAt: t.string({ nullable: true, resolve: (v) => v.record.note.signedAt?.toISOString() ?? null }),
    signedByName: t.string({ nullable: true, resolve: (v) => v.record.signedByName }),
    sharedAt: t.string({ nullable: true, resolve: (v) => v.sharedAt?.toISOString() ?? null }),
    addendumCount: t.int({ resolve: (v) => v.record.addendumCount }),
    addenda: t.field({ type: [SharedNoteAddendumRef], nullable: true, resolve: (v) => v.addenda }),
  }),
});

const SharedNoteListRef = builder
  .objectRef<{ items: SharedNoteView[]; nextToken: string | null }>('SharedNoteList')
  .implement({
    fields: (t) => ({
      items: t.field({ type: [SharedNoteRef], resolve: (l) => l.items }),
      nextToken: t.exposeString('nextToken', { nullable: true }),
    }),
  });

const NoteSharingRef = builder
  .objectRef<Awaited<ReturnType<GraphQLContext['portalRecords']['noteSharing']>>>('NoteSharing')
  .implement({
    description: 'Whether a note is shared with its patient (a provider sees it in the note reader).',
    fields: (t) => ({
      noteId: t.exposeID('noteId'),
      shareable: t.boolean({
        description: 'A signed note about a patient that is not a psychotherapy note.',
        resolve: (s) => s.shareable,
      }),
      sharedAt: t.string({ nullable: true, resolve: (s) => s.sharedAt?.toISOString() ?? null }),
      sharedByName: t.string({ nullable: true, resolve: (s) => s.sharedByName }),
    }),
  });

const RecordCorrectionRef = builder.objectRef<CorrectionRecord>('RecordCorrection').implement({
  description: "A patient's request to correct their record and the practice's answer (45 CFR 164.526).",
  fields: (t) => ({
    id: t.id({ resolve: (c) => c.correction.id }),
    patientId: t.id({ resolve: (c) => c.correction.patientId }),
    field: t.string({ resolve: (c) => c.correction.field }),
    request: t.string({ resolve: (c) => c.correction.request }),
    status: t.string({ description: 'pending, accepted or declined', resolve: (c) => c.correction.status }),
    response: t.string({ nullable: true, resolve: (c) => c.correction.response }),
    answeredByName: t.string({ nullable: true, resolve: (c) => c.answeredByName }),
    answeredAt: t.string({ nullable: true, resolve: (c) => c.correction.answeredAt?.toISOString() ?? null }),
    createdAt: t.string({ resolve: (c) => c.correction.createdAt.toISOString() }),
  }),
});

const RecordAccessEntryRef = builder.objectRef<RecordAccessEntry>('RecordAccessEntry').implement({
  description: 'Someone of the practice read or changed the patient’s record.',
  fields: (t) => ({
    id: t.exposeID('id'),
    timestamp: t.exposeString('timestamp'),
    kind: t.string({ description: 'What was done: viewed, updated, noteRead, listed, ...', resolve: (e) => e.kind }),
    actorName: t.string({ nullable: true, resolve: (e) => e.actorName }),
    actorRole: t.exposeString('actorRole', { description: 'provider or admin' }),
  }),
});

const RecordAccessPageRef = builder
  .objectRef<{ items: RecordAccessEntry[]; nextToken: string | null }>('RecordAccessPage')
  .implement({
    fields: (t) => ({
      items: t.field({ type: [RecordAccessEntryRef], resolve: (p) => p.items }),
      nextToken: t.exposeString('nextToken', { nullable: true }),
    }),
  });

const MyAccountRef = builder.objectRef<MyAccount>('MyAccount').implement({
  fields: (t) => ({
    email: t.exposeString('email', { description: 'The sign-in name; changed through the practice.' }),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    role: t.exposeString('role'),
    language: t.exposeString('language', { description: 'en or es: the e-mails follow it.' }),
    languageChosen: t.exposeBoolean('languageChosen', {
      description: 'Chosen in My account: the app follows it after sign-in (until then, the browser’s choice).',
    }),
    phone: t.exposeString('phone', { nullable: true }),
    hasPatientRecord: t.exposeBoolean('hasPatientRecord'),
    twoFactorEnabled: t.exposeBoolean('twoFactorEnabled'),
    otherSessions: t.exposeInt('otherSessions'),
  }),
});

const SessionsEndedRef = builder.objectRef<{ sessionsEnded: number }>('SessionsEnded').implement({
  fields: (t) => ({ sessionsEnded: t.exposeInt('sessionsEnded') }),
});

const RecordCorrectionInput = builder.inputType('RecordCorrectionInput', {
  fields: (t) => ({
    patientId: t.id({ description: "The patient's own record (the one linked to the account, the default)." }),
    field: t.string({ required: true }),
    request: t.string({ required: true }),
  }),
});
const AnswerRecordCorrectionInput = builder.inputType('AnswerRecordCorrectionInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    decision: t.string({ required: true, description: 'accepted or declined' }),
    response: t.string({ description: 'Required to decline: the reason the patient reads.' }),
  }),
});
const UpdateMyAccountInput = builder.inputType('UpdateMyAccountInput', {
  fields: (t) => ({
    language: t.string(),
    firstName: t.string(),
    lastName: t.string(),
    phone: t.string(),
  }),
});
const ChangePasswordInput = builder.inputType('ChangePasswordInput', {
  fields: (t) => ({
    currentPassword: t.string({ required: true }),
    newPassword: t.string({ required: true }),
  }),
});

function sessionOf(ctx: GraphQLContext) {
  if (!ctx.session) throw unauthenticated();
  return ctx.session;
}

builder.queryFields((t) => ({
  myPatientRecord: t.field({
    type: PatientRef,
    description: "The signed-in patient's own record (read only). Audited as PATIENT_VIEW.",
    resolve: (_root, _args, ctx) => ctx.portalRecords.myRecord(callerOf(ctx, 'myPatientRecord')),
  }),
  sharedNotes: t.field({
    type: SharedNoteListRef,
    description: 'The notes providers shared with the signed-in patient, newest first (titles; no content).',
    args: { limit: t.arg.int(), nextToken: t.arg.string() },
    resolve: (_root, args, ctx) => ctx.portalRecords.sharedNotes(callerOf(ctx, 'sharedNotes'), args),
  }),
  sharedNote: t.field({
    type: SharedNoteRef,
    description: 'One note shared with the signed-in patient, with its signed addenda. Every reading is audited.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.portalRecords.sharedNote(callerOf(ctx, 'sharedNote'), String(args.id)),
  }),
  noteSharing: t.field({
    type: NoteSharingRef,
    description: 'Providers: whether a note is shared with its patient.',
    args: { noteId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.portalRecords.noteSharing(callerOf(ctx, 'noteSharing'), String(args.noteId)),
  }),
  myRecordCorrections: t.field({
    type: [RecordCorrectionRef],
    description: "The signed-in patient's correction requests and their answers, newest first.",
    resolve: (_root, _args, ctx) => ctx.portalRecords.myCorrections(callerOf(ctx, 'myRecordCorrections')),
  }),
  recordCorrections: t.field({
    type: [RecordCorrectionRef],
    description: "The care team: a patient's correction requests, newest first.",
    args: { patientId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.portalRecords.patientCorrections(callerOf(ctx, 'recordCorrections'), String(args.patientId)),
  }),
  recordAccessLog: t.field({
    type: RecordAccessPageRef,
    description:
      "Who viewed my record: who of the practice read or changed the signed-in patient's record, newest first. Audited.",
    args: {
      patientId: t.arg.id({ description: "The patient's own record (the one linked to the account, the default)." }),
      limit: t.arg.int(),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      ctx.portalRecords.recordAccessLog(callerOf(ctx, 'recordAccessLog'), {
        ...args,
        patientId: args.patientId == null ? null : String(args.patientId),
      }),
  }),
  myAccount: t.field({
    type: MyAccountRef,
    description: "The signed-in person's account: name, contact, language, two-factor, other sessions.",
    resolve: (_root, _args, ctx) => ctx.account.myAccount(sessionOf(ctx)),
  }),
}));

builder.mutationFields((t) => ({
  shareNote: t.field({
    type: NoteSharingRef,
    description:
      'Providers: share a signed note with its patient. A psychotherapy note or a draft is refused (BAD_USER_INPUT).',
    args: { noteId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.portalRecords.shareNote(callerOf(ctx, 'shareNote'), String(args.noteId)),
  }),
  unshareNote: t.field({
    type: NoteSharingRef,
    description: 'Providers: stop sharing a note with its patient.',
    args: { noteId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.portalRecords.unshareNote(callerOf(ctx, 'unshareNote'), String(args.noteId)),
  }),
  requestRecordCorrection: t.field({
    type: RecordCorrectionRef,
    description: 'A patient asks for a correction of their record; the practice answers within 60 days.',
    args: { input: t.arg({ type: RecordCorrectionInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.portalRecords.requestCorrection(callerOf(ctx, 'requestRecordCorrection'), {
        ...args.input,
        patientId: args.input.patientId == null ? null : String(args.input.patientId),
      }),
  }),
  answerRecordCorrection: t.field({
    type: RecordCorrectionRef,
    description: 'The care team accepts or declines (with the reason) a correction request.',
    args: { input: t.arg({ type: AnswerRecordCorrectionInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.portalRecords.answerCorrection(callerOf(ctx, 'answerRecordCorrection'), { ...args.input }),
  }),
  updateMyAccount: t.field({
    type: MyAccountRef,
    description:
      'Changes the language (everyone), the name (staff) or the phone (a patient, on their record). Audited.',
    args: { input: t.arg({ type: UpdateMyAccountInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.account.updateMyAccount(sessionOf(ctx), ctx.meta, { ...args.input }),
  }),
  changePassword: t.field({
    type: SessionsEndedRef,
    description:
      'Changes the password: the current one is checked (a wrong one counts toward the lockout); every other session ends.',
    args: { input: t.arg({ type: ChangePasswordInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.account.changePassword(sessionOf(ctx), ctx.meta, { ...args.input }),
  }),
  signOutEverywhereElse: t.field({
    type: SessionsEndedRef,
    description: 'Ends every other session of the signed-in account at once (their live channels close); not this one.',
    resolve: (_root, _args, ctx) => ctx.account.signOutEverywhereElse(sessionOf(ctx), ctx.meta),
  }),
}));
