import type { AccessRequestSummary } from './access-requests.repository.ts';
import type {
  AccessRequestDetail,
  PatientAccessRequestForm,
  ProviderAccessRequestForm,
} from './access-requests.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf, publicCallerOf } from '../graphql/context.ts';

export const ActionResultRef = builder
  .objectRef<{ success: boolean; message: string | null }>('ActionResult')
  .implement({
    description: 'The answer to an action whose failures arrive as GraphQL errors (with extensions.code).',
    fields: (t) => ({
      success: t.exposeBoolean('success'),
      message: t.exposeString('message', { nullable: true }),
    }),
  });

const text = (t: Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0]) => t.string();

const ProviderAccessRequestInput = builder.inputType('ProviderAccessRequestInput', {
  description:
    'The doctor form. firstName, lastName, email, phone, medicalLicense, specialty, yearsOfExperience, practiceType and organizationName are required; the server answers which are missing. Leave `website` empty (it is a trap for bots). `locale` is the language the site was shown in (en or es): the acknowledgement e-mail is written in it.',
  fields: (t) => ({
    firstName: text(t),
    lastName: text(t),
    email: text(t),
    phone: text(t),
    medicalLicense: text(t),
    specialty: text(t),
    subSpecialty: text(t),
    yearsOfExperience: text(t),
    boardCertifications: text(t),
    practiceType: text(t),
    organizationName: text(t),
    practiceAddress: text(t),
    practiceCity: text(t),
    practiceState: text(t),
    practiceZip: text(t),
    currentEMR: text(t),
    patientVolume: text(t),
    telemedicineExperience: text(t),
    interestedFeatures: t.stringList(),
    referralSource: text(t),
    additionalInfo: text(t),
    preferredContactMethod: text(t),
    bestTimeToContact: text(t),
    website: text(t),
    locale: text(t),
  }),
});

const PatientAccessRequestInput = builder.inputType('PatientAccessRequestInput', {
  description:
    'The patient form. firstName, lastName, dateOfBirth (YYYY-MM-DD), phone, email and reasonForInterest are required, and consentToContact must be true. Leave `website` empty. E-mails follow languagePreference (english, spanish), else `locale`.',
  fields: (t) => ({
    firstName: text(t),
    lastName: text(t),
    dateOfBirth: text(t),
    phone: text(t),
    email: text(t),
    address: text(t),
    city: text(t),
    state: text(t),
    zipCode: text(t),
    emergencyContactName: text(t),
    emergencyContactPhone: text(t),
    currentProvider: text(t),
    providerPhone: text(t),
    referringDoctor: text(t),
    insuranceProvider: text(t),
    reasonForInterest: text(t),
    currentConditions: text(t),
    currentMedications: text(t),
    allergies: text(t),
    servicesInterested: t.stringList(),
    preferredAppointmentTimes: text(t),
    technologyComfort: text(t),
    additionalQuestions: text(t),
    hearAboutUs: text(t),
    preferredContactMethod: text(t),
    languagePreference: text(t),
    consentToContact: t.boolean(),
    website: text(t),
    locale: text(t),
  }),
});

const PROVIDER_FORM_TEXT_FIELDS = [
  'phone',
  'medicalLicense',
  'specialty',
  'subSpecialty',
  'yearsOfExperience',
  'boardCertifications',
  'practiceType',
  'organizationName',
  'practiceAddress',
  'practiceCity',
  'practiceState',
  'practiceZip',
  'currentEMR',
  'patientVolume',
  'telemedicineExperience',
  'referralSource',
  'additionalInfo',
  'preferredContactMethod',
  'bestTimeToContact',
] as const;

const PATIENT_FORM_TEXT_FIELDS = [
  'dateOfBirth',
  'phone',
  'address',
  'city',
  'state',
  'zipCode',
  'emergencyContactName',
  'emergencyContactPhone',
  'currentProvider',
  'providerPhone',
  'referringDoctor',
  'insuranceProvider',
  'reasonForInterest',
  'currentConditions',
  'currentMedications',
  'allergies',
  'preferredAppointmentTimes',
  'technologyComfort',
  'additionalQuestions',
  'hearAboutUs',
  'preferredContactMethod',
  'languagePreference',
] as const;

