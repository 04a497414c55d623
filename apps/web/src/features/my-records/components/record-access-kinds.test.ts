import { RECORD_ACCESS_KINDS } from '@telehealth/shared';
import { describe, expect, it } from 'vitest';

import en from '../../../locales/en/my-records.json';
import es from '../../../locales/es/my-records.json';

// Who viewed my record shows each audit event as a kind of access: every kind the server can answer has a label
// in both languages, so a new event never reaches a patient as a bare key.
describe('the access log’s kinds', () => {
  const kinds = [...new Set([...Object.values(RECORD_ACCESS_KINDS), 'listed', 'other'])];
  it.each(kinds)('%s has a label in English and Spanish', (kind) => {
    expect((en.access.kinds as Record<string, string>)[kind]).toBeTruthy();
    expect((es.access.kinds as Record<string, string>)[kind]).toBeTruthy();
  });
});
