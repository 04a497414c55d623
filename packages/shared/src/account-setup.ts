import { fieldMessage, messageSection } from './field-messages.ts';
import { z } from 'zod';
import { EmailSchema, PasswordSchema } from './auth.ts';
import { RATE_LIMITER_DEFAULT } from './constants.ts';
import { LOCALES } from './options.ts';
import { optional } from './patients.ts';

/** Invitations (an approved access request, or an account an administrator added) are valid this long. */
export const INVITATION_VALID_HOURS = 72;
/** A password-reset code and link are valid this long. */
export const PASSWORD_RESET_VALID_MINUTES = 15;
export const PASSWORD_RESET_CODE_LENGTH = 6;
/** Wrong codes a reset may take before it stops working (a new one must be requested). */
export const PASSWORD_RESET_MAX_CODE_ATTEMPTS = 5;

/**
 * Reset requests: per e-mail address (known or not, so the limit reveals nothing) and per client address.
 * Failed reset and invitation attempts (a wrong code or token) per client address: the specification's
 * rate limiter default.
 */
export const PASSWORD_RESET_RATE_LIMITS = {
  perEmail: { maxAttempts: 3, windowMs: 15 * 60 * 1000 },
  perAddress: { maxAttempts: 10, windowMs: 60 * 60 * 1000 },
  failedAttemptsPerAddress: RATE_LIMITER_DEFAULT,
} as const;

export const INVITATION_STATUSES = ['valid', 'expired', 'used', 'invalid'] as const;
export type InvitationStatus = (typeof INVITATION_STATUSES)[number];

export const PASSWORD_RESET_MESSAGES = {
  /** The one answer to every reset request, whether or not the e-mail has an account. */
  requested: `If an account exists for this email, we have sent it a ${PASSWORD_RESET_CODE_LENGTH}-digit code and a link to reset the password. Both are valid for ${PASSWORD_RESET_VALID_MINUTES} minutes.`,
  invalid: 'This code or link is not valid. Please request a new one.',
  expired: 'This code or link has expired. Please request a new one.',
  codeFormat: `Please enter the ${PASSWORD_RESET_CODE_LENGTH}-digit code from the email`,
  codeOrLink: 'Enter the code from the email, or open the link it contains',
  done: 'Your password has been changed. Please sign in with your new password.',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const passwordResetMessage = messageSection('passwordResetMessages', PASSWORD_RESET_MESSAGES);

export const INVITATION_MESSAGES = {
  invalid: 'This invitation link is not valid.',
  expired: 'This invitation has expired. Please ask the practice for a new one.',
  used: 'This invitation has already been used. Please sign in.',
  accepted: 'Your password is set. Please sign in.',
  sent: 'The invitation has been sent.',
  alreadyHasPassword: 'This account already has a password; the person can use Forgot Password.',
  accountNotFound: 'Account not found',
  accountInactive: 'This account is not active',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const invitationMessage = messageSection('invitationMessages', INVITATION_MESSAGES);

export const RequestPasswordResetInputSchema = z.object({
  email: EmailSchema,
  locale: z
    .enum(LOCALES, { error: fieldMessage.error('languageInvalid') })
    .nullable()
    .optional(),
});

/** A reset is proven by the link's token, or by the e-mail address and the code. The new password meets the policy. */
export const ResetPasswordInputSchema = z
  .object({
    token: optional(
      z
        .string()
        .trim()
        .max(200, { error: passwordResetMessage.error('invalid') }),
    ),
    email: optional(EmailSchema),
    code: optional(
      z
        .string()
        .trim()
        .regex(new RegExp(`^\\d{${PASSWORD_RESET_CODE_LENGTH}}$`), { error: passwordResetMessage.error('codeFormat') }),
    ),
    newPassword: PasswordSchema,
  })
  .superRefine((value, ctx) => {
    if (value.token) return;
    if (!value.code) ctx.addIssue({ code: 'custom', path: ['code'], ...passwordResetMessage.issue('codeOrLink') });
    if (!value.email) ctx.addIssue({ code: 'custom', path: ['email'], ...fieldMessage.issue('emailRequired') });
  });
export type ResetPasswordInput = z.input<typeof ResetPasswordInputSchema>;

export const AcceptInvitationInputSchema = z.object({
  token: z
    .string({ error: invitationMessage.error('invalid') })
    .trim()
    .min(1, { error: invitationMessage.error('invalid') })
    .max(200, { error: invitationMessage.error('invalid') }),
  password: PasswordSchema,
});
export type AcceptInvitationInput = z.input<typeof AcceptInvitationInputSchema>;
