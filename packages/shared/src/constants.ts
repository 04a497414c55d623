/** Business constants from the specification. */
export const PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;
export const CRISIS_LINE = '988';
export const EMERGENCY_LINE = '911';
export const MOBILE_BREAKPOINT_PX = 768;
/** The idle-logoff warning appears this long before the server ends the session. */
export const IDLE_WARNING_MS = 60_000;
/** The specification's rate limiter default: 5 attempts per 5 minutes. */
export const RATE_LIMITER_DEFAULT = { maxAttempts: 5, windowMs: 5 * 60 * 1000 } as const;

/** The `<meta name>` whose `content` carries the page's PageBootstrap JSON (see app-config.ts). */
export const PAGE_BOOTSTRAP_META = 'app-bootstrap';

/**
 * The sign-in page and the two access-request forms: one page of the public site (decision 013), each form at its
 * own address so the browser's Back and Forward move between them (decision 048).
 */
export const SIGN_IN_PATH = '/login';
export const ACCESS_REQUEST_PATHS = {
  provider: '/request-access/provider',
  patient: '/request-access/patient',
} as const;
