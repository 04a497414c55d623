import type { DocumentRecord, PatientDocument, SignatureRecord, VersionRecord } from './practice-documents.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

const PracticeDocumentVersionRef = builder.objectRef<VersionRecord>('PracticeDocumentVersion').implement({
  description: 'A version of a practice document: its texts (Markdown), never changed once saved (decision 066).',
  fields: (t) => ({
    id: t.id({ resolve: (v) => v.row.id }),
    documentId: t.id({ resolve: (v) => v.row.documentId }),
    version: t.int({ resolve: (v) => v.row.version }),
    titleEn: t.string({ resolve: (v) => v.row.titleEn }),
    titleEs: t.string({ nullable: true, resolve: (v) => v.row.titleEs ?? null }),
    bodyEn: t.string({ description: 'Markdown', resolve: (v) => v.row.bodyEn }),
    bodyEs: t.string({ nullable: true, description: 'Markdown', resolve: (v) => v.row.bodyEs ?? null }),
    textHash: t.string({ description: 'SHA-256 (hex) of the exact texts', resolve: (v) => v.row.textHash }),
    resignRequired: t.boolean({
      description: 'Whether signatures of earlier versions stopped holding with this one',
      resolve: (v) => v.row.resignRequired,
    }),
    createdByName: t.string({ nullable: true, resolve: (v) => v.createdByName }),
    createdAt: t.string({ resolve: (v) => v.row.createdAt.toISOString() }),
  }),
});

const PracticeDocumentRef = builder.objectRef<DocumentRecord>('PracticeDocument').implement({
  description: 'A document of the practice (consent, notice, policy) with its current version (decision 066).',
  fields: (t) => ({
    id: t.id({ resolve: (d) => d.document.id }),
    kind: t.string({
      description: 'telehealth-consent, privacy-notice, financial-policy, cancellation-policy or custom',
      resolve: (d) => d.document.kind,
    }),
    requiresSignature: t.boolean({ resolve: (d) => d.document.requiresSignature }),
    active: t.boolean({ resolve: (d) => d.document.active }),
    updatedAt: t.string({ resolve: (d) => d.document.updatedAt.toISOString() }),
    currentVersion: t.field({ type: PracticeDocumentVersionRef, resolve: (d) => d.current }),
  }),
});

const PracticeDocumentSignatureRef = builder.objectRef<SignatureRecord>('PracticeDocumentSignature').implement({
  description: 'A patient’s signature of one version: electronic (typed name) or a paper copy recorded by staff.',
  fields: (t) => ({
    id: t.id({ resolve: (s) => s.row.id }),
    documentId: t.id({ resolve: (s) => s.row.documentId }),
    versionId: t.id({ resolve: (s) => s.row.versionId }),
    version: t.int({ resolve: (s) => s.version }),
    textHash: t.string({ resolve: (s) => s.row.textHash }),
    method: t.string({ description: 'electronic or paper', resolve: (s) => s.row.method }),
    signedAt: t.string({
      description: 'When it was signed, or recorded (paper)',
      resolve: (s) => s.row.signedAt.toISOString(),
    }),
    typedName: t.string({ nullable: true, resolve: (s) => s.row.typedName ?? null }),
    paperSignedOn: t.string({ nullable: true, resolve: (s) => s.row.paperSignedOn }),
    recordedByName: t.string({ nullable: true, resolve: (s) => s.recordedByName }),
  }),
});

const PatientPracticeDocumentRef = builder.objectRef<PatientDocument>('PatientPracticeDocument').implement({
  description: 'Where a patient stands with a practice document.',
  fields: (t) => ({
    document: t.field({ type: PracticeDocumentRef, resolve: (p) => p.document }),
    status: t.string({ description: 'to-sign, signed, newer-version or read-only', resolve: (p) => p.status }),
    validSignature: t.field({ type: PracticeDocumentSignatureRef, nullable: true, resolve: (p) => p.validSignature }),
    signatures: t.field({ type: [PracticeDocumentSignatureRef], resolve: (p) => p.signatures }),
  }),
});

