import { PATIENT_OPTIONAL_TEXT_FIELDS } from '@telehealth/shared';
import type { PatientRow } from './patients.repository.ts';
import type { ProviderView } from '../providers/providers.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';
import { idempotent } from '../graphql/idempotent.ts';
import { columnsFor, requestedFields } from '../graphql/selection.ts';

export const PatientRef = builder.objectRef<PatientRow>('Patient').implement({
  description: 'A patient of the practice. Every field is protected health information.',
  fields: (t) => ({
    id: t.exposeID('id'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    email: t.exposeString('email'),
    dateOfBirth: t.exposeString('dateOfBirth', { description: 'YYYY-MM-DD' }),
    isActive: t.exposeBoolean('isActive'),
    createdAt: t.string({ resolve: (p) => p.createdAt.toISOString() }),
    updatedAt: t.string({ resolve: (p) => p.updatedAt.toISOString() }),
    owner: t.id({
      nullable: true,
      description: "The primary provider's id (a Doctor's id).",
      resolve: (p) => p.ownerId,
    }),
    // Resolvers, not exposeString: the clinical text is decrypted when first read and a damaged value throws there;
    // graphql-jit reads exposed fields inline, outside its error handling, where a throw would hang the request.
    ...Object.fromEntries(
      PATIENT_OPTIONAL_TEXT_FIELDS.map((name) => [name, t.string({ nullable: true, resolve: (p) => p[name] })]),
    ),
  }),
});

/** The row keys each Patient field's resolver reads (a list reads only the columns of the fields asked for). */
const PATIENT_FIELD_KEYS: Readonly<Record<string, readonly (keyof PatientRow)[]>> = {
  id: ['id'],
  firstName: ['firstName'],
  lastName: ['lastName'],
  email: ['email'],
  dateOfBirth: ['dateOfBirth'],
  isActive: ['isActive'],
  createdAt: ['createdAt'],
  updatedAt: ['updatedAt'],
  owner: ['ownerId'],
  ...Object.fromEntries(PATIENT_OPTIONAL_TEXT_FIELDS.map((name) => [name, [name]])),
};

const PatientListRef = builder.objectRef<{ items: PatientRow[]; nextToken: string | null }>('PatientList').implement({
  fields: (t) => ({
    items: t.field({ type: [PatientRef], resolve: (l) => l.items }),
    nextToken: t.exposeString('nextToken', { nullable: true }),
  }),
});

export const DeletedRecordRef = builder.objectRef<{ id: string }>('DeletedRecord').implement({
  fields: (t) => ({ id: t.exposeID('id') }),
});

const PatientFilterInput = builder.inputType('PatientFilterInput', {
  fields: (t) => ({ search: t.string(), isActive: t.boolean() }),
});

const patientInputFields = (t: Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0]) => ({
  firstName: t.string(),
  lastName: t.string(),
  email: t.string(),
  dateOfBirth: t.string({ description: 'YYYY-MM-DD' }),
  isActive: t.boolean(),
  owner: t.id({
    description: "The primary provider's id (a Doctor's id); naming another than yourself takes the any scope.",
  }),
  ...Object.fromEntries(PATIENT_OPTIONAL_TEXT_FIELDS.map((name) => [name, t.string()])),
});

const CreatePatientInput = builder.inputType('CreatePatientInput', {
  description: 'firstName, lastName, email and dateOfBirth are required; the server answers which are missing.',
  fields: (t) => patientInputFields(t),
});

const UpdatePatientInput = builder.inputType('UpdatePatientInput', {
  description: 'The id and only the changed fields.',
  fields: (t) => ({ id: t.id({ required: true }), ...patientInputFields(t) }),
});

const DeletePatientInput = builder.inputType('DeletePatientInput', {
  fields: (t) => ({ id: t.id({ required: true }) }),
});

/** GraphQL hands absent fields as missing keys and explicit nulls as null; both reach the schemas as they are. */
const plain = (input: object) => ({ ...input });

