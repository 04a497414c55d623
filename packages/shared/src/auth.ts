import { fieldMessage, messageSection } from './field-messages.ts';
import { z } from 'zod';
import { ROLES } from './roles.ts';

export const PASSWORD_MIN_LENGTH = 8;
/** The longest password accepted anywhere (the identity library is configured with the same). */
export const PASSWORD_MAX_LENGTH = 128;

export const PASSWORD_MESSAGES = {
  required: 'Password is required',
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long`,
  lowercase: 'Password must contain a lowercase letter',
  uppercase: 'Password must contain an uppercase letter',
  number: 'Password must contain a number',
  symbol: 'Password must contain a symbol',
  tooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const passwordMessage = messageSection('passwordMessages', PASSWORD_MESSAGES);

/** The password policy: at least 8 characters with a lowercase letter, an uppercase letter, a number and a symbol. */
export const PasswordSchema = z
  .string({ error: passwordMessage.error('required') })
  .min(1, { error: passwordMessage.error('required') })
  .min(PASSWORD_MIN_LENGTH, { error: passwordMessage.error('tooShort') })
  .max(PASSWORD_MAX_LENGTH, { error: passwordMessage.error('tooLong') })
  .regex(/[a-z]/, { error: passwordMessage.error('lowercase') })
  .regex(/[A-Z]/, { error: passwordMessage.error('uppercase') })
  .regex(/[0-9]/, { error: passwordMessage.error('number') })
  .regex(/[^A-Za-z0-9]/, { error: passwordMessage.error('symbol') });

export const EMAIL_MAX_LENGTH = 254;

export const EmailSchema = z
  .string({ error: fieldMessage.error('emailRequired') })
  .trim()
  .toLowerCase()
  .min(1, { error: fieldMessage.error('emailRequired') })
  .max(EMAIL_MAX_LENGTH, { error: fieldMessage.error('emailTooLong') })
  .pipe(z.email({ error: fieldMessage.error('emailInvalid') }));

/** Sign-in checks only presence: the policy applies when a password is set, not when it is tried. */
export const SignInInputSchema = z.object({
  email: EmailSchema,
  password: z
    .string()
    .min(1, { error: passwordMessage.error('required') })
    .max(PASSWORD_MAX_LENGTH, { error: passwordMessage.error('tooLong') }),
});
export type SignInInput = z.infer<typeof SignInInputSchema>;

/** The next-step names of the sign-in result. */
export const SIGN_IN_STEPS = [
  'DONE',
  'CONFIRM_SIGN_IN_WITH_TOTP_CODE',
  'CONTINUE_SIGN_IN_WITH_TOTP_SETUP',
  'CONFIRM_SIGN_IN_WITH_NEW_PASSWORD_REQUIRED',
  'RESET_PASSWORD',
  'CONFIRM_SIGN_UP',
] as const;
export type SignInStep = (typeof SIGN_IN_STEPS)[number];

export const CurrentUserSchema = z.object({
  userId: z.string(),
  email: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  source: z.string(),
});
export type CurrentUser = z.infer<typeof CurrentUserSchema>;

/** Failed sign-ins for one account within the window lock that account's sign-in for the rest of it. */
export const SIGN_IN_LOCKOUT = { maxAttempts: 5, windowMs: 5 * 60 * 1000 } as const;

/**
 * Failed sign-ins (wrong password or code, any account, known or not) from one client address within the window
 * stop every sign-in from that address for the rest of it, so that one address cannot spray passwords over many
 * accounts (decision 022). High enough for a clinic whose staff share one address.
 */
export const SIGN_IN_ADDRESS_LIMIT = { maxAttempts: 20, windowMs: 15 * 60 * 1000 } as const;

export const DEMO_PASSWORD = 'DemoPass-2026!';

export const DEMO_ACCOUNTS = [
  { email: 'admin@demo.test', role: 'admin', firstName: 'Avery', lastName: 'Admin', label: 'Administrator' },
  { email: 'provider@demo.test', role: 'provider', firstName: 'Maya', lastName: 'Okafor', label: 'Provider/Doctor' },
  { email: 'provider2@demo.test', role: 'provider', firstName: 'Daniel', lastName: 'Reyes', label: 'Provider/Doctor' },
  { email: 'patient@demo.test', role: 'patient', firstName: 'Jordan', lastName: 'Patel', label: 'Patient' },
] as const satisfies readonly {
  email: string;
  role: (typeof ROLES)[number];
  firstName: string;
  lastName: string;
  label: string;
}[];
