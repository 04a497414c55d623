import { PATIENT_ACCESS_REQUEST_LABELS, PATIENT_LABELS, PROVIDER_ACCESS_REQUEST_LABELS } from '@telehealth/shared';

// The page's instance, whichever page set it up (lib/i18n-core.ts): the public site's or the single-page app's.
import i18n from 'i18next';

/**
 * The messages of @telehealth/shared (its zod schemas, and the server's answers) are English, word for word
 * from the specification, on both sides. The browser says them in the visitor's language by recognising them:
 * the English texts of these translation sections are the patterns, and the same keys in another language are
 * the translations. In a pattern `{{label}}` stands for a field's label (itself translated), `{{problems}}` for
 * a comma-separated list of messages (each translated), and any other placeholder for a number.
 */
const CATALOGUES = [
  // MESSAGES of @telehealth/shared (lib/i18n.ts puts them in the `shared` namespace).
  { namespace: 'shared', section: 'messages' },
  // The scheduling schemas' messages (APPOINTMENT_MESSAGES), said by the forms before the server is asked.
  { namespace: 'shared', section: 'appointmentMessages' },
  // The reports' period (REPORT_MESSAGES), checked by the form before the server is asked.
  { namespace: 'shared', section: 'reportMessages' },
  // The practice settings' schemas (packages/shared practice-settings.ts), said by /admin/settings.
  { namespace: 'shared', section: 'settingsMessages' },
  // A video visit's name (VideoNameSchema), said by the join and guest forms.
  { namespace: 'shared', section: 'videoMessages' },
  // Everything else the schemas and the public operations say (locales/en/errors.json).
  { namespace: 'errors', section: 'messages' },
] as const;

/** Where the label of each field the shared schemas name in their messages is translated. */
const LABEL_SOURCES = [
  { labels: PROVIDER_ACCESS_REQUEST_LABELS, key: (field: string) => `access-request:labels.provider.${field}` },
  { labels: PATIENT_ACCESS_REQUEST_LABELS, key: (field: string) => `access-request:labels.patient.${field}` },
  { labels: { email: 'Email', password: 'Password' }, key: (field: string) => `auth:${field}` },
  // The signed-in app's forms: a patient's record, Add Provider's biography, the reason for declining a request.
  { labels: PATIENT_LABELS, key: (field: string) => `shared:patientLabels.${field}` },
  { labels: { bio: 'Bio' }, key: () => 'providers:form.bio' },
  { labels: { reason: 'Reason' }, key: () => 'access-review:declineModal.reason' },
  { labels: { practiceName: 'Practice name' }, key: () => 'settings:fields.practiceName.label' },
  // A message attachment's file name, and the name a person gives for a video visit (packages/shared).
  { labels: { fileName: 'File name' }, key: () => 'messages:compose.fileName' },
  { labels: { name: 'Name' }, key: () => 'video:join.nameLabel' },
] as const;

const PLURAL_SUFFIX = /_(?:zero|one|two|few|many|other)$/;
const PLACEHOLDER = /\{\{\s*(\w+)\s*\}\}/g;

interface MessagePattern {
  /** `namespace:key`, without a plural suffix. */
  key: string;
  regex: RegExp;
  params: string[];
}

export interface MessageMatch {
  key: string;
  /** The text each placeholder stood for, as found in the English message. */
  values: Record<string, string>;
}

