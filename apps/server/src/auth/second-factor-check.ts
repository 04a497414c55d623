import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { actorScope } from '../access/scope.ts';
import type { AuditActor } from '../audit/audit.repository.ts';
import type { Database } from '../db/client.ts';
import { twoFactors } from './auth.table.ts';
import type { Auth } from './auth.ts';
import type { RequestMeta } from './session-lifetime.ts';

// The second step of a sign-in: checking a code with better-auth's twoFactor plugin, and what a used code leaves.

/** A code is accepted once: the same code again while it is still valid (90 s) counts as wrong. */
export async function codeWasJustUsed(db: Database, userId: string, code: string, totp: boolean): Promise<boolean> {
  if (!totp) return false;
  const [state] = await db
    .select({ lastCodeHash: twoFactors.lastCodeHash, lastCodeAt: twoFactors.lastCodeAt })
    .from(twoFactors)
    .where(eq(twoFactors.userId, userId));
  return (
    state?.lastCodeHash === hashCode(code) && (state.lastCodeAt?.getTime() ?? 0) > Date.now() - TOTP_REUSE_WINDOW_MS
  );
}

/** Asks the plugin to check the code against the challenge; only the challenge's cookie is passed on. */
export async function verifySecondFactor(
  auth: Auth,
  cookieHeader: string,
  code: string,
  totp: boolean,
  meta: RequestMeta,
): Promise<{ ok: true; token: string; setCookies: string[] } | { ok: false; reason: string }> {
  // Not the session cookie: with one, the plugin would check the code for that session's account instead.
  const headers = new Headers({ cookie: cookieHeader });
  if (meta.ip) headers.set('x-forwarded-for', meta.ip);
  if (meta.userAgent) headers.set('user-agent', meta.userAgent);
  try {
    const result = totp
      ? await auth.api.verifyTOTP({ body: { code }, headers, returnHeaders: true })
      : await auth.api.verifyBackupCode({ body: { code }, headers, returnHeaders: true });
    // verifyBackupCode leaves the token out only with `disableSession`, which is not asked for.
    const token = result.response.token;
    if (!token) throw new Error('better-auth passed a second factor without creating a session');
    return { ok: true, token, setCookies: result.headers.getSetCookie() };
  } catch (error) {
    const reason = (error as { body?: { code?: unknown } } | null)?.body?.code;
    if (typeof reason === 'string' && KNOWN_TWO_FACTOR_REFUSALS.has(reason)) return { ok: false, reason };
    throw error;
  }
}

/** After a code was accepted: a TOTP code is remembered (it works once), a spent recovery code is recorded. */
export async function recordSecondFactorUse(
  db: Database,
  account: { id: string; email: string },
  code: string,
  totp: boolean,
  actor: AuditActor,
  meta: RequestMeta,
): Promise<void> {
  if (totp) {
    await db
      .update(twoFactors)
      .set({ lastCodeHash: hashCode(code), lastCodeAt: new Date() })
      .where(eq(twoFactors.userId, account.id));
  } else {
    const [state] = await db
      .select({ backupCodes: twoFactors.backupCodes })
      .from(twoFactors)
      .where(eq(twoFactors.userId, account.id));
    const details = { email: account.email, recoveryCodesRemaining: countCodes(state?.backupCodes) };
    await actorScope(actor, meta.url).audit(db, 'RECOVERY_CODE_USED', details, { level: 'WARNING' });
  }
}

/** The plugin's refusals of a code that are answered to the person (anything else is unexpected). */
const KNOWN_TWO_FACTOR_REFUSALS = new Set([
  'INVALID_CODE',
  'INVALID_BACKUP_CODE',
  'ACCOUNT_TEMPORARILY_LOCKED',
  'INVALID_TWO_FACTOR_COOKIE',
  'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE',
  'TOTP_NOT_ENABLED',
  'BACKUP_CODES_NOT_ENABLED',
]);

/** A code stays valid for its 30-second step and one on either side. */
const TOTP_REUSE_WINDOW_MS = 90_000;

function hashCode(code: string): string {
  return createHash('sha256').update(code).digest('hex');
}

/** The number of codes left in the stored list. */
function countCodes(stored: string | undefined): number {
  try {
    const codes = JSON.parse(stored ?? '[]') as unknown;
    return Array.isArray(codes) ? codes.length : 0;
  } catch {
    return 0;
  }
}
