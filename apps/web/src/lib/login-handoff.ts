/**
 * What a page tells the sign-in page it sends the person to: where to return after signing in, whether the
 * session expired or the person signed out, the address a password was just set for. /login is the public site's own page
 * (docs/decisions/013-sign-in-on-the-public-site.md), so this crosses a document load: it goes through this
 * tab's sessionStorage, never the URL (a path may name a record, an address is personal).
 */
export interface LoginHandoff {
  from?: string;
  sessionExpired?: boolean;
  /** The person signed out on purpose (the page confirms it). */
  signedOut?: boolean;
  email?: string;
}

export const LOGIN_PATH = '/login';
/** Where sign-in leads when the person was not on their way somewhere. */
export const HOME_AFTER_SIGN_IN = '/dashboard';
const STORAGE_KEY = 'telehealth.login-handoff';
/** A handoff is read by the page load it was written for; an older one (the tab went elsewhere) is ignored. */
const HANDOFF_TTL_MS = 60_000;

/**
 * A path inside this app to return to after sign-in, or null. Only same-site paths: never another origin
 * ("//evil.test", "/\\evil.test"), never the login page itself.
 */
export function safeReturnPath(from: unknown): string | null {
  if (typeof from !== 'string' || !from.startsWith('/')) return null;
  if (from.startsWith('//') || from.startsWith('/\\')) return null;
  if (
    from === LOGIN_PATH ||
    from.startsWith(`${LOGIN_PATH}?`) ||
    from.startsWith(`${LOGIN_PATH}/`) ||
    from.startsWith(`${LOGIN_PATH}#`)
  )
    return null;
  return from;
}

/**
 * An address to fill in, or null. Only a plausible one: the sign-in form checks it with the shared schema when
 * it is sent (the schema library is not loaded before then, see features/auth/hooks/use-sign-in-logic.ts).
 */
function plausibleEmail(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const email = value.trim().toLowerCase();
  return email.length <= 254 && /^[^\s@]+@[^\s@]+$/.test(email) ? email : null;
}

/** Only the known fields, each checked: a safe return path, `true` for the flags, a plausible address. */
export function parseLoginHandoff(value: unknown): LoginHandoff {
  if (value === null || typeof value !== 'object') return {};
  const handoff: LoginHandoff = {};
  const from = 'from' in value ? safeReturnPath(value.from) : null;
  if (from) handoff.from = from;
  if ('sessionExpired' in value && value.sessionExpired === true) handoff.sessionExpired = true;
  if ('signedOut' in value && value.signedOut === true) handoff.signedOut = true;
  const email = 'email' in value ? plausibleEmail(value.email) : null;
  if (email) handoff.email = email;
  return handoff;
}

function storage(): Storage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    // Storage switched off: the sign-in page then just does not know.
    return null;
  }
}

export function writeLoginHandoff(handoff: LoginHandoff, now: number = Date.now()): void {
  try {
    storage()?.setItem(STORAGE_KEY, JSON.stringify({ ...handoff, at: now }));
  } catch {
    // Full or forbidden: nothing is lost but the convenience.
  }
}

/** Reads the handoff written for this page load and removes it, so it is shown once. */
export function takeLoginHandoff(now: number = Date.now()): LoginHandoff {
  const store = storage();
  const raw = store?.getItem(STORAGE_KEY);
  if (!raw) return {};
  store?.removeItem(STORAGE_KEY);
  try {
    const value: unknown = JSON.parse(raw);
    if (value === null || typeof value !== 'object' || !('at' in value) || typeof value.at !== 'number') return {};
    if (now - value.at > HANDOFF_TTL_MS || value.at > now + HANDOFF_TTL_MS) return {};
    return parseLoginHandoff(value);
  } catch {
    return {};
  }
}

/** Loads the sign-in page, telling it `handoff`; `replace` leaves the current page out of the history. */
export function goToLogin(handoff: LoginHandoff = {}, options: { replace?: boolean } = {}): void {
  writeLoginHandoff(handoff);
  if (options.replace) window.location.replace(LOGIN_PATH);
  else window.location.assign(LOGIN_PATH);
}
