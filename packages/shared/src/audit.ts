/** Audit events from the specification, plus the session events the server records itself. */
export const CRITICAL_EVENTS = [
  'FAILED_LOGIN',
  'UNAUTHORIZED_ACCESS',
  'DATA_BREACH',
  'ADMIN_LOGIN',
  'DATA_EXPORT',
  'PATIENT_DATA_ACCESS_VIOLATION',
  'SYSTEM_ERROR',
  'SECURITY_VIOLATION',
  // Emergency access (decision 036): a grant, an administrator's review, a provider ending it early.
  'EMERGENCY_ACCESS_GRANTED',
  'EMERGENCY_ACCESS_REVIEWED',
  'EMERGENCY_ACCESS_ENDED',
] as const;

export const HIPAA_EVENTS = [
  'PATIENT_VIEW',
  'PATIENT_CREATE',
  'PATIENT_UPDATE',
  'PATIENT_DELETE',
  'APPOINTMENT_VIEW',
  'APPOINTMENT_CREATE',
  'APPOINTMENT_UPDATE',
  'MEDICAL_RECORD_ACCESS',
  'PHI_EXPORT',
  'PHI_PRINT',
  'UNAUTHORIZED_ACCESS',
] as const;

export const ERROR_EVENTS = [
  'GRAPHQL_ERROR',
  'PATIENT_LIST_ERROR',
  'UNAUTHORIZED_ACCESS',
  'SECURITY_VIOLATION',
] as const;

export const SESSION_EVENTS = [
  'LOGIN',
  'ADMIN_LOGIN',
  'LOGOUT',
  'FAILED_LOGIN',
  'SESSION_EXPIRED',
  'ACCOUNT_LOCKED',
  /** A session ended by a rule rather than by its person or its time (details: reason). */
  'SESSION_REVOKED',
] as const;

export const ACCOUNT_EVENTS = ['ACCOUNT_CREATED', 'PROVIDER_CREATE'] as const;

/** Access requests, invitations, password resets and the mail outbox. Details carry ids and kinds, never form data. */
export const ACCESS_EVENTS = [
  'ACCESS_REQUEST_SUBMITTED',
  'ACCESS_REQUEST_VIEW',
  'ACCESS_REQUEST_APPROVED',
  'ACCESS_REQUEST_DECLINED',
  'INVITATION_SENT',
  'INVITATION_ACCEPTED',
  'INVITATION_FAILED',
  'PASSWORD_RESET_REQUESTED',
  'PASSWORD_RESET',
  'PASSWORD_RESET_FAILED',
  'RATE_LIMITED',
  'OUTBOX_VIEW',
] as const;

/**
 * Two-factor sign-in. A wrong code at sign-in is a FAILED_LOGIN (its reason names the code), a passed one is the
 * LOGIN or ADMIN_LOGIN entry (its details name the second factor); these record everything around them.
 */
export const TWO_FACTOR_EVENTS = [
  'TWO_FACTOR_CHALLENGE',
  'TWO_FACTOR_SETUP_STARTED',
  'TWO_FACTOR_SETUP_FAILED',
  'TWO_FACTOR_ENABLED',
  'TWO_FACTOR_DISABLED',
  'TWO_FACTOR_DISABLE_FAILED',
  'TWO_FACTOR_RESET',
  'RECOVERY_CODE_USED',
] as const;

/** Encrypted values rewritten by the server itself: plain text encrypted at start, or a key rotation. Counts only. */
export const DATA_KEY_EVENTS = ['DATA_REENCRYPTED'] as const;

/**
 * Stored text a new text rule refuses (decision 022): found and made inert at start (counts per field only), the
 * list read by an administrator, one finding marked resolved.
 */
export const STORED_TEXT_EVENTS = [
  'STORED_TEXT_REVIEWED',
  'STORED_TEXT_FINDINGS_VIEW',
  'STORED_TEXT_RESOLVED',
] as const;

/** A provider's working hours or time off changed (appointments themselves are the HIPAA APPOINTMENT_* events). */
export const SCHEDULE_EVENTS = ['AVAILABILITY_UPDATE'] as const;

/**
 * Video visits (decision 026): a person let into a visit's signalling, refused (why: outside the window,
 * cancelled; a stranger is an UNAUTHORIZED_ACCESS), admitted from the waiting room, the visit ended; a recording
 * asked for, each consent, started, stopped, played back, deleted at the end of its retention.
 */
