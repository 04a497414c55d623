// The kinds of e-mail the server writes: the server composes each one, the outbox screen names it.

/**
 * The e-mails the server writes (the outbox lists them by kind), in English and Spanish. None of them carries health information or the
 * details of an access request: a mailbox is not a safe place for either. The notification to administrators
 * does not even name the person; it says only which kind of request is waiting.
 */
export const MAIL_KINDS = [
  'access-request-waiting',
  'access-request-received',
  'invitation',
  'password-reset',
  'appointment-invitation',
  'appointment-cancelled',
  'appointment-reminder',
  'waitlist-offer',
  'waitlist-gone',
  'video-guest-invitation',
  'safety-alert',
  'safety-alert-escalation',
  'record-correction-waiting',
  'message-waiting',
  'emergency-access-used',
  'treatment-plan-review-due',
  'first-visit-reminder',
  'billing-statement-ready',
] as const;
export type MailKind = (typeof MAIL_KINDS)[number];