export interface TranslateMessageOptions {
  /** The label the form shows for the field the message is about; otherwise the label in the message is looked up. */
  label?: string | undefined;
  /** The language to say it in; by default the page's. */
  lng?: string | undefined;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function compilePattern(key: string, template: string): MessagePattern {
  const params: string[] = [];
  let source = '';
  let last = 0;
  for (const match of template.matchAll(PLACEHOLDER)) {
    const name = match[1] ?? '';
    source += escapeRegExp(template.slice(last, match.index));
    source += name === 'label' ? '(.+?)' : name === 'problems' ? '(.+)' : '(\\d+)';
    params.push(name);
    last = match.index + match[0].length;
  }
  source += escapeRegExp(template.slice(last));
  return { key, regex: new RegExp(`^${source}$`, 'u'), params };
}

/** Fixed texts and numbers first, then texts around a label, then lists: the most specific pattern wins. */
function rank(pattern: MessagePattern): number {
  if (pattern.params.includes('problems')) return 2;
  return pattern.params.includes('label') ? 1 : 0;
}

function collectTemplates(node: unknown, path: string, into: [string, string][]): void {
  if (typeof node === 'string') into.push([path, node]);
  else if (node !== null && typeof node === 'object') {
    for (const [name, child] of Object.entries(node)) collectTemplates(child, `${path}.${name}`, into);
  }
}

let patterns: MessagePattern[] | null = null;
let labels: Map<string, string> | null = null;

function messagePatterns(): MessagePattern[] {
  if (patterns) return patterns;
  const compiled: MessagePattern[] = [];
  for (const { namespace, section } of CATALOGUES) {
    const templates: [string, string][] = [];
    collectTemplates(i18n.getResource('en', namespace, section), section, templates);
    for (const [path, template] of templates) {
      compiled.push(compilePattern(`${namespace}:${path.replace(PLURAL_SUFFIX, '')}`, template));
    }
  }
  patterns = compiled
    .map((pattern, index) => ({ pattern, index }))
    .sort((a, b) => rank(a.pattern) - rank(b.pattern) || a.index - b.index)
    .map(({ pattern }) => pattern);
  return patterns;
}

function labelKeys(): Map<string, string> {
  if (labels) return labels;
  labels = new Map();
  for (const source of LABEL_SOURCES) {
    for (const [field, label] of Object.entries(source.labels)) {
      // Messages may lower-case the label ("Please choose a valid specialty"); the first source wins.
      if (!labels.has(label.toLowerCase())) labels.set(label.toLowerCase(), source.key(field));
    }
  }
  return labels;
}

/** The i18n key of a field label that the shared schemas put into their messages, or null when unknown. */
export function labelKey(englishLabel: string): string | null {
  return labelKeys().get(englishLabel.toLowerCase()) ?? null;
}

/**
 * The catalogue entry an English message is an instance of, or null for a message the browser does not know
 * (including a known sentence around a label the schemas do not use).
 */
export function matchMessage(message: string): MessageMatch | null {
  for (const pattern of messagePatterns()) {
    const found = pattern.regex.exec(message);
    if (!found) continue;
    const values: Record<string, string> = {};
    pattern.params.forEach((name, index) => {
      values[name] = found[index + 1] ?? '';
    });
    // Only the schemas' own labels: "Email is required, Password is required" is a list, not a label.
    if (values['label'] !== undefined && labelKey(values['label']) === null) continue;
    return { key: pattern.key, values };
  }
  return null;
}

/**
 * Splits "A, B, C" into known messages, taking the longest known one at each step (a message may contain
 * commas itself); null when some part is not a known message.
 */
export function splitMessageList(text: string): string[] | null {
  const pieces = text.split(', ');
  const messages: string[] = [];
  let start = 0;
  while (start < pieces.length) {
    let end = pieces.length;
    while (end > start && !matchMessage(pieces.slice(start, end).join(', '))) end -= 1;
    if (end === start) return null;
    messages.push(pieces.slice(start, end).join(', '));
    start = end;
  }
  return messages;
}

function hasTranslation(lng: string, key: string): boolean {
  const [namespace = '', path = ''] = key.split(':');
  return (
    i18n.getResource(lng, namespace, path) !== undefined ||
    i18n.getResource(lng, namespace, `${path}_other`) !== undefined
  );
}

function translateLabel(englishLabel: string, lng: string): string {
  const key = labelKey(englishLabel);
  if (!key) return englishLabel;
  const [namespace = '', path = ''] = key.split(':');
  const translated: unknown = i18n.getResource(lng, namespace, path);
  return typeof translated === 'string' ? translated : englishLabel;
}

/**
 * A message of the shared schemas or of the server in the page's language (or `options.lng`). English, and any
 * message without a translation, is returned exactly as it came.
 */
export function translateMessage(message: string, options: TranslateMessageOptions = {}): string {
  const lng = options.lng ?? i18n.resolvedLanguage ?? i18n.language;
  if (!lng || lng === 'en' || lng.startsWith('en-')) return message;
  const match = matchMessage(message);
  if (!match) {
    // The server joins several problems with commas ("Email is required, Password is required").
    const list = message.includes(', ') ? splitMessageList(message) : null;
    return list && list.length > 1 ? list.map((part) => translateMessage(part, { lng })).join(', ') : message;
  }
  if (!hasTranslation(lng, match.key)) return message;
  const params: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(match.values)) {
    if (name === 'label') params[name] = options.label ?? translateLabel(value, lng);
    else if (name === 'problems') {
      const list = splitMessageList(value);
      params[name] = list ? list.map((part) => translateMessage(part, { lng })).join(', ') : value;
    } else params[name] = Number(value);
  }
  // The key is found in the catalogue at run time, so it is not one of the typed keys.
  return (i18n.t as (key: string, options: Record<string, unknown>) => string)(match.key, { ...params, lng });
}
