import { messageSection } from './field-messages.ts';
import { z } from 'zod';
import { AUDIT_LEVELS } from './audit.ts';
import { textProblem, textSchema } from './text.ts';

/**
 * Audit search, chain verification, the browser's own audit events and API tokens for log collectors
 * (decision 034). Shared by the security screen and the server, which parses again.
 */

/** Entries per page on the security screen. */
export const AUDIT_SEARCH_PAGE_SIZE = 50;
/** GET /api/audit/search: the specification's default limit, and the most one call may ask for. */
export const AUDIT_API_SEARCH_DEFAULT_LIMIT = 100;
export const AUDIT_API_SEARCH_MAX_LIMIT = 1000;

export const AUDIT_LOGS_PATH = '/api/audit/logs';
export const AUDIT_CRITICAL_PATH = '/api/audit/critical';
export const AUDIT_SEARCH_PATH = '/api/audit/search';
/** The specification's headers; a custom header also means a cross-site form can never send the request. */
export const AUDIT_BATCH_HEADER = 'x-audit-batch';
export const AUDIT_CRITICAL_HEADER = 'x-audit-critical';

/** The browser's queue (the specification's rules). */
export const AUDIT_QUEUE_MAX = 1000;
/** Beyond AUDIT_QUEUE_MAX only critical entries are kept, the newest this many. */
export const AUDIT_QUEUE_CRITICAL_KEEP = 500;
export const AUDIT_QUEUE_FLUSH_MS = 30_000;
/** After a send that failed with an exception (no answer), only the newest this many go back to the queue. */
export const AUDIT_QUEUE_REQUEUE_AFTER_EXCEPTION = 100;

/** Entries in one POST /api/audit/logs: the browser sends its queue in batches of this size. */
export const AUDIT_BATCH_MAX_ENTRIES = 100;
/** Bytes of one audit request body. */
export const AUDIT_BATCH_MAX_BYTES = 128 * 1024;
/** Characters of one entry's details as JSON. */
export const AUDIT_CLIENT_DETAILS_MAX_CHARS = 4000;
/** Audit requests per signed-in account per minute (batches and critical entries together). */
export const AUDIT_INTAKE_RATE = { maxAttempts: 30, windowMs: 60_000 } as const;

/** Who wrote an entry: the server itself, or a browser reporting what it saw (never a server fact). */
export const AUDIT_SOURCES = ['server', 'client'] as const;
export type AuditSource = (typeof AUDIT_SOURCES)[number];

/**
 * The events a browser may report. Page views of protected screens and the browser's own errors, plus the
 * specification's logged error events. A browser cannot report any other event, so nothing it sends can look
 * like a sign-in, a record read or a chain verification, and each entry is stored with source `client`.
 */
export const CLIENT_AUDIT_EVENTS = [
  'PAGE_VIEW',
  'CLIENT_ERROR',
  'GRAPHQL_ERROR',
  'PATIENT_LIST_ERROR',
  'UNAUTHORIZED_ACCESS',
  'SECURITY_VIOLATION',
] as const;
export type ClientAuditEvent = (typeof CLIENT_AUDIT_EVENTS)[number];