const documentTextFields = (t: PothosInputFieldBuilder) => ({
  titleEn: t.string({ required: true }),
  titleEs: t.string(),
  bodyEn: t.string({ required: true }),
  bodyEs: t.string(),
  requiresSignature: t.boolean({ required: true }),
  active: t.boolean({ required: true }),
});
type PothosInputFieldBuilder = Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0];

const CreatePracticeDocumentInput = builder.inputType('CreatePracticeDocumentInput', {
  fields: (t) => ({ kind: t.string({ required: true }), ...documentTextFields(t) }),
});

const UpdatePracticeDocumentInput = builder.inputType('UpdatePracticeDocumentInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    ...documentTextFields(t),
    resignRequired: t.boolean({ description: 'When a text changed: whether patients who signed must sign again.' }),
  }),
});

const SignPracticeDocumentInput = builder.inputType('SignPracticeDocumentInput', {
  fields: (t) => ({
    versionId: t.id({ required: true }),
    patientId: t.id({ description: "The patient's own record; the one linked to the account when left out." }),
    typedName: t.string({ required: true }),
    agreed: t.boolean({ required: true }),
  }),
});

const RecordPaperSignatureInput = builder.inputType('RecordPaperSignatureInput', {
  fields: (t) => ({
    patientId: t.id({ required: true }),
    documentId: t.id({ required: true }),
    signedOn: t.string({ required: true, description: 'YYYY-MM-DD' }),
  }),
});

builder.queryFields((t) => ({
  practiceDocuments: t.field({
    type: [PracticeDocumentRef],
    description: "The practice's documents with their current versions (administrators).",
    resolve: (_root, _args, ctx) => ctx.practiceDocuments.list(callerOf(ctx, 'practiceDocuments')),
  }),
  practiceDocumentVersions: t.field({
    type: [PracticeDocumentVersionRef],
    description: "A document's versions, newest first (administrators).",
    args: { documentId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.practiceDocuments.versions(callerOf(ctx, 'practiceDocumentVersions'), String(args.documentId)),
  }),
  myPracticeDocuments: t.field({
    type: [PatientPracticeDocumentRef],
    description: "The signed-in patient's documents and where they stand.",
    resolve: (_root, _args, ctx) => ctx.practiceDocuments.mine(callerOf(ctx, 'myPracticeDocuments')),
  }),
  myPracticeDocument: t.field({
    type: PatientPracticeDocumentRef,
    description: 'One of the signed-in patient’s documents, its current version to read.',
    args: { documentId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.practiceDocuments.mineOne(callerOf(ctx, 'myPracticeDocument'), String(args.documentId)),
  }),
  patientPracticeDocuments: t.field({
    type: [PatientPracticeDocumentRef],
    description: "A patient's documents and signatures (their provider, administrators).",
    args: { patientId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.practiceDocuments.forPatient(callerOf(ctx, 'patientPracticeDocuments'), String(args.patientId)),
  }),
}));

builder.mutationFields((t) => ({
  createPracticeDocument: t.field({
    type: PracticeDocumentRef,
    args: { input: t.arg({ type: CreatePracticeDocumentInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.practiceDocuments.create(callerOf(ctx, 'createPracticeDocument'), { ...args.input }),
  }),
  updatePracticeDocument: t.field({
    type: PracticeDocumentRef,
    args: { input: t.arg({ type: UpdatePracticeDocumentInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.practiceDocuments.update(callerOf(ctx, 'updatePracticeDocument'), { ...args.input }),
  }),
  signPracticeDocument: t.field({
    type: PatientPracticeDocumentRef,
    args: { input: t.arg({ type: SignPracticeDocumentInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.practiceDocuments.sign(callerOf(ctx, 'signPracticeDocument'), { ...args.input }),
  }),
  recordPaperSignature: t.field({
    type: PatientPracticeDocumentRef,
    args: { input: t.arg({ type: RecordPaperSignatureInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.practiceDocuments.recordPaper(callerOf(ctx, 'recordPaperSignature'), { ...args.input }),
  }),
}));