export const VIDEO_EVENTS = [
  'VIDEO_JOIN',
  'VIDEO_JOIN_REFUSED',
  'VIDEO_ADMIT',
  'VIDEO_END',
  'VIDEO_GUEST_INVITED',
  'RECORDING_REQUESTED',
  'RECORDING_CONSENT',
  'RECORDING_STARTED',
  'RECORDING_STOPPED',
  'RECORDING_PLAY',
  'RECORDING_DELETED',
] as const;

/**
 * Clinical notes (decision 027): each read of a note's content is a MEDICAL_RECORD_ACCESS (a psychotherapy note's
 * a PSYCHOTHERAPY_NOTE_ACCESS); these record the changes. Details carry ids and field names, never note text.
 */
export const NOTE_EVENTS = [
  'PSYCHOTHERAPY_NOTE_ACCESS',
  'NOTE_CREATE',
  'NOTE_UPDATE',
  'NOTE_DELETE',
  'NOTE_SIGN',
  'NOTE_SIGN_FAILED',
  'NOTE_UNLOCK',
  'NOTE_ADDENDUM',
  'NOTE_TEMPLATE_CHANGE',
  'PATIENT_CHART_VIEW',
] as const;

/**
 * Rating scales and the safety path (decision 028): a questionnaire sent (or set to go out before each visit),
 * read, filled in; a safety alert raised, its providers told, read, acknowledged, escalated to administrators.
 */
export const MEASURE_EVENTS = [
  'QUESTIONNAIRE_SENT',
  'QUESTIONNAIRE_SCHEDULED',
  'QUESTIONNAIRE_VIEW',
  'QUESTIONNAIRE_SUBMITTED',
  'SAFETY_ALERT_RAISED',
  'SAFETY_ALERT_NOTIFIED',
  'SAFETY_ALERT_VIEW',
  'SAFETY_ALERT_ACKNOWLEDGED',
  'SAFETY_ALERT_ESCALATED',
] as const;

/**
 * The psychiatric record (issue 27, decision 062): a patient's record read (diagnoses, medications, allergies), a
 * diagnosis added or changed, a medication started or changed, an allergy added or removed. Details carry ids and
 * the names of the fields changed, never a code, a title or a substance.
 */
export const CLINICAL_RECORD_EVENTS = [
  'CLINICAL_RECORD_VIEW',
  'DIAGNOSIS_ADD',
  'DIAGNOSIS_UPDATE',
  'MEDICATION_START',
  'MEDICATION_CHANGE',
  'ALLERGY_ADD',
  'ALLERGY_REMOVE',
  'TREATMENT_PLAN_SAVE',
  'TREATMENT_PLAN_SIGN',
  'TREATMENT_PLAN_SIGN_FAILED',
  'TREATMENT_PLAN_ACKNOWLEDGE',
  'TREATMENT_PLAN_REVIEW_DUE',
] as const;

// A note shared with its patient or no longer; a correction request made, read by
// the care team, answered; the patient's access log read; the account's own changes.
export const PORTAL_RECORD_EVENTS = [
  'NOTE_SHARE',
  'NOTE_UNSHARE',
  'RECORD_CORRECTION_REQUESTED',
  'RECORD_CORRECTION_VIEW',
  'RECORD_CORRECTION_ANSWERED',
  'RECORD_ACCESS_LOG_VIEW',
  'ACCOUNT_UPDATE',
  'PASSWORD_CHANGED',
  'PASSWORD_CHANGE_FAILED',
  'SESSIONS_ENDED_ELSEWHERE',
] as const;

/**
 * Secure messages (decision 029): a list of conversations or a thread read, a conversation started, a message
 * sent, read, archived; an attachment uploaded or downloaded; the e-mail that a message waits. Details carry ids
 * and counts, never a subject, text or file name.
 */
export const MESSAGE_EVENTS = [
  'MESSAGE_LIST_VIEW',
  'MESSAGE_THREAD_VIEW',
  'CONVERSATION_START',
  'MESSAGE_SEND',
  'MESSAGE_READ',
  'CONVERSATION_ARCHIVE',
  'MESSAGE_ATTACHMENT_UPLOAD',
  'MESSAGE_ATTACHMENT_DOWNLOAD',
  'MESSAGE_NOTIFIED',
] as const;

/**
 * The intake packet (decision 067): an intake read, a section saved, submitted, accepted into the record, sent
 * back; an insurance card photo uploaded or read. Details carry ids, section keys and field names only.
 */
export const INTAKE_EVENTS = [
  'INTAKE_VIEW',
  'INTAKE_SAVE',
  'INTAKE_SUBMIT',
  'INTAKE_ACCEPT',
  'INTAKE_RETURN',
  'INTAKE_CARD_PHOTO_UPLOAD',
  'INTAKE_CARD_PHOTO_DOWNLOAD',
] as const;

