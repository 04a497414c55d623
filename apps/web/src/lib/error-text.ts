import {
  issueMessage,
  PATIENT_ACCESS_REQUEST_LABELS,
  PATIENT_LABELS,
  PROVIDER_ACCESS_REQUEST_LABELS,
  type CodedMessage,
} from '@telehealth/shared';
import type { z } from 'zod';

// The page's instance, whichever page set it up (lib/i18n-core.ts): the public site's or the single-page app's.
import i18n from 'i18next';

/**
 * Where the label of a field the shared schemas name is translated, by the field's name (the path the schema and
 * the server give a problem). Each key's English is the schema's own label, so the English text is the schema's,
 * word for word. A form that shows the field under its own label passes that label instead.
 */
const LABEL_SOURCES: readonly { fields: readonly string[]; key: (field: string) => string }[] = [
  { fields: Object.keys(PATIENT_LABELS), key: (field) => `shared:patientLabels.${field}` },
  { fields: Object.keys(PROVIDER_ACCESS_REQUEST_LABELS), key: (field) => `access-request:labels.provider.${field}` },
  { fields: Object.keys(PATIENT_ACCESS_REQUEST_LABELS), key: (field) => `access-request:labels.patient.${field}` },
  { fields: ['password'], key: () => 'auth:password' },
  { fields: ['bio'], key: () => 'providers:form.bio' },
  { fields: ['reason'], key: () => 'access-review:declineModal.reason' },
  { fields: ['practiceName'], key: () => 'settings:fields.practiceName.label' },
  { fields: ['fileName'], key: () => 'messages:compose.fileName' },
  { fields: ['name'], key: () => 'video:join.nameLabel' },
];

/** The i18n key of a field's label, by the field's name (the last part of its path), or null when unknown. */
export function labelKeyOf(field: string): string | null {
  const name = field.split('.').pop() ?? field;
  const source = LABEL_SOURCES.find((s) => s.fields.includes(name));
  return source ? source.key(name) : null;
}

/** The key of a message in the `shared` namespace (the message catalogue of @telehealth/shared). */
const keyOf = (id: string) => `shared:${id}`;

export interface ErrorTextOptions {
  /** The label the form shows for the field; otherwise the field's known label, then the schema's own. */
  label?: string | undefined;
  /** The field the message is about (for its label), when the form does not give one. */
  field?: string | undefined;
  /** The language; by default the page's. */
  lng?: string | undefined;
}

// i18next's key type is the typed catalogue; a message id arrives at run time.
const translate = i18n.t.bind(i18n) as unknown as (key: string, options: Record<string, unknown>) => string;

/**
 * A coded message (a field's problem from a shared schema or the server, or any message of the catalogue) in the
 * page's language: found by its id and filled with its parameters, never by reading an English sentence. An id
 * this browser does not know (a newer server) is said as "Invalid input".
 */
export function errorText(message: CodedMessage, options: ErrorTextOptions = {}): string {
  const params: Record<string, unknown> = { ...message.params };
  if (options.lng) params['lng'] = options.lng;
  if ('label' in message.params) {
    const labelKey = options.field === undefined ? null : labelKeyOf(options.field);
    params['label'] =
      options.label ?? (labelKey ? translate(labelKey, { lng: options.lng }) : String(message.params['label']));
  }
  const key = i18n.exists(keyOf(message.id), params) ? keyOf(message.id) : keyOf('fieldMessages.invalid');
  return translate(key, params);
}

/** The same message as a plain id and parameters, for code that holds the catalogue's constants. */
export const coded = (id: string, params: CodedMessage['params'] = {}): CodedMessage => ({ id, params });

/** The first problem of a failed parse with a shared schema, in the page's language. */
export function firstIssueText(error: { issues: readonly z.core.$ZodIssue[] }, options: ErrorTextOptions = {}): string {
  const issue = error.issues[0];
  return issue ? errorText(issueMessage(issue), options) : errorText(coded('fieldMessages.invalid'));
}

/** Whether a value is a coded message (an id and parameters). */
export function isCodedMessage(value: unknown): value is CodedMessage {
  return (
    value !== null &&
    typeof value === 'object' &&
    typeof (value as { id?: unknown }).id === 'string' &&
    typeof (value as { params?: unknown }).params === 'object'
  );
}
