import { messageSection } from './field-messages.ts';
import { passwordMessage, PASSWORD_MAX_LENGTH } from './auth.ts';
import { z } from 'zod';

/** Digits of an authenticator app's code (TOTP, RFC 6238: HMAC-SHA1, 30-second steps). */
export const TOTP_CODE_LENGTH = 6;
/** Recovery codes made at enrolment, each usable once. */
export const RECOVERY_CODE_COUNT = 10;
/** Letters and digits of a recovery code, shown as two groups of five (`abcde-12345`). */
export const RECOVERY_CODE_LENGTH = 10;
/** How long a password-checked sign-in waits for its code before the person must start again. */
export const TWO_FACTOR_CHALLENGE_SECONDS = 5 * 60;
/** How long a sign-in that must first set up two-factor may take to do so (scan, type a code). */
export const TOTP_SETUP_CHALLENGE_SECONDS = 10 * 60;

export const TWO_FACTOR_MESSAGES = {
  codeFormat: `Enter the ${TOTP_CODE_LENGTH}-digit code from your authenticator app`,
  codeRequired: 'Enter the code from your authenticator app or a recovery code',
  invalidCode: 'That code is not right. Please try again.',
  challengeExpired: 'Your sign-in took too long. Please sign in again.',
  alreadyEnabled: 'Two-factor sign-in is already on for this account.',
  notEnabled: 'Two-factor sign-in is not on for this account.',
  setupNotStarted: 'Please start the two-factor set-up again.',
  invalidPasswordOrCode: 'The password or the code is not right.',
  requiredForRole: 'Your practice requires two-factor sign-in for your role, so it cannot be turned off.',
  accountNotFound: 'Account not found',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const twoFactorMessage = messageSection('twoFactorMessages', TWO_FACTOR_MESSAGES);

/** The 6-digit code of an authenticator app; spaces (as some apps show it: `123 456`) are ignored. */
export const TotpCodeSchema = z
  .string({ error: twoFactorMessage.error('codeFormat') })
  .transform((value) => value.replace(/\s+/g, ''))
  .pipe(z.string().regex(new RegExp(`^\\d{${TOTP_CODE_LENGTH}}$`), { error: twoFactorMessage.error('codeFormat') }));

/** What `confirmSignIn` accepts: an authenticator code or a recovery code. */
export const ChallengeResponseSchema = z
  .string({ error: twoFactorMessage.error('codeRequired') })
  .trim()
  .min(1, { error: twoFactorMessage.error('codeRequired') })
  .max(64, { error: twoFactorMessage.error('codeRequired') });

export const DisableTwoFactorInputSchema = z.object({
  code: ChallengeResponseSchema,
  password: z
    .string({ error: passwordMessage.error('required') })
    .min(1, { error: passwordMessage.error('required') })
    .max(PASSWORD_MAX_LENGTH, { error: passwordMessage.error('tooLong') }),
});
export type DisableTwoFactorInput = z.infer<typeof DisableTwoFactorInputSchema>;

/** Whether a challenge response is an authenticator code (else it is taken as a recovery code). */
export function isTotpCode(response: string): boolean {
  return TotpCodeSchema.safeParse(response).success;
}

/**
 * A recovery code as stored: lower case, without spaces, with its hyphen after the fifth character. People
 * copy them from paper, so case, spaces and a missing hyphen do not matter.
 */
export function normalizeRecoveryCode(response: string): string {
  const compact = response.toLowerCase().replace(/[\s-]+/g, '');
  return compact.length === RECOVERY_CODE_LENGTH ? `${compact.slice(0, 5)}-${compact.slice(5)}` : compact;
}

export interface TotpSetup {
  /** The key in base32, for typing into an authenticator app that cannot scan. */
  secret: string;
  /** otpauth://totp/… for the QR code. */
  otpauthUri: string;
}

export interface TwoFactorStatus {
  enabled: boolean;
  /** Unused recovery codes; 0 when two-factor is off. */
  recoveryCodesRemaining: number;
}
