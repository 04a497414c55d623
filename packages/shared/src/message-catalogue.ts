import { ACCESS_REQUEST_MESSAGES } from './access-requests.ts';
import { APPOINTMENT_MESSAGES } from './appointments.ts';
import { INVITATION_MESSAGES, PASSWORD_RESET_MESSAGES } from './account-setup.ts';
import { PASSWORD_MESSAGES } from './auth.ts';
import { formatMessage, MESSAGES, pluralTemplate, REQUEST_MESSAGES, type MessageParams } from './messages.ts';
import { MEASURE_MESSAGES } from './measures.ts';
import { CLINICAL_RECORD_MESSAGES } from './clinical-record.ts';
import { INTAKE_MESSAGES } from './intake.ts';
import { NOTE_MESSAGES } from './notes.ts';
import { PATIENT_MESSAGES } from './patients.ts';
import { PROVIDER_MESSAGES } from './providers.ts';
import { STORED_TEXT_MESSAGES } from './text.ts';
import { TWO_FACTOR_MESSAGES } from './two-factor.ts';
import { VIDEO_MESSAGES } from './video.ts';
import { BOOKING_MESSAGES } from './patient-booking.ts';
import { PORTAL_RECORD_MESSAGES } from './portal-records.ts';
import { SECURE_MESSAGE_MESSAGES } from './secure-messages.ts';
import { REPORT_MESSAGES } from './reports.ts';
import { OUTCOME_MESSAGES } from './outcomes.ts';
import { USER_MESSAGES } from './admin-users.ts';
import { EMERGENCY_ACCESS_MESSAGES } from './emergency-access.ts';
import { AUDIT_MESSAGES } from './audit-search.ts';
import { SETTINGS_MESSAGES } from './practice-settings.ts';
import { PRACTICE_DOCUMENT_MESSAGES } from './practice-documents.ts';
import { FIRST_VISIT_MESSAGES } from './first-visit.ts';
import { FIELD_MESSAGES } from './field-messages.ts';
import { BILLING_MESSAGES } from './billing.ts';

/**
 * Every message the server may send in an error, by section, in English (decision 018). A message id is
 * `section.key`; it is also the message's i18next key in the browser's `shared` namespace, whose English is
 * this object and whose other languages are `locales/<lng>/shared.json`. `{{name}}` is a parameter, sent in
 * `extensions.params`; a key with `_one`/`_other` variants is a plural chosen by the `count` parameter.
 */
export const MESSAGE_CATALOGUE = {
  messages: MESSAGES,
  requestMessages: REQUEST_MESSAGES,
  passwordMessages: PASSWORD_MESSAGES,
  twoFactorMessages: TWO_FACTOR_MESSAGES,
  patientMessages: PATIENT_MESSAGES,
  providerMessages: PROVIDER_MESSAGES,
  accessRequestMessages: ACCESS_REQUEST_MESSAGES,
  invitationMessages: INVITATION_MESSAGES,
  passwordResetMessages: PASSWORD_RESET_MESSAGES,
  storedTextMessages: STORED_TEXT_MESSAGES,
  appointmentMessages: APPOINTMENT_MESSAGES,
  videoMessages: VIDEO_MESSAGES,
  noteMessages: NOTE_MESSAGES,
  measureMessages: MEASURE_MESSAGES,
  clinicalRecordMessages: CLINICAL_RECORD_MESSAGES,
  intakeMessages: INTAKE_MESSAGES,
  bookingMessages: BOOKING_MESSAGES,
  portalRecordMessages: PORTAL_RECORD_MESSAGES,
  secureMessageMessages: SECURE_MESSAGE_MESSAGES,
  reportMessages: REPORT_MESSAGES,
  outcomeMessages: OUTCOME_MESSAGES,
  userMessages: USER_MESSAGES,
  emergencyAccessMessages: EMERGENCY_ACCESS_MESSAGES,
  auditMessages: AUDIT_MESSAGES,
  settingsMessages: SETTINGS_MESSAGES,
  practiceDocumentMessages: PRACTICE_DOCUMENT_MESSAGES,
  firstVisitMessages: FIRST_VISIT_MESSAGES,
  billingMessages: BILLING_MESSAGES,
  fieldMessages: FIELD_MESSAGES,
} as const;

type Catalogue = typeof MESSAGE_CATALOGUE;
type WithoutPlural<Key extends string> = Key extends `${infer Base}_${'one' | 'other'}` ? Base : Key;

/** The id of a catalogue message: `section.key` (a plural without its `_one`/`_other`). */
export type MessageId = {
  [Section in keyof Catalogue]: `${Section}.${WithoutPlural<keyof Catalogue[Section] & string>}`;
}[keyof Catalogue];

/** A catalogue message with its parameters, as a result (not an error) names it: signIn's `errorMessage`. */
export interface MessageRef {
  id: MessageId;
  params: MessageParams;
}

/** The English text of a catalogue message with its parameters filled in. */
export function messageText(id: MessageId, params: MessageParams = {}): string {
  const [section = '', key = ''] = id.split('.');
  const entries: Readonly<Record<string, string>> = MESSAGE_CATALOGUE[section as keyof Catalogue];
  const count = params['count'];
  const template = typeof count === 'number' ? pluralTemplate(entries, key, count) : (entries[key] ?? id);
  return formatMessage(template, params);
}

/** The messages that send a person to the practice and have a `…Phone` twin naming the number to call. */
export type ClinicContactMessageId = {
  [Id in MessageId]: `${Id}Phone` extends MessageId ? Id : never;
}[MessageId];

/**
 * A message that sends a person to the practice: "call the clinic at {phone}" when the practice has a number,
 * else the text that does not ask for a call (decision 048).
 */
export function clinicContactMessage(
  id: ClinicContactMessageId,
  phone: string | null,
  params: MessageParams = {},
): MessageRef {
  return phone ? { id: `${id}Phone` as MessageId, params: { ...params, phone } } : { id, params };
}
