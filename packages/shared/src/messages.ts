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
  // Plurals (i18next's `_one`/`_other`, chosen by the `count` parameter): see accountLockedMessage and
  // tooManyRequestsMessage.
  accountLocked_one:
    'Too many failed sign-in attempts. Sign-in for this account is locked; please try again in {{count}} minute.',
  accountLocked_other:
    'Too many failed sign-in attempts. Sign-in for this account is locked; please try again in {{count}} minutes.',
  tooManyRequests_one: 'Too many attempts. Please try again in {{count}} minute.',
  tooManyRequests_other: 'Too many attempts. Please try again in {{count}} minutes.',
  /** A refused input: every problem (each a message of the shared schemas), joined by commas. */
  validationFailed: 'Validation failed: {{problems}}',
  outboxDemoOnly: 'The outbox can be read only while demo mode is on.',
  /** A retried form whose first sending was saved with other values (Idempotency-Key, decision 044). */
  idempotencyKeyReused: 'This form was already saved with other values. Reload the page to see what was saved.',
  /** The first sending of the same form is still being saved. */
  idempotencyKeyInFlight: 'This form is still being saved. Please wait a moment and try again.',
} as const;

/** Whole minutes until `retryAfterMs` has passed, at least one: what the lockout messages say. */
export function minutesToWait(retryAfterMs: number): number {
  return Math.max(1, Math.ceil(retryAfterMs / 60_000));
}

/** Picks `key_one` or `key_other` of a catalogue section by `count`, as i18next does for English. */
export function pluralTemplate(section: Readonly<Record<string, string>>, key: string, count: number): string {
  const form = new Intl.PluralRules('en').select(count);
  return section[`${key}_${form}`] ?? section[`${key}_other`] ?? section[key] ?? key;
}

/** The message for a locked account, saying when sign-in may be tried again. */
export function accountLockedMessage(retryAfterMs: number): string {
  const count = minutesToWait(retryAfterMs);
  return formatMessage(pluralTemplate(MESSAGES, 'accountLocked', count), { count });
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
  /** The HTTP request is not a GraphQL request at all (not JSON, not an object, no query, ...): HTTP 400. */
  badRequest: 'BAD_REQUEST',
  /** The body is over the size limit: HTTP 413. */
  payloadTooLarge: 'PAYLOAD_TOO_LARGE',
  /** The body is not `application/json`: HTTP 415. */
  unsupportedMediaType: 'UNSUPPORTED_MEDIA_TYPE',
  /** GraphQL is only served over POST: HTTP 405. */
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  /** A state-changing request from a browser on another origin than the product's own (decision 018): HTTP 403. */
  crossOriginRequest: 'CROSS_ORIGIN_REQUEST',
  /** The GraphQL document does not parse or is not valid for the schema, or goes over a limit: HTTP 400. */
  graphqlValidationFailed: 'GRAPHQL_VALIDATION_FAILED',
  /** The provider already has an appointment that overlaps (the database's exclusion constraint). */
  providerBusy: 'PROVIDER_BUSY',
  /** The patient already has an appointment that overlaps, with any provider. */
  patientBusy: 'PATIENT_BUSY',
  /** Outside the provider's working hours or in their time off: staff may confirm (`allowOutsideHours`). */
  outsideWorkingHours: 'OUTSIDE_WORKING_HOURS',
  /** Some occurrences of a series are not free; `extensions.conflicts` lists them by date. */
  seriesConflicts: 'SERIES_CONFLICTS',
  /** A change of status the transitions table does not allow. */
  wrongTransition: 'WRONG_TRANSITION',
  /** The video visit cannot be joined now (cancelled, before or after its window); `extensions.reason` says why. */
  videoClosed: 'VIDEO_CLOSED',
  /** The Idempotency-Key header is not a string of 1 to 255 printable characters: HTTP 400 (decision 044). */
  idempotencyKeyInvalid: 'IDEMPOTENCY_KEY_INVALID',
  /** The key was used, within its day, for another operation or other input: nothing was written (the draft's 422). */
  idempotencyKeyReused: 'IDEMPOTENCY_KEY_REUSED',
  /** The first request with this key is still running: try again once it has answered (the draft's 409). */
  idempotencyKeyInFlight: 'IDEMPOTENCY_KEY_IN_FLIGHT',
  /** A plain HTTP request for a WebSocket's path: HTTP 426 with `Upgrade: websocket`. */
  upgradeRequired: 'UPGRADE_REQUIRED',
  /** A download's Range starts past the file's end: HTTP 416 with `Content-Range: bytes *\/size`. */
  rangeNotSatisfiable: 'RANGE_NOT_SATISFIABLE',
} as const;

