import { CurrentUserSchema } from '@telehealth/shared';
import { z } from 'zod';

import { graphqlRequest } from './graphql.ts';
import { USER_FIELDS } from './sign-in.ts';

// The two-factor calls and the few things both set-up screens need (the sign-in page's set-up step and the
// app's security screen): no query cache, so the sign-in page can load this when its set-up step opens.

const TotpSetupSchema = z.object({ secret: z.string(), otpauthUri: z.string() });
export type TotpSetupData = z.infer<typeof TotpSetupSchema>;

const TotpSetupConfirmationSchema = z.object({
  recoveryCodes: z.array(z.string()),
  user: CurrentUserSchema.nullable(),
});
export type TotpSetupConfirmationData = z.infer<typeof TotpSetupConfirmationSchema>;

const TwoFactorStatusSchema = z.object({ enabled: z.boolean(), recoveryCodesRemaining: z.number() });
export type TwoFactorStatusData = z.infer<typeof TwoFactorStatusSchema>;

/** A new key for the authenticator app (the signed-in user, or a sign-in that must set up two-factor). */
export async function startTotpSetup(): Promise<TotpSetupData> {
  const data = await graphqlRequest(
    'mutation StartTotpSetup { startTotpSetup { secret otpauthUri } }',
    z.object({ startTotpSetup: TotpSetupSchema }),
    {},
    // During a sign-in there is no session to extend yet.
    { extendsSession: false },
  );
  return data.startTotpSetup;
}

/** Confirms the key with a code from the app; answers the recovery codes (and the user, when it signed in). */
export async function confirmTotpSetup(code: string): Promise<TotpSetupConfirmationData> {
  const data = await graphqlRequest(
    `mutation ConfirmTotpSetup($code: String!) { confirmTotpSetup(code: $code) { recoveryCodes user { ${USER_FIELDS} } } }`,
    z.object({ confirmTotpSetup: TotpSetupConfirmationSchema }),
    { code },
  );
  return data.confirmTotpSetup;
}

export async function fetchTwoFactorStatus(): Promise<TwoFactorStatusData> {
  const data = await graphqlRequest(
    'query TwoFactorStatus { twoFactorStatus { enabled recoveryCodesRemaining } }',
    z.object({ twoFactorStatus: TwoFactorStatusSchema }),
  );
  return data.twoFactorStatus;
}

export async function disableTwoFactor(input: { code: string; password: string }): Promise<TwoFactorStatusData> {
  const data = await graphqlRequest(
    'mutation DisableTwoFactor($code: String!, $password: String!) { disableTwoFactor(code: $code, password: $password) { enabled recoveryCodesRemaining } }',
    z.object({ disableTwoFactor: TwoFactorStatusSchema }),
    input,
  );
  return data.disableTwoFactor;
}

/**
 * The QR code of an otpauth URI as an SVG data URL (the CSP allows data: images; SVG needs no canvas and stays
 * sharp at any zoom), with the standard quiet zone of four modules. `qrcode` loads on first use.
 */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const { toString } = await import('qrcode');
  const svg = await toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 4 });
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

/** The key in groups of four characters, easier to read out and type. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

/** The recovery codes as a text file to download, with a line saying what they are. */
export function recoveryCodesFile(codes: readonly string[], heading: string): Blob {
  return new Blob([`${heading}\n\n${codes.join('\n')}\n`], { type: 'text/plain;charset=utf-8' });
}