/**
 * The practice reports of /admin/reports read (decision 035); generating a compliance report is a DATA_EXPORT. A
 * billing report read or downloaded (decision 073) names its report, range and the patients' ids, never an amount.
 */
export const REPORT_EVENTS = ['PRACTICE_REPORT_VIEW', 'PRACTICE_OUTCOMES_VIEW', 'BILLING_REPORT_VIEW'] as const;
/** An administrator read the emergency access list or one use (patient names, reasons): decision 036. */
export const EMERGENCY_ACCESS_EVENTS = ['EMERGENCY_ACCESS_VIEW'] as const;

/**
 * Users (`/admin/users`, decision 033): an administrator's list of accounts and each change to one. Details carry
 * account ids, roles and counts, never a name or an e-mail address. A two-factor reset is the existing TWO_FACTOR_RESET.
 */
export const USER_EVENTS = [
  'USER_LIST_VIEW',
  'USER_INVITED',
  'USER_ROLE_CHANGED',
  'USER_DEACTIVATED',
  'USER_REACTIVATED',
  'USER_PASSWORD_RESET_SENT',
  'USER_UNLOCKED',
  'USER_CHANGE_REFUSED',
] as const;

/**
 * The audit trail itself (decision 034): a search and an entry read by an administrator or a log collector's API
 * token, each verification of the chain (AUDIT_CHAIN_BROKEN when it does not hold), API tokens created and
 * revoked; and the events a browser reports (stored with source `client`, never a server fact).
 */
export const AUDIT_TRAIL_EVENTS = [
  'AUDIT_SEARCH',
  'AUDIT_ENTRY_VIEW',
  'AUDIT_CHAIN_VERIFIED',
  'AUDIT_CHAIN_BROKEN',
  'API_TOKEN_CREATED',
  'API_TOKEN_REVOKED',
  'PAGE_VIEW',
  'CLIENT_ERROR',
] as const;

/**
 * Backups and retention (decision 037): a backup started, written, failed; the list read; audit entries removed at
 * the end of their retention (counts only). Exports of health data are the HIPAA event PHI_EXPORT.
 */
export const DATA_EVENTS = [
  'BACKUP_STARTED',
  'BACKUP_CREATED',
  'BACKUP_FAILED',
  'BACKUP_HISTORY_VIEW',
  'AUDIT_ENTRIES_PRUNED',
] as const;

/** The practice's settings (decision 032): a setting changed or reset to its default, with old and new value. */
export const SETTINGS_EVENTS = ['SETTING_UPDATE', 'SETTING_RESET'] as const;

/**
 * The practice's documents (decision 066): a document created or saved (a new version or its settings), a
 * patient's documents listed or one read, a signature, a signed copy downloaded, a paper signature recorded.
 * Details carry ids, kinds and version numbers, never a text, a typed name or an address.
 */
export const PRACTICE_DOCUMENT_EVENTS = [
  'PRACTICE_DOCUMENT_SAVE',
  'PRACTICE_DOCUMENT_VIEW',
  'PRACTICE_DOCUMENT_SIGN',
  'PRACTICE_DOCUMENT_DOWNLOAD',
  'PRACTICE_DOCUMENT_PAPER_RECORDED',
] as const;

/** Before the first visit (decision 068): the patient's checklist read, staff's readiness badges read, an e-mail sent. */
export const FIRST_VISIT_EVENTS = [
  'FIRST_VISIT_CHECKLIST_VIEW',
  'PATIENT_READINESS_VIEW',
  'FIRST_VISIT_REMINDER_SENT',
] as const;

/**
 * Coding a visit and the patient's ledger (decision 073): a visit coded (a new version), the ledger read, a payment
 * or an adjustment recorded, an entry reversed. Details carry ids, versions and kinds, never an amount, a code or a
 * reason.
 */
export const LEDGER_EVENTS = [
  'VISIT_CODING_VIEW',
  'VISIT_CODED',
  'LEDGER_VIEW',
  'PAYMENT_RECORDED',
  'ADJUSTMENT_RECORDED',
  'LEDGER_ENTRY_REVERSED',
] as const;

/**
 * Superbills and statements (decision 073): a superbill or a statement downloaded, a statement's e-mail queued, a
 * patient's ledger read in the portal (LEDGER_VIEW, with the ledger's events). Details carry ids and dates only, never an amount or a code.
 */
export const BILLING_DOCUMENT_EVENTS = ['SUPERBILL_DOWNLOAD', 'STATEMENT_DOWNLOAD', 'STATEMENT_SENT'] as const;

/**
 * Setting up billing (issue 30, decision 073): a provider's billing identity changed (NPI, taxonomy, licence), a
 * service of the fee schedule added or changed. Details carry ids and the service code, never a fee.
 */