export const AUDIT_MESSAGES = {
  invalidBatch: 'The audit batch is not valid: {{problems}}',
  invalidEntry: 'The audit entry is not valid: {{problems}}',
  headerMissing: 'The request needs the {{header}} header.',
  invalidSearch: 'The audit search is not valid: {{problems}}',
  tokenRequired: 'No valid authentication token',
  tokenInvalid: 'The API token is not valid, has expired or was revoked.',
  tokenScope: 'The API token does not have the audit:read scope.',
  searchFailed: 'Failed to search audit logs',
  searchTooBroad: 'The search took too long. Narrow it with a shorter period, a person, an event or a patient.',
  entryNotFound: 'Audit entry not found',
  tokenNotFound: 'API token not found',
  verificationBusy: 'A verification of the chain is already running. Wait for it to finish.',
  // The rules of the search, the browser's audit batches and the API tokens.
  dateTime: '{{label}} must be a date and time (ISO 8601)',
  eventName: 'Event must be an event name in capitals, such as PATIENT_VIEW',
  levelInvalid: 'Level must be INFO, WARNING or ERROR',
  patientIdInvalid: 'Patient must be a patient id',
  textTooShort: 'Text must be at least {{min}} characters',
  sourceInvalid: 'Source must be server or client',
  fromAfterTo: 'From must be before To',
  limitNumber: 'limit must be a number',
  limitWhole: 'limit must be a whole number',
  limitMin: 'limit must be at least {{min}}',
  limitMax: 'limit must be at most {{max}}',
  clientEvent: 'event must be one of {{events}}',
  clientLevel: 'level must be INFO, WARNING or ERROR',
  clientTimestamp: 'timestamp must be an ISO 8601 date and time',
  detailsObject: 'details must be an object',
  detailsTooLong: 'details must be at most {{max}} characters as JSON',
  detailsInvalid: 'details contains invalid characters',
  logsList: 'logs must be an array of entries',
  logsEmpty: 'logs must hold at least one entry',
  logsTooMany: 'logs may hold at most {{max}} entries',
  batchIdRequired: 'batchId is required',
  tokenNameTooShort: 'Name must be at least {{min}} characters',
  scopeInvalid: 'Scope must be audit:read',
  scopeRequired: 'Choose at least one scope',
  expiryRequired: 'Choose how long the token lasts',
  expiryInvalid: 'Choose 30, 90 or 365 days',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const auditMessage = messageSection('auditMessages', AUDIT_MESSAGES);

const isoDate = (label: string) =>
  z.iso.datetime({ offset: true, error: auditMessage.error('dateTime', { label }) }).transform((v) => new Date(v));

const optionalText = (label: string, max: number) =>
  textSchema({ label, kind: 'short', max })
    .nullish()
    .transform((v) => (v ? v : undefined));

/** What the security screen (and the API) may search by. Every filter is optional; all given must match. */
export const AuditSearchFilterSchema = z
  .object({
    from: isoDate('From').nullish(),
    to: isoDate('To').nullish(),
    /** An account id, or an account's e-mail address; also `system`, `anonymous` or an API token's actor. */
    person: optionalText('Person', 254),
    event: z
      .string()
      .regex(/^[A-Z][A-Z0-9_]{1,63}$/, { error: auditMessage.error('eventName') })
      .nullish(),
    level: z.enum(AUDIT_LEVELS, { error: auditMessage.error('levelInvalid') }).nullish(),
    patientId: z.uuid({ error: auditMessage.error('patientIdInvalid') }).nullish(),
    /** Words found in the entry's address or details (at least 3 characters). */
    text: textSchema({ label: 'Text', kind: 'search', max: 100 })
      .nullish()
      .refine((v) => !v || v.length >= 3, { error: auditMessage.error('textTooShort', { min: 3 }) }),
    source: z.enum(AUDIT_SOURCES, { error: auditMessage.error('sourceInvalid') }).nullish(),
  })
  .refine((f) => !f.from || !f.to || f.from <= f.to, { error: auditMessage.error('fromAfterTo'), path: ['to'] });
export type AuditSearchFilter = z.output<typeof AuditSearchFilterSchema>;
export type AuditSearchFilterInput = z.input<typeof AuditSearchFilterSchema>;

/** GET /api/audit/search's query (the specification's names; `cursor`, `patientId`, `text` are ours). */
export const AuditApiSearchQuerySchema = z.object({
  startDate: z.string().optional(),
  endDate: z.string().optional(),
  userId: z.string().optional(),
  event: z.string().optional(),
  level: z.string().optional(),
  patientId: z.string().optional(),
  text: z.string().optional(),
  source: z.string().optional(),
  limit: z.coerce
    .number({ error: auditMessage.error('limitNumber') })
    .int({ error: auditMessage.error('limitWhole') })
    .min(1, { error: auditMessage.error('limitMin', { min: 1 }) })
    .max(AUDIT_API_SEARCH_MAX_LIMIT, { error: auditMessage.error('limitMax', { max: AUDIT_API_SEARCH_MAX_LIMIT }) })
    .default(AUDIT_API_SEARCH_DEFAULT_LIMIT),
  cursor: textSchema({ label: 'cursor', kind: 'token', max: 500 }).optional(),
});

/**
 * Whether every key and string inside a browser's details, at any depth, passes the rule of free text (decision
 * 022): no NUL or other control character but line breaks and tabs, no lone surrogate. The details are shown to
 * administrators as text, so markup characters may stay.
 */
function holdsOnlyAllowedText(value: unknown): boolean {
  if (typeof value === 'string') return textProblem(value, 'free', Number.MAX_SAFE_INTEGER) === null;
  if (Array.isArray(value)) return value.every(holdsOnlyAllowedText);
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).every(([key, inner]) => holdsOnlyAllowedText(key) && holdsOnlyAllowedText(inner));
  }
  return true;
}

