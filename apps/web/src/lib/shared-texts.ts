import { MESSAGES, ROLE_LABELS } from '@telehealth/shared';

/**
 * The English texts the server and the browser share live in @telehealth/shared; they are the `shared`
 * namespace of both pages' i18next, so a translation can override them like any other text
 * (locales/es/shared.json). These are what the sign-in page needs (src/site-login.tsx): the messages of the
 * server and the schemas, and the role names; the single-page app adds its own (lib/i18n.ts). Kept apart from
 * those because they live beside the schemas, which the sign-in page loads only when it is used.
 */
export const sharedSignInTexts = { messages: MESSAGES, roles: ROLE_LABELS } as const;
