/** Messages the server sends and the browser shows; kept word for word from the specification where it has one. */
export const MESSAGES = {
  authRequired: 'Authentication required. Please sign in.',
  invalidCredentials: 'Invalid credentials',
  accountDisabled: 'This account is not active. Please contact your practice administrator.',
  loginFailed: 'Login failed',
  sessionExpired: 'Your session expired. Please sign in again.',
  accessDenied: 'Access Denied',
  adminRequired: 'Administrator access required.',
  defaultDenied: "You don't have permission to access this resource.",
  unexpected: 'An unexpected error occurred',
  demoModeOff: 'Demo accounts are not available on this server.',
  /** The sign-in result when a second step (a code, or setting up two-factor) remains: the specification's words. */
  additionalStepsRequired: 'Additional authentication steps required',
} as const;

/** The message for a locked account, saying when sign-in may be tried again. */
export function accountLockedMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  const unit = minutes === 1 ? 'minute' : 'minutes';
  return `Too many failed sign-in attempts. Sign-in for this account is locked; please try again in ${minutes} ${unit}.`;
}

/** GraphQL error codes carried in extensions.code. */
export const ERROR_CODES = {
  unauthenticated: 'UNAUTHENTICATED',
  forbidden: 'FORBIDDEN',
  badUserInput: 'BAD_USER_INPUT',
  notFound: 'NOT_FOUND',
  internal: 'INTERNAL_SERVER_ERROR',
  /** A rate limit refused the call; `extensions.retryAfterSeconds` says when to try again. */
  tooManyRequests: 'TOO_MANY_REQUESTS',
} as const;

/** The message for a call refused by a rate limit, saying when to try again. */
export function tooManyRequestsMessage(retryAfterMs: number): string {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return `Too many attempts. Please try again in ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}.`;
}