/**
 * One entry as a browser reports it. Only these fields are read: the person, role, session, address and
 * agent come from the request, and any `userId`, `userRole`, `checksum` or `hipaaRequired` sent is ignored.
 */
export const ClientAuditEntrySchema = z.object({
  event: z.enum(CLIENT_AUDIT_EVENTS, {
    error: auditMessage.error('clientEvent', { events: CLIENT_AUDIT_EVENTS.join(', ') }),
  }),
  level: z.enum(AUDIT_LEVELS, { error: auditMessage.error('clientLevel') }).default('INFO'),
  /** When the browser saw it (kept in the details; the entry's time is the server's). */
  timestamp: z.iso.datetime({ offset: true, error: auditMessage.error('clientTimestamp') }).optional(),
  /** The browser's audit session (session storage), kept in the details. */
  sessionId: textSchema({ label: 'sessionId', kind: 'token', max: 64 }).optional(),
  // A page's address as the browser reports it (percent-encoded): one line, no markup, no controls.
  url: textSchema({ label: 'url', kind: 'token', max: 2048 }).optional(),
  referrer: textSchema({ label: 'referrer', kind: 'token', max: 2048 }).optional(),
  details: z
    .record(z.string(), z.unknown(), { error: auditMessage.error('detailsObject') })
    .refine((d) => JSON.stringify(d).length <= AUDIT_CLIENT_DETAILS_MAX_CHARS, {
      error: auditMessage.error('detailsTooLong', { max: AUDIT_CLIENT_DETAILS_MAX_CHARS }),
    })
    .refine(holdsOnlyAllowedText, { error: auditMessage.error('detailsInvalid') })
    .optional(),
});
export type ClientAuditEntry = z.input<typeof ClientAuditEntrySchema>;

/** POST /api/audit/logs's body: the specification's `logs`, `batchId`, `timestamp`. */
export const AuditBatchSchema = z.object({
  logs: z
    .array(ClientAuditEntrySchema, { error: auditMessage.error('logsList') })
    .min(1, { error: auditMessage.error('logsEmpty') })
    .max(AUDIT_BATCH_MAX_ENTRIES, { error: auditMessage.error('logsTooMany', { max: AUDIT_BATCH_MAX_ENTRIES }) }),
  batchId: textSchema({ label: 'batchId', kind: 'token', max: 64 }).refine((v) => v !== '', {
    error: auditMessage.error('batchIdRequired'),
  }),
  timestamp: z.iso.datetime({ offset: true, error: auditMessage.error('clientTimestamp') }),
});
export type AuditBatch = z.input<typeof AuditBatchSchema>;

/** What an API token may do. */
export const API_TOKEN_SCOPES = ['audit:read'] as const;
export type ApiTokenScope = (typeof API_TOKEN_SCOPES)[number];
/** How long a new token lasts, in days (the screen offers these). */
export const API_TOKEN_EXPIRY_DAYS = [30, 90, 365] as const;
export const API_TOKEN_DEFAULT_EXPIRY_DAYS = 90;
/** Every token starts so, which tells it apart from a session and lets secret scanners recognise one. */
export const API_TOKEN_PREFIX = 'thk_';

export const CreateApiTokenInputSchema = z.object({
  name: textSchema({ label: 'Name', kind: 'short', max: 80 }).refine((v) => v.length >= 2, {
    error: auditMessage.error('tokenNameTooShort', { min: 2 }),
  }),
  scopes: z
    .array(z.enum(API_TOKEN_SCOPES, { error: auditMessage.error('scopeInvalid') }))
    .min(1, { error: auditMessage.error('scopeRequired') }),
  expiresInDays: z
    .number({ error: auditMessage.error('expiryRequired') })
    .int()
    .refine((d) => (API_TOKEN_EXPIRY_DAYS as readonly number[]).includes(d), {
      error: auditMessage.error('expiryInvalid'),
    }),
});
export type CreateApiTokenInput = z.input<typeof CreateApiTokenInputSchema>;
