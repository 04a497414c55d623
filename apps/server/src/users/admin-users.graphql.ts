import type { InvitablePatient } from './admin-users.service.ts';
import type { UserListRow } from './users.repository.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

/** Users (`/admin/users`, decision 033). Administrators only; every other caller is refused and recorded. */
const AdminUserRef = builder.objectRef<UserListRow>('AdminUser').implement({
  description: 'An account as the Users screen shows it: who, which role, and its state. No secrets.',
  fields: (t) => ({
    id: t.id({ resolve: (u) => u.id }),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    email: t.exposeString('email'),
    role: t.string({ nullable: true, description: 'admin, provider or patient', resolve: (u) => u.role }),
    isActive: t.exposeBoolean('isActive', { description: 'false: deactivated (cannot sign in)' }),
    twoFactorEnabled: t.exposeBoolean('twoFactorEnabled'),
    locked: t.exposeBoolean('locked', {
      description: 'Sign-in is locked now (too many failed attempts, or the authenticator code lock).',
    }),
    invitationPending: t.exposeBoolean('invitationPending', {
      description: 'No password yet: nobody can sign in until the invitation is accepted.',
    }),
    lastSignInAt: t.string({ nullable: true, resolve: (u) => u.lastSignInAt?.toISOString() ?? null }),
    createdAt: t.string({ resolve: (u) => u.createdAt.toISOString() }),
    patientId: t.id({ nullable: true, description: "A patient account's linked record.", resolve: (u) => u.patientId }),
  }),
});

const AdminUserListRef = builder
  .objectRef<{ items: UserListRow[]; nextToken: string | null }>('AdminUserList')
  .implement({
    fields: (t) => ({
      items: t.field({ type: [AdminUserRef], resolve: (l) => l.items }),
      nextToken: t.exposeString('nextToken', { nullable: true }),
    }),
  });

const InvitablePatientRef = builder.objectRef<InvitablePatient>('InvitablePatient').implement({
  description: 'A patient record without an account, which a patient invitation can be linked to.',
  fields: (t) => ({
    id: t.id({ resolve: (p) => p.id }),
    firstName: t.exposeString('firstName'),
    lastName: t.exposeString('lastName'),
    email: t.exposeString('email'),
    dateOfBirth: t.exposeString('dateOfBirth'),
  }),
});

const InviteUserInput = builder.inputType('InviteUserInput', {
  description:
    'role: admin, provider or patient. Admin and provider need firstName and lastName; a provider a specialty; a patient the patientId of a record without an account (its name is used). language: en or es (the e-mail).',
  fields: (t) => ({
    role: t.string({ required: true }),
    email: t.string({ required: true }),
    firstName: t.string(),
    lastName: t.string(),
    specialty: t.string(),
    patientId: t.id(),
    language: t.string(),
  }),
});

/** Absent and null arguments alike reach the shared schema as missing. */
const defined = (input: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null && value !== undefined));

builder.queryFields((t) => ({
  adminUsers: t.field({
    type: AdminUserListRef,
    description:
      'Administrators. Every account in name order, 50 a page (limit at most 100); search (name or e-mail, 2+ characters), role, status (active or deactivated), locked and twoFactor filter. nextToken pages on with the same filters.',
    args: {
      search: t.arg.string(),
      role: t.arg.string(),
      status: t.arg.string(),
      locked: t.arg.boolean(),
      twoFactor: t.arg.boolean(),
      limit: t.arg.int(),
      nextToken: t.arg.string(),
    },
    resolve: (_root, args, ctx) => ctx.adminUsers.list(callerOf(ctx, 'adminUsers'), args),
  }),
  invitablePatients: t.field({
    type: [InvitablePatientRef],
    description:
      'Administrators. Patient records without an account whose name or e-mail contains `search` (2+ characters), at most 10. Audited as PATIENT_VIEW.',
    args: { search: t.arg.string() },
    resolve: (_root, args, ctx) => ctx.adminUsers.invitablePatients(callerOf(ctx, 'invitablePatients'), args.search),
  }),
}));

builder.mutationFields((t) => ({
  inviteUser: t.field({
    type: AdminUserRef,
    description:
      'Administrators. Creates the account without a password and e-mails a single-use link (72 hours) to set one.',
    args: { input: t.arg({ type: InviteUserInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.adminUsers.invite(callerOf(ctx, 'inviteUser'), defined({ ...args.input })),
  }),
  changeUserRole: t.field({
    type: AdminUserRef,
    description:
      'Administrators. Moves an account between admin and provider (a provider record needs a specialty); ends its sessions. Not your own, not the last active administrator, not patient accounts.',
    args: {
      accountId: t.arg.id({ required: true }),
      role: t.arg.string({ required: true }),
      specialty: t.arg.string(),
    },
    resolve: (_root, args, ctx) =>
      ctx.userAccess.changeRole(
        callerOf(ctx, 'changeUserRole'),
        defined({ accountId: String(args.accountId), role: args.role, specialty: args.specialty }),
      ),
  }),
  deactivateUser: t.field({
    type: AdminUserRef,
    description:
      'Administrators. The account cannot sign in, and every session of it ends at once (live channels too). Not your own, not the last active administrator.',
    args: { accountId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.userAccess.deactivate(callerOf(ctx, 'deactivateUser'), String(args.accountId)),
  }),
  reactivateUser: t.field({
    type: AdminUserRef,
    description: 'Administrators. A deactivated account may sign in again.',
    args: { accountId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.userAccess.reactivate(callerOf(ctx, 'reactivateUser'), String(args.accountId)),
  }),
  sendUserPasswordReset: t.field({
    type: AdminUserRef,
    description: 'Administrators. E-mails the account a password-reset code and link (15 minutes).',
    args: { accountId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.adminUsers.sendPasswordReset(callerOf(ctx, 'sendUserPasswordReset'), String(args.accountId)),
  }),
  resetUserTwoFactor: t.field({
    type: AdminUserRef,
    description:
      "Administrators. Turns the account's two-factor sign-in off (it sets it up again at sign-in if its role requires it).",
    args: { accountId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.adminUsers.resetTwoFactor(callerOf(ctx, 'resetUserTwoFactor'), String(args.accountId)),
  }),
  unlockUser: t.field({
    type: AdminUserRef,
    description: "Administrators. Ends the account's sign-in lockout at once.",
    args: { accountId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.adminUsers.unlock(callerOf(ctx, 'unlockUser'), String(args.accountId)),
  }),
}));