/**
 * What is wrong with a request that never reaches GraphQL's execution: said to whoever sent it (a developer or a
 * tool, never the web app's own requests). `{{name}}` is a parameter, sent beside the message in
 * `extensions.params`.
 */
export const REQUEST_MESSAGES = {
  methodNotAllowed: 'Use POST for GraphQL requests.',
  unsupportedMediaType: 'GraphQL requests must have a JSON body (Content-Type: application/json).',
  emptyBody: 'The request body is empty. Send a JSON object with a query.',
  notJson: 'The request body is not valid JSON.',
  forbiddenKey: 'The request body may not use "__proto__" or "constructor" as a key.',
  bodyTooLarge: 'The request body is larger than the limit of {{limitKilobytes}} KB.',
  batchNotSupported: 'Send one GraphQL operation per request: a JSON array of operations is not accepted.',
  notAnObject: 'The request body must be a JSON object with a query.',
  queryMissing: 'The request has no query: send the GraphQL document as text in "query".',
  queryNotText: 'The query must be a GraphQL document as text.',
  variablesNotObject: '"variables" must be a JSON object.',
  extensionsNotObject: '"extensions" must be a JSON object.',
  operationNameNotText: '"operationName" must be text.',
  unreadable: 'The request could not be read.',
  notFound: 'Nothing was found at this address.',
  crossOrigin: 'This request must come from the pages of this site.',
  uploadType: 'This upload must be sent as one of these types: {{types}}.',
  rangeNotSatisfiable: 'The requested byte range is outside the file.',
  tooManyAliases: 'The query uses more than {{limit}} aliases.',
  tooDeep: 'The query is nested more than {{limit}} levels deep.',
  tooCostly: 'The query asks for too much at once (its cost is over the limit of {{limit}}).',
  tooManyDirectives: 'The query uses more than {{limit}} directives.',
  oneCredentialOperation: 'The query holds more than {{limit}} sign-in or password operation.',
  idempotencyKeyInvalid:
    'The Idempotency-Key header must be a string of 1 to {{limit}} printable characters, in double quotes (an sf-string).',
  /** A plain HTTP request for a WebSocket's path: HTTP 426. */
  webSocketOnly: '{{path}} is a WebSocket.',
  /** A recording's part without a part number or bytes. */
  recordingChunkInvalid: 'A part number and WebM bytes are required.',
  calendarFeedNotFound: 'Calendar feed not found',
  metricsTokenRequired: 'The metrics need the bearer token METRICS_TOKEN.',
  metricsAddressRefused: 'The metrics are not open to this address: see METRICS_ALLOW and METRICS_TOKEN.',
} as const;

/** Parameters of a message: each `{{name}}` in its text. */
export type MessageParams = Readonly<Record<string, string | number>>;

/** A message's text with its `{{name}}` placeholders filled in (the same syntax the browser's i18next uses). */
export function formatMessage(template: string, params: MessageParams = {}): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (placeholder, name: string) =>
    name in params ? String(params[name]) : placeholder,
  );
}

/** The message for a call refused by a rate limit, saying when to try again. */
export function tooManyRequestsMessage(retryAfterMs: number): string {
  const count = minutesToWait(retryAfterMs);
  return formatMessage(pluralTemplate(MESSAGES, 'tooManyRequests', count), { count });
}