export const BILLING_SETUP_EVENTS = ['PROVIDER_BILLING_UPDATE', 'FEE_SCHEDULE_CHANGE'] as const;

export const AUDIT_EVENTS = [
  ...new Set([
    ...SESSION_EVENTS,
    ...CRITICAL_EVENTS,
    ...HIPAA_EVENTS,
    ...ERROR_EVENTS,
    ...ACCOUNT_EVENTS,
    ...ACCESS_EVENTS,
    ...TWO_FACTOR_EVENTS,
    ...DATA_KEY_EVENTS,
    ...STORED_TEXT_EVENTS,
    ...SCHEDULE_EVENTS,
    ...VIDEO_EVENTS,
    ...NOTE_EVENTS,
    ...MEASURE_EVENTS,
    ...CLINICAL_RECORD_EVENTS,
    ...INTAKE_EVENTS,
    ...PORTAL_RECORD_EVENTS,
    ...MESSAGE_EVENTS,
    ...REPORT_EVENTS,
    ...USER_EVENTS,
    ...EMERGENCY_ACCESS_EVENTS,
    ...AUDIT_TRAIL_EVENTS,
    ...DATA_EVENTS,
    ...SETTINGS_EVENTS,
    ...PRACTICE_DOCUMENT_EVENTS,
    ...FIRST_VISIT_EVENTS,
    ...LEDGER_EVENTS,
    ...BILLING_DOCUMENT_EVENTS,
    ...BILLING_SETUP_EVENTS,
  ] as const),
];
export type AuditEvent =
  | (typeof CRITICAL_EVENTS)[number]
  | (typeof HIPAA_EVENTS)[number]
  | (typeof ERROR_EVENTS)[number]
  | (typeof SESSION_EVENTS)[number]
  | (typeof ACCOUNT_EVENTS)[number]
  | (typeof ACCESS_EVENTS)[number]
  | (typeof TWO_FACTOR_EVENTS)[number]
  | (typeof DATA_KEY_EVENTS)[number]
  | (typeof SCHEDULE_EVENTS)[number]
  | (typeof VIDEO_EVENTS)[number]
  | (typeof NOTE_EVENTS)[number]
  | (typeof MEASURE_EVENTS)[number]
  | (typeof CLINICAL_RECORD_EVENTS)[number]
  | (typeof INTAKE_EVENTS)[number]
  | (typeof STORED_TEXT_EVENTS)[number]
  | (typeof PORTAL_RECORD_EVENTS)[number]
  | (typeof MESSAGE_EVENTS)[number]
  | (typeof REPORT_EVENTS)[number]
  | (typeof USER_EVENTS)[number]
  | (typeof EMERGENCY_ACCESS_EVENTS)[number]
  | (typeof AUDIT_TRAIL_EVENTS)[number]
  | (typeof DATA_EVENTS)[number]
  | (typeof SETTINGS_EVENTS)[number]
  | (typeof PRACTICE_DOCUMENT_EVENTS)[number]
  | (typeof FIRST_VISIT_EVENTS)[number]
  | (typeof LEDGER_EVENTS)[number]
  | (typeof BILLING_DOCUMENT_EVENTS)[number]
  | (typeof BILLING_SETUP_EVENTS)[number];

export const AUDIT_LEVELS = ['INFO', 'WARNING', 'ERROR'] as const;
export type AuditLevel = (typeof AUDIT_LEVELS)[number];

export const AUDIT_RETENTION_YEARS = { hipaa: 6, critical: 7, other: 3 } as const;

export function isHipaaEvent(event: string): boolean {
  return (HIPAA_EVENTS as readonly string[]).includes(event);
}

export function isCriticalEvent(event: string): boolean {
  return (CRITICAL_EVENTS as readonly string[]).includes(event);
}

/** 6 years for HIPAA events, 7 for other critical events, 3 otherwise (a HIPAA event that is also critical keeps 6). */
export function retentionYearsFor(event: string): number {
  if (isHipaaEvent(event)) return AUDIT_RETENTION_YEARS.hipaa;
  if (isCriticalEvent(event)) return AUDIT_RETENTION_YEARS.critical;
  return AUDIT_RETENTION_YEARS.other;
}

const REDACTED_KEY = /password|token|ssn|secret/i;

/** Copies audit details without any password, token, ssn or secret, at any depth. */
export function redactAuditDetails(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactAuditDetails);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [key, inner] of Object.entries(value)) {
      if (!REDACTED_KEY.test(key)) out[key] = redactAuditDetails(inner);
    }
    return out;
  }
  return value;
}
