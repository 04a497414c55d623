import { documentTextIn } from '@telehealth/shared';

import type { PracticeDocumentVersion } from '../api/practice-documents-api.ts';

/** The version's title and body in the reader's language, falling back to English. */
export function textOf(version: PracticeDocumentVersion, language: string) {
  return documentTextIn(version, language);
}
