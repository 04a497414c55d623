import { z } from 'zod';

import { fieldMessage } from './field-messages.ts';

/**
 * One rule for every text a person or a program sends us (decision 022). Every string input of every operation
 * is built from `textSchema` (or a schema that starts from it), on both sides:
 *
 * - Unicode-normalised to NFC, so "é" typed as e + combining accent and "é" typed at once are one value.
 * - Refused, with the field's message: NUL and every other control character (free text keeps line breaks and
 *   tabs), lone surrogates (half of a character, which PostgreSQL and JSON cannot hold), and in short fields the
 *   bidirectional overrides that make text read differently from how it is stored.
 * - Short fields (names, addresses, phone numbers, ...) refuse `<` and `>`: no such field needs them, and
 *   without them no stored value can become markup wherever it is shown. They also refuse a value that starts
 *   with a URL scheme that runs code or reads local files (`javascript:`, `data:...,`, see `DANGEROUS_URL_START`),
 *   so no stored value becomes a live link if some later output puts it in an `href`. Free text (reason for care,
 *   allergies, notes, messages) is stored exactly as typed, markup characters included, and is never run:
 *   the browser renders it as text and every other format escapes it through the library that writes it.
 * - Every text has a maximum length.
 *
 * Nothing is removed silently: text either passes as typed (normalised, trimmed, spaces folded in short
 * fields) or is refused with a message that says why.
 */

/** How a text field is kept: see `textSchema`. */
export const TEXT_KINDS = ['short', 'free', 'search', 'token'] as const;
export type TextKind = (typeof TEXT_KINDS)[number];

/** Why a text is refused, in the order it is checked. */
export type TextProblem = 'invalidCharacters' | 'markup' | 'urlScheme' | 'tooLong';

// Finding control characters is the point of these two.
/* eslint-disable no-control-regex */
// C0 controls but tab, line feed and carriage return; DEL; C1 controls.
const CONTROL_IN_FREE_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/u;
// Every control character, line breaks and tabs included, and the line and paragraph separators.
const CONTROL_IN_SHORT_TEXT = /[\u0000-\u001F\u007F-\u009F\u2028\u2029]/u;
/* eslint-enable no-control-regex */
// Half of a surrogate pair with no other half: not a character. With the u flag only lone ones match.
const LONE_SURROGATE = /\p{Cs}/u;
// Embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069): they reorder what is shown.
const BIDI_CONTROL = /[\u202A-\u202E\u2066-\u2069]/u;
const MARKUP = /[<>]/;
// What a browser ignores inside a URL's scheme or before it (whitespace, controls, invisible format characters
// such as zero-width spaces), removed before the start of a value is compared, so `Java Script :` is caught too.
const IGNORED_IN_SCHEME = /[\s\p{Cc}\p{Cf}]+/gu;
/**
 * The start of a value that is a URL a browser would run or open from the device rather than the web:
 * `javascript:`, `vbscript:`, `livescript:` run code; `file:` and `filesystem:` read local files; `data:` holds a
 * whole document, but only as a data URL (a media type or nothing, then a comma: `data:text/html;base64,...`,
 * `data:,x`), so "Data: March" is ordinary text. Text with a colon further on ("Note: ...", "10:30") is not a URL
 * of these kinds. Compared case-insensitively after removing `IGNORED_IN_SCHEME`.
 */
const DANGEROUS_URL_START =
  /^(?:(?:java|vb|live)script|file|filesystem):|^data:(?:[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+)?(?:;[^,]*)?,/u;

/** Whether a text starts with a URL that runs code or opens local files (see `DANGEROUS_URL_START`). */
export function startsWithDangerousUrl(value: string): boolean {
  return DANGEROUS_URL_START.test(value.replace(IGNORED_IN_SCHEME, '').toLowerCase());
}

/**
 * What a text field of this kind would be stored as: NFC; free text with its line breaks as `\n` and its ends
 * trimmed; every other kind trimmed with each run of spaces folded into one.
 */
export function normalizeText(value: string, kind: TextKind): string {
  // normalize() keeps a lone surrogate as it is, so the checks below still see it.
  const text = value.normalize('NFC');
  if (kind === 'free') return text.replace(/\r\n?/g, '\n').trim();
  return text.replace(/[ \u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]+/gu, ' ').trim();
}

/** The first problem of a normalised text under the rule of its kind, or null when it may be stored. */
export function textProblem(value: string, kind: TextKind, max: number): TextProblem | null {
  if (LONE_SURROGATE.test(value)) return 'invalidCharacters';
  if ((kind === 'free' ? CONTROL_IN_FREE_TEXT : CONTROL_IN_SHORT_TEXT).test(value)) return 'invalidCharacters';
  if (kind === 'short' || kind === 'token') {
    if (BIDI_CONTROL.test(value)) return 'invalidCharacters';
    if (MARKUP.test(value)) return 'markup';
  }
  if (kind === 'short' && startsWithDangerousUrl(value)) return 'urlScheme';
  if (value.length > max) return 'tooLong';
  return null;
}

/** The message (id, parameters and English text) for a problem of the field `label`. */
export function textProblemIssue(problem: TextProblem, label: string, max: number) {
  return problem === 'tooLong' ? fieldMessage.issue('tooLong', { label, max }) : fieldMessage.issue(problem, { label });
}

/** The English message for a problem of the field `label`. */
export function textProblemMessage(problem: TextProblem, label: string, max: number): string {
  return textProblemIssue(problem, label, max).message;
}

export interface TextOptions {
  /** The field's label, as the messages name it. */
  label: string;
  /**
   * `short`: one line that people type (names, addresses, phone numbers, contact names, insurer, licence
   * numbers); `free`: text of several lines kept as typed (clinical text, notes, messages); `search`: what
   * someone looks for, markup characters allowed since it is never stored; `token`: a code, id or cursor a
   * program sends back.
   */
  kind: TextKind;
  /** The most characters the field holds (after normalisation). */
  max: number;
}

/**
 * A text field under the one rule: normalised (see `normalizeText`), then refused with the field's message if
 * it holds a character it may not, or is longer than `max`. Blank passes as "" (see `optional` and `required`).
 */
export function textSchema({ label, kind, max }: TextOptions) {
  return z.string({ error: fieldMessage.error('required', { label }) }).transform((raw, ctx) => {
    const value = normalizeText(raw, kind);
    const problem = textProblem(value, kind, max);
    if (problem) {
      ctx.addIssue({ code: 'custom', ...textProblemIssue(problem, label, max) });
      return z.NEVER;
    }
    return value;
  });
}

/**
 * The id of a record (a patient, an access request, an account) as a caller sends it. Only its form is checked
 * here; the services answer an id that names nothing they may show as "not found".
 */
export const RecordIdSchema = textSchema({ label: 'Id', kind: 'token', max: 100 });

/** The stored-text review's messages (decision 022). */
export const STORED_TEXT_MESSAGES = {
  notFound: 'Finding not found',
} as const;

/**
 * A yes/no field a caller may leave out: absent and null (GraphQL's explicit "no value") both mean "not given",
 * so the server's default applies.
 */
export const OptionalBooleanSchema = z
  .boolean({ error: fieldMessage.error('chooseYesNo') })
  .nullish()
  .transform((value) => value ?? undefined);
