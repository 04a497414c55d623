import type { z } from 'zod';

import { formatMessage, type MessageParams } from './messages.ts';

/**
 * Messages about one field's value that many schemas share, in English (the specification's words). `{{label}}`
 * is the field's label: the English one in the server's text, the form's own (translated) one in the browser.
 * A section of the message catalogue (`fieldMessages.<key>`).
 */
export const FIELD_MESSAGES = {
  required: '{{label}} is required',
  chooseValid: 'Please choose a valid {{label}}',
  chooseValidMany: 'Please choose valid {{label}}',
  invalidCharacters: '{{label}} contains invalid characters',
  markup: '{{label}} cannot contain < or >',
  urlScheme: '{{label}} cannot start with a link such as javascript:',
  tooShort: '{{label}} must be at least {{min}} characters long',
  tooLong: '{{label}} must be less than {{max}} characters',
  lengthBetween: '{{label}} must be {{min}}-{{max}} characters long',
  nameCharacters: '{{label}} can only contain letters, spaces, hyphens, and apostrophes',
  emailRequired: 'Email is required',
  emailTooLong: 'Email address is too long',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Password is required',
  phoneInvalid: 'Please enter a valid phone number',
  phoneDigits: 'Phone number must be {{min}}-{{max}} digits long',
  dateOfBirthRequired: 'Date of birth is required',
  dateInvalid: 'Please enter a valid date',
  dateOfBirthPast: 'Date of birth must be in the past',
  dateOfBirthInvalid: 'Please enter a valid date of birth',
  zipInvalid: 'Please enter a valid ZIP code',
  languageInvalid: 'Please choose a valid language',
  chooseYesNo: 'Please choose yes or no',
  chooseSpecialty: 'Please choose a specialty',
  chooseProvider: 'Please choose a provider',
  chooseValidRole: 'Please choose a valid role',
  chooseValidStatus: 'Please choose a valid status',
  chooseCategory: 'Please choose a category',
  choosePriority: 'Please choose a priority',
  choosePatientRecord: 'Please choose a patient record',
  accountNotFound: 'Account not found',
  searchTooLong: 'Search is too long',
  tagsNotList: 'Tags must be a list',
  leaveEmpty: 'Leave this field empty',
  experienceTooLow: 'Experience must be {{min}} years or more',
  experienceTooHigh: 'Experience must be at most {{max}} years',
  /** What a value the schemas give no message of their own for is answered with in the browser. */
  invalid: 'Invalid input',
} as const;

/** A message named by its id (`section.key` of the message catalogue) with its parameters. */
export interface CodedMessage {
  id: string;
  params: MessageParams;
}

/** Where a zod issue of a shared schema carries its message's id and parameters (`issue.params`). */
interface IssueCode {
  messageId: string;
  messageParams: MessageParams;
}

/**
 * The messages of one catalogue section, for the schemas that say them: each rule names its message by key, and
 * the zod issue it raises carries the message's id and parameters beside the English text, so whoever reads the
 * issue (the server's `fieldErrors`, a form in the browser) has a code to translate, never a sentence to read.
 *
 * - `issue(key, params)`: `{ message, params }` for `ctx.addIssue({ code: 'custom', ...issue(...) })` and for a
 *   refinement's options (`.refine(check, { ...issue(...), path })`).
 * - `error(key, params)`: an `error` option for a type or a check (`z.string({ error: error(...) })`,
 *   `.min(1, { error: error(...) })`), whose issue (of any zod code) gets the same `params`.
 */
export function messageSection<const Section extends string, const Messages extends Readonly<Record<string, string>>>(
  section: Section,
  messages: Messages,
) {
  const code = (key: keyof Messages & string, params: MessageParams): IssueCode => ({
    messageId: `${section}.${key}`,
    messageParams: params,
  });
  const text = (key: keyof Messages & string, params: MessageParams) => formatMessage(messages[key] ?? key, params);
  return {
    issue(key: keyof Messages & string, params: MessageParams = {}) {
      return { message: text(key, params), params: code(key, params) as unknown as Record<string, unknown> };
    },
    error(key: keyof Messages & string, params: MessageParams = {}) {
      // zod copies the issue's own keys after asking for its message, so the code set here reaches the issue
      // whatever kind it is (invalid_type, invalid_value, too_small, custom); field-messages.test.ts holds zod to it.
      return (issue: object) => {
        (issue as { params?: unknown }).params = code(key, params);
        return text(key, params);
      };
    },
  };
}

/** The message sections' shared field messages (`fieldMessages.*`). */
export const fieldMessage = messageSection('fieldMessages', FIELD_MESSAGES);

/** The id and parameters of a zod issue raised by a shared schema; a generic "invalid" for any other issue. */
export function issueMessage(issue: z.core.$ZodIssue): CodedMessage {
  const carried = (issue as { params?: Partial<IssueCode> }).params;
  if (carried && typeof carried.messageId === 'string') {
    return { id: carried.messageId, params: carried.messageParams ?? {} };
  }
  return { id: 'fieldMessages.invalid', params: {} };
}

/** A field's problem as errors carry it: the field's path (`a.b`), the message's id and its parameters. */
export interface FieldProblem {
  field: string;
  messageId: string;
  params: MessageParams;
}

/** Every problem of a failed parse, one per issue, in order (the server's `extensions.fields`). */
export function fieldProblems(issues: readonly z.core.$ZodIssue[]): FieldProblem[] {
  return issues.map((issue) => {
    const { id, params } = issueMessage(issue);
    return { field: issue.path.join('.'), messageId: id, params };
  });
}