const field = (form: object, name: string): string | null => {
  const value = (form as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : null;
};

const ProviderFormRef = builder.objectRef<ProviderAccessRequestForm>('ProviderAccessRequestForm').implement({
  description: 'What the requester entered in the doctor form.',
  fields: (t) => ({
    ...Object.fromEntries(
      PROVIDER_FORM_TEXT_FIELDS.map((name) => [name, t.string({ nullable: true, resolve: (f) => field(f, name) })]),
    ),
    interestedFeatures: t.stringList({ resolve: (f) => f.interestedFeatures }),
  }),
});

const PatientFormRef = builder.objectRef<PatientAccessRequestForm>('PatientAccessRequestForm').implement({
  description: 'What the requester entered in the patient form. Protected health information.',
  fields: (t) => ({
    ...Object.fromEntries(
      PATIENT_FORM_TEXT_FIELDS.map((name) => [name, t.string({ nullable: true, resolve: (f) => field(f, name) })]),
    ),
    servicesInterested: t.stringList({ resolve: (f) => f.servicesInterested }),
    consentToContact: t.boolean({ resolve: (f) => f.consentToContact }),
  }),
});

type Types = typeof builder extends PothosSchemaTypes.SchemaBuilder<infer T> ? T : never;

/** The fields the list and the single request share. */
function summaryFields<P extends AccessRequestSummary>(t: PothosSchemaTypes.ObjectFieldBuilder<Types, P>) {
  return {
    id: t.id({ resolve: (r) => r.id }),
    kind: t.string({ description: 'provider or patient', resolve: (r) => r.kind }),
    status: t.string({ description: 'new, approved or declined', resolve: (r) => r.status }),
    firstName: t.string({ resolve: (r) => r.firstName }),
    lastName: t.string({ resolve: (r) => r.lastName }),
    email: t.string({ resolve: (r) => r.email }),
    language: t.string({
      description: 'en or es: the language of its e-mails and of the account',
      resolve: (r) => r.language,
    }),
    createdAt: t.string({ resolve: (r) => r.createdAt.toISOString() }),
    reviewedAt: t.string({ nullable: true, resolve: (r) => r.reviewedAt?.toISOString() ?? null }),
    reviewedBy: t.id({
      nullable: true,
      description: "The reviewing administrator's account id.",
      resolve: (r) => r.reviewedBy,
    }),
    reviewedByName: t.string({ nullable: true, resolve: (r) => r.reviewedByName }),
    declineReason: t.string({ nullable: true, resolve: (r) => r.declineReason }),
    account: t.id({ nullable: true, description: 'The account approval created.', resolve: (r) => r.accountId }),
  };
}

const AccessRequestSummaryRef = builder.objectRef<AccessRequestSummary>('AccessRequestSummary').implement({
  description: 'A request in the list: who, which kind, which status; not the form.',
  fields: (t) => summaryFields(t),
});

const AccessRequestRef = builder.objectRef<AccessRequestDetail>('AccessRequest').implement({
  description: 'One request with its form (administrators only; reading it is audited).',
  fields: (t) => ({
    ...summaryFields(t),
    emailHasAccount: t.exposeBoolean('emailHasAccount', {
      description: 'An account with this e-mail exists: approval would be refused.',
    }),
    invitationPending: t.boolean({
      description:
        'The account approval created has no password yet (sendInvitation can e-mail a new link); false before approval.',
      resolve: (r) => r.invitation?.pending ?? false,
    }),
    invitationExpiresAt: t.string({
      nullable: true,
      description: "When the account's newest unused invitation link stops working (may be past); null when none.",
      resolve: (r) => r.invitation?.expiresAt?.toISOString() ?? null,
    }),
    providerForm: t.field({
      type: ProviderFormRef,
      nullable: true,
      resolve: (r) => (r.kind === 'provider' ? (r.form as ProviderAccessRequestForm) : null),
    }),
    patientForm: t.field({
      type: PatientFormRef,
      nullable: true,
      resolve: (r) => (r.kind === 'patient' ? (r.form as PatientAccessRequestForm) : null),
    }),
  }),
});

const AccessRequestListRef = builder
  .objectRef<{ items: AccessRequestSummary[]; nextToken: string | null }>('AccessRequestList')
  .implement({
    fields: (t) => ({
      items: t.field({ type: [AccessRequestSummaryRef], resolve: (l) => l.items }),
      nextToken: t.exposeString('nextToken', { nullable: true }),
    }),
  });

const AccessRequestCountsRef = builder
  .objectRef<{ new: number; approved: number; declined: number }>('AccessRequestCounts')
  .implement({
    fields: (t) => ({
      new: t.exposeInt('new'),
      approved: t.exposeInt('approved'),
      declined: t.exposeInt('declined'),
    }),
  });

/** GraphQL hands absent fields as missing keys and explicit nulls as null; both reach the schemas as they are. */
const plain = (input: object) => ({ ...input });

builder.mutationFields((t) => ({
  submitProviderAccessRequest: t.field({
    type: ActionResultRef,
    description: 'Public. Stores a doctor access request; at most 5 per hour from one address (TOO_MANY_REQUESTS).',
    args: { input: t.arg({ type: ProviderAccessRequestInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      const { message } = await ctx.accessRequests.submit(
        publicCallerOf(ctx, 'submitProviderAccessRequest'),
        'provider',
        plain(args.input),
      );
      return { success: true, message };
    },
  }),
  submitPatientAccessRequest: t.field({
    type: ActionResultRef,
    description: 'Public. Stores a patient access request; at most 5 per hour from one address (TOO_MANY_REQUESTS).',
    args: { input: t.arg({ type: PatientAccessRequestInput, required: true }) },
    resolve: async (_root, args, ctx) => {
      const { message } = await ctx.accessRequests.submit(
        publicCallerOf(ctx, 'submitPatientAccessRequest'),
        'patient',
        plain(args.input),
      );
      return { success: true, message };
    },
  }),
  approveAccessRequest: t.field({
    type: AccessRequestRef,
    description:
      'Administrators. Creates the account (role from the request) and its provider or patient record, and e-mails an invitation. A patient request needs ownerProviderId: the id of the provider (a Doctor id) who will own the record.',
    args: { id: t.arg.id({ required: true }), ownerProviderId: t.arg.id() },
    resolve: (_root, args, ctx) =>
      ctx.accessRequests.approve(callerOf(ctx, 'approveAccessRequest'), {
        id: String(args.id),
        ownerProviderId: args.ownerProviderId == null ? null : String(args.ownerProviderId),
      }),
  }),
  declineAccessRequest: t.field({
    type: AccessRequestRef,
    description: 'Administrators. Declines a new request; the reason is required and stays with the request.',
    args: { id: t.arg.id({ required: true }), reason: t.arg.string() },
    resolve: (_root, args, ctx) =>
      ctx.accessRequests.decline(callerOf(ctx, 'declineAccessRequest'), { id: String(args.id), reason: args.reason }),
  }),
}));

builder.queryFields((t) => ({
  listAccessRequests: t.field({
    type: AccessRequestListRef,
    description: 'Administrators. Newest first; status filters to new, approved or declined.',
    args: { status: t.arg.string(), limit: t.arg.int(), nextToken: t.arg.string() },
    resolve: (_root, args, ctx) => ctx.accessRequests.list(callerOf(ctx, 'listAccessRequests'), args),
  }),
  accessRequestCounts: t.field({
    type: AccessRequestCountsRef,
    description: 'Administrators. How many requests have each status.',
    resolve: (_root, _args, ctx) => ctx.accessRequests.counts(callerOf(ctx, 'accessRequestCounts')),
  }),
  getAccessRequest: t.field({
    type: AccessRequestRef,
    description: "Administrators. One request with its form; 'Access request not found' otherwise.",
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.accessRequests.get(callerOf(ctx, 'getAccessRequest'), String(args.id)),
  }),
}));
