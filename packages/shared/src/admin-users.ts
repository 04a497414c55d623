import { z } from 'zod';
import { fieldMessage } from './field-messages.ts';
import { EmailSchema } from './auth.ts';
import { LOCALES, SPECIALTIES } from './options.ts';
import { nameSchema } from './patients.ts';
import { ROLES } from './roles.ts';

/**
 * Users (`/admin/users`, issue 16, decision 033): every account, its role and state, and what an administrator
 * may do to it. Only administrators (`user:manage:any`).
 */

/** Active or deactivated (a deactivated account cannot sign in; its sessions ended when it was deactivated). */
export const USER_STATUSES = ['active', 'deactivated'] as const;
export type UserStatus = (typeof USER_STATUSES)[number];

/** A search shorter than this is ignored (a single letter matches nearly everyone). */
export const USER_SEARCH_MIN_LENGTH = 2;
export const USER_SEARCH_MAX_LENGTH = 100;

/** The filters of the list; every one optional. A page's token belongs to the filters it was made with. */
export const UserListFilterSchema = z.object({
  search: z
    .string()
    .trim()
    .max(USER_SEARCH_MAX_LENGTH, { error: fieldMessage.error('searchTooLong') })
    .nullish()
    .transform((v) => (v && v.length >= USER_SEARCH_MIN_LENGTH ? v : null)),
  role: z.enum(ROLES, { error: fieldMessage.error('chooseValidRole') }).nullish(),
  status: z.enum(USER_STATUSES, { error: fieldMessage.error('chooseValidStatus') }).nullish(),
  locked: z.boolean().nullish(),
  twoFactor: z.boolean().nullish(),
});
export type UserListFilter = z.input<typeof UserListFilterSchema>;

/**
 * Inviting a person: an account without a password and a single-use link to set one. A provider needs a
 * specialty (their directory record); a patient account is linked to an existing patient record, whose name it
 * takes.
 */
export const InviteUserInputSchema = z.discriminatedUnion(
  'role',
  [
    z.object({
      role: z.literal('admin'),
      email: EmailSchema,
      firstName: nameSchema('First name'),
      lastName: nameSchema('Last name'),
      language: z.enum(LOCALES).default('en'),
    }),
    z.object({
      role: z.literal('provider'),
      email: EmailSchema,
      firstName: nameSchema('First name'),
      lastName: nameSchema('Last name'),
      specialty: z.enum(SPECIALTIES, { error: fieldMessage.error('chooseSpecialty') }),
      language: z.enum(LOCALES).default('en'),
    }),
    z.object({
      role: z.literal('patient'),
      email: EmailSchema,
      patientId: z.uuid({ error: fieldMessage.error('choosePatientRecord') }),
      language: z.enum(LOCALES).default('en'),
    }),
  ],
  { error: fieldMessage.error('chooseValidRole') },
);
export type InviteUserInput = z.input<typeof InviteUserInputSchema>;

/** Roles an account may be moved between (decision 033): administrator and provider, both ways. */
export const CHANGEABLE_ROLES = ['admin', 'provider'] as const;

export const ChangeUserRoleInputSchema = z.object({
  accountId: z.uuid({ error: fieldMessage.error('accountNotFound') }),
  role: z.enum(CHANGEABLE_ROLES, { error: fieldMessage.error('chooseValidRole') }),
  /** Needed when an administrator becomes a provider and has no provider record yet. */
  specialty: z.enum(SPECIALTIES, { error: fieldMessage.error('chooseSpecialty') }).nullish(),
});
export type ChangeUserRoleInput = z.input<typeof ChangeUserRoleInputSchema>;

/** The patient records an invitation may be linked to: found by name or e-mail, at most this many. */
export const INVITABLE_PATIENTS_LIMIT = 10;

export const USER_MESSAGES = {
  notFound: 'Account not found',
  emailTaken: 'An account with this email already exists.',
  patientNotFound: 'Patient record not found',
  patientHasAccount: 'This patient record is already linked to an account.',
  selfRole: 'You cannot change your own role. Ask another administrator.',
  selfDeactivate: 'You cannot deactivate your own account. Ask another administrator.',
  lastAdministrator:
    'This is the last active administrator. Make another account an administrator first, so the practice is never locked out.',
  patientRoleFixed:
    'A patient account stays a patient account, and a staff account cannot become one. Invite the person with another email address instead.',
  providerHasRecords:
    'This provider still has patients, appointments, waitlist entries or clinical notes. Reassign them first; until then the account stays a provider.',
  sameRole: 'The account already has this role.',
  specialtyRequired: 'Please choose a specialty',
  inactive: 'This account is deactivated. Reactivate it first.',
  alreadyActive: 'This account is already active.',
  alreadyDeactivated: 'This account is already deactivated.',
  invited: 'The invitation has been sent.',
  deactivated: 'The account is deactivated and every session of it has ended.',
  reactivated: 'The account is active again.',
  roleChanged: 'The role has been changed.',
  passwordResetSent: 'A password reset email has been sent.',
  twoFactorReset: 'Two-factor authentication has been turned off for this account.',
  unlocked: 'The account is unlocked.',
} as const;