builder.queryFields((t) => ({
  listPatients: t.field({
    type: PatientListRef,
    args: { limit: t.arg.int(), nextToken: t.arg.string(), filter: t.arg({ type: PatientFilterInput }) },
    resolve: (_root, args, ctx, info) =>
      ctx.patients.list(callerOf(ctx, 'listPatients'), args, {
        columns: columnsFor(requestedFields(info, ['items']), PATIENT_FIELD_KEYS),
      }),
  }),
  countPatients: t.int({
    description: 'How many patients the caller may see with this filter (the "of Y" in "Showing X of Y").',
    args: { filter: t.arg({ type: PatientFilterInput }) },
    resolve: (_root, args, ctx) => ctx.patients.count(callerOf(ctx, 'countPatients'), args.filter),
  }),
  getPatient: t.field({
    type: PatientRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.patients.get(callerOf(ctx, 'getPatient'), String(args.id)),
  }),
  patientChart: t.field({
    type: PatientRef,
    description: 'The patient whose chart is opened: getPatient, recorded as a PATIENT_CHART_VIEW.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.patients.get(callerOf(ctx, 'patientChart'), String(args.id), 'PATIENT_CHART_VIEW'),
  }),
}));

builder.mutationFields((t) => ({
  createPatient: t.field({
    type: PatientRef,
    args: { input: t.arg({ type: CreatePatientInput, required: true }) },
    resolve: idempotent('createPatient', {
      run: (caller, args: { input: object }, ctx) => ctx.patients.create(caller, plain(args.input)),
      replay: (caller, id, _args, ctx) => ctx.patients.get(caller, id),
    }),
  }),
  updatePatient: t.field({
    type: PatientRef,
    args: { input: t.arg({ type: UpdatePatientInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.patients.update(callerOf(ctx, 'updatePatient'), { ...plain(args.input), id: String(args.input.id) }),
  }),
  deletePatient: t.field({
    type: DeletedRecordRef,
    args: { input: t.arg({ type: DeletePatientInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.patients.delete(callerOf(ctx, 'deletePatient'), String(args.input.id)),
  }),
}));

const DoctorRef = builder.objectRef<ProviderView>('Doctor').implement({
  description: 'A provider of the practice, linked to a provider account.',
  fields: (t) => ({
    id: t.exposeID('id'),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    email: t.exposeString('email'),
    specialty: t.exposeString('specialty'),
    experience: t.exposeInt('experience', { description: 'Whole years.' }),
    phone: t.exposeString('phone', { nullable: true }),
    bio: t.exposeString('bio', { nullable: true }),
    isActive: t.exposeBoolean('isActive'),
    createdAt: t.string({ resolve: (d) => d.createdAt.toISOString() }),
    updatedAt: t.string({ resolve: (d) => d.updatedAt.toISOString() }),
    owner: t.id({
      description: "The provider's account id, which is the provider's id: what a patient's `owner` holds.",
      resolve: (d) => d.id,
    }),
    invitationPending: t.boolean({
      nullable: true,
      description:
        'Administrators only (null for others): the account has no password yet, so nobody can sign in to it until an invitation is accepted.',
      resolve: (d) => d.invitation?.pending ?? null,
    }),
    invitationExpiresAt: t.string({
      nullable: true,
      description:
        "Administrators only: when the account's newest unused invitation link stops working (may be past); null when there is none.",
      resolve: (d) => d.invitation?.expiresAt?.toISOString() ?? null,
    }),
  }),
});

const DoctorListRef = builder.objectRef<{ items: ProviderView[]; nextToken: string | null }>('DoctorList').implement({
  fields: (t) => ({
    items: t.field({ type: [DoctorRef], resolve: (l) => l.items }),
    nextToken: t.exposeString('nextToken', { nullable: true }),
  }),
});

const CreateDoctorInput = builder.inputType('CreateDoctorInput', {
  fields: (t) => ({
    firstName: t.string(),
    lastName: t.string(),
    email: t.string(),
    specialty: t.string(),
    experience: t.int(),
    phone: t.string(),
    bio: t.string(),
    isActive: t.boolean(),
    sendInvitation: t.boolean({
      description:
        'E-mail the new account an invitation to set its password (single use, 72 hours). Default true; skipped for an account that already has a password.',
    }),
  }),
});

builder.queryField('listDoctors', (t) =>
  t.field({
    type: DoctorListRef,
    args: { limit: t.arg.int(), nextToken: t.arg.string() },
    resolve: (_root, args, ctx) => ctx.providers.list(callerOf(ctx, 'listDoctors'), args),
  }),
);

builder.mutationField('createDoctor', (t) =>
  t.field({
    type: DoctorRef,
    description:
      'Administrators. Adds a provider record and its provider account, and e-mails the account an invitation to set its password unless sendInvitation is false.',
    args: { input: t.arg({ type: CreateDoctorInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.providers.create(callerOf(ctx, 'createDoctor'), plain(args.input)),
  }),
);
