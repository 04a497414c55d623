import type { MessageId } from './message-catalogue.ts';
import type { Role } from './roles.ts';

/**
 * Every permission the product checks: an action on a resource in a scope. `any` reaches every record of the
 * resource; `own` only the caller's own records (OWN_RECORDS says which those are). A permission is declared
 * here together with the server operation that checks it and its cells in the permission matrix test
 * (apps/server/test/permissions.test.ts fails for a permission it has no cell for). Permissions of features
 * not built yet (appointments, notes, the audit log screens) are declared with those features; see
 * docs/decisions/020-access-checkpoint-and-accounts.md.
 */
export const PERMISSIONS = [
  'patient:read:own',
  'patient:read:any',
  'patient:create:own',
  'patient:create:any',
  'patient:update:own',
  'patient:update:any',
  'patient:delete:any',
  'provider:read:any',
  'provider:create:any',
  'access-request:review:any',
  'mail:read:any',
  'user:manage:any',
  'stored-text:review:any',
  'appointment:read:own',
  'appointment:read:any',
  'appointment:create:own',
  'appointment:create:any',
  'appointment:update:own',
  'appointment:update:any',
  'availability:manage:own',
  'availability:manage:any',
  'visit:join:own',
  // See now (decision 046): a provider starts an unscheduled video visit with their own patient, starting now.
  'visit:start:own',
  'note:read:own',
  'note:write:own',
  'note:index:own',
  'note:index:any',
  'note-template:manage:any',
  'measure:send:own',
  'measure:read:own',
  'measure:respond:own',
  'alert:acknowledge:own',
  // The psychiatric record (issue 27, decision 062): diagnoses, medications, structured allergies.
  'clinical-record:read:own',
  'clinical-record:write:own',
  // A patient acknowledges that they have read their treatment plan's latest signed version (issue 27, point 3).
  'treatment-plan:acknowledge:own',
  // The intake packet (decision 067): a patient fills in their own; a provider reads and reviews (accepts, sends
  // back) their own patients'; an emergency grant reads one.
  'intake:fill:own',
  'intake:read:own',
  'intake:review:own',
  // A patient books their own visits with their own provider, and confirms, cancels
  // and reschedules them within the practice's policy (decision 030). Staff change appointments with
  // appointment:update, which patients never hold.
  'appointment:book:own',
  'appointment:manage:own',
  'note:share:own',
  'shared-note:read:own',
  'correction:request:own',
  'correction:review:own',
  'correction:review:any',
  'record-access:read:own',
  'message:read:own',
  'message:send:own',
  'message:office:any',
  // The compliance report and the practice reports (decision 035).
  'report:read:any',
  // The practice's outcomes in measurement-based care (decision 064): a provider's own patients', or everyone's.
  'outcome:read:own',
  'outcome:read:any',
  // Emergency access (decision 036): a provider opens another's patient for a limited time; administrators review.
  'emergency-access:request:any',
  'emergency-access:review:any',
  // The audit trail: search, read an entry, verify the chain (decision 034); API tokens for log collectors.
  'audit:read:any',
  'api-token:manage:any',
  // Issue 16, Data (decision 037): FHIR exports of the practice or one patient; backups.
  'data:export:any',
  'backup:manage:any',
  // The administrator console's figures and the system's health (decision 038).
  'system:monitor:any',
  // The practice's settings at /admin/settings (decision 032).
  'settings:manage:any',
  // The practice's documents and their signatures (issue 28, decision 066): administrators keep the documents; a
  // patient reads and signs their own; a provider reads their own patients' and records a paper copy signed.
  'practice-document:manage:any',
  'practice-document:read:own',
  'practice-document:read:any',
  'practice-document:sign:own',
  'practice-document:record-paper:own',
  'practice-document:record-paper:any',
  // Before the first visit (decision 068): a patient's own checklist; whether patients are ready for their visit
  // (intake, telehealth consent), for a provider their own patients', for administrators any patient's.
  'first-visit:read:own',
  'readiness:read:own',
  'readiness:read:any',
  // Getting paid (issue 30, decision 073): a patient's ledger, superbills and statements are read by the patient
  // themselves, their primary provider and administrators; the provider codes their own patients' visits and
  // records payments and adjustments, as administrators do for any patient. Administrators keep the fee schedule;
  // a provider's NPI, taxonomy and licence are kept by administrators or the provider on their own profile.
  'billing:read:own',
  'billing:read:any',
  'billing:write:own',
  'billing:write:any',
  'fee-schedule:manage:any',
  'provider-billing:manage:own',
  'provider-billing:manage:any',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

export const SCOPES = ['own', 'any'] as const;
export type Scope = (typeof SCOPES)[number];

type ActionOf<P> = P extends `${infer R}:${infer A}:${Scope}` ? `${R}:${A}` : never;
type ResourceOf<P> = P extends `${infer R}:${string}` ? R : never;

/** An action on a resource, whatever the scope (`patient:read`): what a service asks for. */
export type ResourceAction = ActionOf<Permission>;
export type Resource = ResourceOf<Permission>;

/**
 * The grants: which role holds which permission. `any` includes `own`. Deny by default: what is not here is
 * refused, and an account without a role gets nothing.
 */
export const ROLE_PERMISSIONS: Readonly<Record<Role, readonly Permission[]>> = {
  admin: [
    'patient:read:any',
    'patient:create:any',
    'patient:update:any',
    'patient:delete:any',
    'provider:read:any',
    'provider:create:any',
    'access-request:review:any',
    'mail:read:any',
    'user:manage:any',
    'stored-text:review:any',
    'appointment:read:any',
    'appointment:create:any',
    'appointment:update:any',
    'availability:manage:any',
    // That a note exists (title, author, dates), never its content, and never a psychotherapy note (decision 027).
    'note:index:any',
    'note-template:manage:any',
    // Administrators answer correction requests too (the record's administrative part).
    'correction:review:any',
    // The office's conversations (any administrator answers), never clinical ones.
    'message:office:any',
    'report:read:any',
    'outcome:read:any',
    'emergency-access:review:any',
    'audit:read:any',
    'api-token:manage:any',
    // FHIR exports (never psychotherapy notes) and backups (decision 037).
    'data:export:any',
    'backup:manage:any',
    'system:monitor:any',
    'settings:manage:any',
    // The practice's documents, every patient's signatures and paper copies (decision 066).
    'practice-document:manage:any',
    'practice-document:read:any',
    'practice-document:record-paper:any',
    'readiness:read:any',
    // Every patient's ledger; the fee schedule; the providers' billing identity (decision 073).
    'billing:read:any',
    'billing:write:any',
    'fee-schedule:manage:any',
    'provider-billing:manage:any',
  ],
  provider: [
    'patient:read:own',
    'patient:create:own',
    'patient:update:own',
    'provider:read:any',
    'appointment:read:own',
    'appointment:create:own',
    'appointment:update:own',
    'availability:manage:own',
    'visit:join:own',
    'visit:start:own',
    'note:index:own',
    'note:read:own',
    'note:write:own',
    'measure:send:own',
    'measure:read:own',
    'alert:acknowledge:own',
    // Response and remission among the patients whose primary provider they are (decision 064).
    'outcome:read:own',
    // Their own patients' psychiatric record (administrators get none of it: it is clinical content).
    'clinical-record:read:own',
    'clinical-record:write:own',
    'intake:read:own',
    'intake:review:own',
    // Share their signed notes with the patient; answer their patients' correction requests.
    'note:share:own',
    'correction:review:own',
    // The clinical conversations of the patients whose care team they are on.
    'message:read:own',
    'message:send:own',
    // Break the glass for any patient, with a reason, for a limited time (read only, never psychotherapy notes).
    'emergency-access:request:any',
    // Their own patients' documents and signatures; a paper copy their patient signed (decision 066).
    'practice-document:read:own',
    'practice-document:record-paper:own',
    'readiness:read:own',
    // Their own patients' ledgers: coding their visits, payments and adjustments; their own NPI (decision 073).
    'billing:read:own',
    'billing:write:own',
    'provider-billing:manage:own',
  ],
  // A patient's own record (`patient:read:own`) comes with the patient portal, which shows it; decision 020.
  // Their own appointments they read (My Appointments); booking and changing them come with the portal.
  // They join their own video visits (decision 026).
  // They fill in the questionnaires sent to them and see their own results (decision 028).
  patient: [
    'provider:read:any',
    'appointment:read:own',
    'visit:join:own',
    'measure:read:own',
    'measure:respond:own',
    // Their own diagnoses, medications and allergies, read only, in the portal.
    'clinical-record:read:own',
    // They acknowledge their treatment plan once they have read it.
    'treatment-plan:acknowledge:own',
    'intake:fill:own',
    'intake:read:own',
    'appointment:book:own',
    'appointment:manage:own',
    // Their own record (read only), the notes shared with them, corrections, their access log.
    'patient:read:own',
    'shared-note:read:own',
    'correction:request:own',
    'record-access:read:own',
    // Their own conversations, with their care team or the office.
    'message:read:own',
    'message:send:own',
    // The practice's documents they are asked to read and sign, and their own signed copies (decision 066).
    'practice-document:read:own',
    'practice-document:sign:own',
    'first-visit:read:own',
    // Their own ledger, superbills and statements (decision 073).
    'billing:read:own',
  ],
};

/**
 * What makes a record the caller's own, per resource and role: the record's field that holds the caller's
 * account id. A patient record is a provider's own when the provider is its primary provider (`ownerId`, the
 * GraphQL `owner`), and a patient's own when it is the record linked to their account (`accountId`). A role
 * without an entry owns no record of that resource. Every resource with an `own` permission has an entry.
 */
export const OWN_RECORDS = {
  patient: { provider: 'ownerId', patient: 'accountId' },
  // A provider's own appointments are those they hold; a patient's, those of the record linked to their account
  // (the repository follows the appointment's patient to that account).
  appointment: { provider: 'providerId', patient: 'patientAccountId' },
  // A provider's own working hours and time off.
  availability: { provider: 'providerId' },
  // A video visit is its appointment's: only the appointment's own provider and patient join (not administrators).
  visit: { provider: 'providerId', patient: 'patientAccountId' },
  // A provider's own notes are those they wrote; the repository also lets a patient's primary provider read the
  // notes about that patient that are not psychotherapy notes (decision 027). `note:index` is seeing that a note
  // exists (title, author, dates) without its content: what administrators get, for every note but psychotherapy
  // notes.
  note: { provider: 'authorId' },
  // A questionnaire is a provider's own when they are the patient's primary provider, a patient's when it was
  // sent to the record linked to their account; the repository follows the questionnaire's patient.
  measure: { provider: 'patientOwnerId', patient: 'patientAccountId' },
  // A patient's psychiatric record is a provider's own when they are the patient's primary provider, a patient's
  // when it is of the record linked to their account, like a questionnaire.
  'clinical-record': { provider: 'patientOwnerId', patient: 'patientAccountId' },
  // A provider's own outcomes are those of the patients whose primary provider they are (decision 064).
  outcome: { provider: 'patientOwnerId' },
  // A treatment plan is a patient's to acknowledge when it is of the record linked to their account.
  'treatment-plan': { patient: 'patientAccountId' },
  intake: { provider: 'patientOwnerId', patient: 'patientAccountId' },
  // A safety alert is for the patient's primary provider.
  alert: { provider: 'patientOwnerId' },
  // A provider shares the notes they reach as `note:read` (their own, their patients');
  // a shared note is a patient's own when shared with the record linked to their account; a correction request
  // a patient's own likewise, a provider's when they are the patient's primary provider; the access log is of
  // the record linked to the patient's account.
  'shared-note': { patient: 'patientAccountId' },
  correction: { provider: 'patientOwnerId', patient: 'patientAccountId' },
  'record-access': { patient: 'patientAccountId' },
  // A conversation is a patient's when it is about the record linked to their account;
  // a provider's when it is clinical and they are on the patient's care team (messages/care-team.ts says who).
  message: { provider: 'careTeamProviderId', patient: 'patientAccountId' },
  // A patient's documents and signatures are a provider's own when they are the patient's primary provider, a
  // patient's when they are of the record linked to their account (decision 066).
  'practice-document': { provider: 'patientOwnerId', patient: 'patientAccountId' },
  // A patient's checklist is of the record linked to their account; a provider reads the readiness of the
  // patients whose primary provider they are.
  'first-visit': { patient: 'patientAccountId' },
  readiness: { provider: 'patientOwnerId' },
  // A patient's ledger is a provider's own when they are the patient's primary provider, a patient's when it is of
  // the record linked to their account (decision 073).
  billing: { provider: 'patientOwnerId', patient: 'patientAccountId' },
  // A provider's own billing identity is their own provider record's.
  'provider-billing': { provider: 'providerId' },
} as const satisfies Partial<Record<Resource, Partial<Record<Role, string>>>>;

export type OwnedResource = keyof typeof OWN_RECORDS;
/** The fields that can make a record of this resource someone's own. */
export type OwnershipField<R extends Resource> = R extends OwnedResource
  ? (typeof OWN_RECORDS)[R][keyof (typeof OWN_RECORDS)[R]]
  : never;

/** The field that makes a record of `resource` the role's own, or null when the role owns none. */
export function ownershipField<R extends Resource>(
  role: Role | null | undefined,
  resource: R,
): OwnershipField<R> | null {
  if (!role || !(resource in OWN_RECORDS)) return null;
  const fields: Partial<Record<Role, string>> = OWN_RECORDS[resource as OwnedResource];
  return (fields[role] as OwnershipField<R> | undefined) ?? null;
}

/**
 * What a role sees of a record it reaches (issue 26, decision 054): each part below is shown to the roles listed
 * and left out (null, or the record's index only) for the others. Resolvers and services ask `seesRecordPart`,
 * never a role's name; the permission tests keep each list within the roles that hold the part's permission.
 */
export const RECORD_PARTS = {
  // The staff's notes on an appointment: the practice's, never shown to the patient reading their appointment.
  'appointment:staff-notes': ['admin', 'provider'],
  // A note's content (and its addenda): for the roles that read notes (`note:read`); the others reach the note
  // index only (`note:index`: title, author, dates).
  'note:content': ['provider'],
  // A psychotherapy note's content (decision 027): among the roles that read notes, only the note's author
  // (OWN_RECORDS.note), one note at a time and never in a list.
  'note:psychotherapy-content': ['provider'],
  // The inactive note templates beside the active ones: for those who manage templates (`note-template:manage`).
  'note-template:inactive': ['admin'],
  // A treatment plan's draft (a version not yet signed): for those who write the record (`clinical-record:write`);
  // a patient reads only the signed versions.
  'treatment-plan:draft': ['provider'],
  // The office's conversations (`message:office`) instead of the caller's own.
  'message:office-inbox': ['admin'],
} as const satisfies Record<string, readonly Role[]>;

export type RecordPart = keyof typeof RECORD_PARTS;

/** Whether the role sees `part` of the records it reaches (RECORD_PARTS). */
export function seesRecordPart(role: Role | null | undefined, part: RecordPart): boolean {
  return !!role && (RECORD_PARTS[part] as readonly Role[]).includes(role);
}

/**
 * What a caller without any scope of the action is told (a message id of the shared catalogue): the
 * specification's wording where it has one ('Permission denied: Cannot view patients', 'Administrator access
 * required.').
 */
export const PERMISSION_DENIED_MESSAGES: Readonly<Record<ResourceAction, MessageId>> = {
  'patient:read': 'patientMessages.cannotView',
  'patient:create': 'patientMessages.cannotCreate',
  'patient:update': 'patientMessages.cannotUpdate',
  'patient:delete': 'patientMessages.cannotDelete',
  'provider:read': 'messages.defaultDenied',
  'provider:create': 'providerMessages.cannotCreate',
  'access-request:review': 'accessRequestMessages.cannotReview',
  'mail:read': 'messages.adminRequired',
  'user:manage': 'messages.adminRequired',
  'stored-text:review': 'messages.adminRequired',
  'appointment:read': 'appointmentMessages.cannotView',
  'appointment:create': 'appointmentMessages.cannotCreate',
  'appointment:update': 'appointmentMessages.cannotUpdate',
  'availability:manage': 'appointmentMessages.cannotManageAvailability',
  'visit:join': 'videoMessages.notYourVisit',
  'visit:start': 'appointmentMessages.cannotSeeNow',
  'note:read': 'noteMessages.cannotView',
  'note:write': 'noteMessages.cannotWrite',
  'note:index': 'noteMessages.cannotView',
  'note-template:manage': 'noteMessages.cannotManageTemplates',
  'measure:send': 'measureMessages.cannotSend',
  'measure:read': 'measureMessages.cannotView',
  'measure:respond': 'measureMessages.cannotRespond',
  'alert:acknowledge': 'measureMessages.cannotAcknowledge',
  'clinical-record:read': 'clinicalRecordMessages.cannotView',
  'clinical-record:write': 'clinicalRecordMessages.cannotWrite',
  'treatment-plan:acknowledge': 'clinicalRecordMessages.cannotAcknowledgePlan',
  'appointment:book': 'appointmentMessages.cannotCreate',
  'appointment:manage': 'appointmentMessages.cannotUpdate',
  'note:share': 'portalRecordMessages.cannotShare',
  'shared-note:read': 'portalRecordMessages.cannotReadShared',
  'correction:request': 'portalRecordMessages.cannotRequestCorrection',
  'correction:review': 'portalRecordMessages.cannotReviewCorrections',
  'record-access:read': 'portalRecordMessages.cannotReadAccessLog',
  'message:read': 'secureMessageMessages.cannotRead',
  'message:send': 'secureMessageMessages.cannotSend',
  'message:office': 'secureMessageMessages.cannotUseOffice',
  'report:read': 'messages.adminRequired',
  'outcome:read': 'outcomeMessages.cannotView',
  'emergency-access:request': 'emergencyAccessMessages.cannotRequest',
  'emergency-access:review': 'emergencyAccessMessages.cannotReview',
  'audit:read': 'messages.adminRequired',
  'api-token:manage': 'messages.adminRequired',
  'data:export': 'messages.adminRequired',
  'backup:manage': 'messages.adminRequired',
  'system:monitor': 'messages.adminRequired',
  'settings:manage': 'messages.adminRequired',
  'practice-document:manage': 'practiceDocumentMessages.cannotManage',
  'practice-document:read': 'practiceDocumentMessages.cannotView',
  'first-visit:read': 'firstVisitMessages.cannotView',
  'readiness:read': 'firstVisitMessages.cannotViewReadiness',
  'practice-document:sign': 'practiceDocumentMessages.cannotSign',
  'practice-document:record-paper': 'practiceDocumentMessages.cannotRecordPaper',
  'intake:fill': 'intakeMessages.cannotFill',
  'intake:read': 'intakeMessages.cannotView',
  'intake:review': 'intakeMessages.cannotReview',
  'billing:read': 'billingMessages.cannotView',
  'billing:write': 'billingMessages.cannotWrite',
  'fee-schedule:manage': 'billingMessages.cannotManage',
  'provider-billing:manage': 'billingMessages.cannotManage',
};

/** The widest scope in which the role may perform the action, or null when it may not at all. */
export function scopeOf(role: Role | null | undefined, action: ResourceAction): Scope | null {
  if (!role) return null;
  const granted: readonly string[] = ROLE_PERMISSIONS[role];
  if (granted.includes(`${action}:any`)) return 'any';
  if (granted.includes(`${action}:own`)) return 'own';
  return null;
}

/** Whether the role may perform the action in some scope (on its own records at least). */
export function can(role: Role | null | undefined, action: ResourceAction): boolean {
  return scopeOf(role, action) !== null;
}

/** Whether the role holds the permission (`any` includes `own`). */
export function hasPermission(role: Role | null | undefined, permission: Permission): boolean {
  const { action, scope } = parsePermission(permission);
  const held = scopeOf(role, action);
  return held === 'any' || held === scope;
}

export function parsePermission(permission: Permission): {
  resource: Resource;
  action: ResourceAction;
  scope: Scope;
} {
  const [resource, verb, scope] = permission.split(':') as [Resource, string, Scope];
  return { resource, action: `${resource}:${verb}` as ResourceAction, scope };
}

/** The roles that hold a permission (for example, who is told that an access request waits). */
export function rolesWith(permission: Permission): Role[] {
  return (Object.keys(ROLE_PERMISSIONS) as Role[]).filter((role) => hasPermission(role, permission));
}

/**
 * Whether the role works with the list of patients (/patients): it reads patient records and its own are not
 * just the one linked to its account (a patient reads that one in the portal's My Records).
 */
export function seesPatientList(role: Role | null | undefined): boolean {
  return can(role, 'patient:read') && ownershipField(role, 'patient') !== 'accountId';
}
