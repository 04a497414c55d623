import { FIELD_MESSAGES, MESSAGE_CATALOGUE, ROLE_LABELS } from '@telehealth/shared';

/**
 * The English texts the server and the browser share live in @telehealth/shared; they are the `shared`
 * namespace of both pages' i18next, so a translation can override them like any other text
 * (locales/es/shared.json). The server's messages are there whole (MESSAGE_CATALOGUE: a server error's message
 * id is its key here), and the role names; the single-page app adds its own (lib/i18n.ts).
 */
export const sharedTexts = {
  ...MESSAGE_CATALOGUE,
  // English names an option's field in lower case inside a sentence ("Please choose a valid specialty"), as the
  // schemas do; the label itself is the form's, capitalised (lib/i18n-core.ts adds the `lowercase` format).
  fieldMessages: {
    ...FIELD_MESSAGES,
    chooseValid: 'Please choose a valid {{label, lowercase}}',
    chooseValidMany: 'Please choose valid {{label, lowercase}}',
  },
  roles: ROLE_LABELS,
} as const;
