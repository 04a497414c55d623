import type { ComboboxItem } from '@mantine/core';
import { AUDIT_EVENTS } from '@telehealth/shared';
import { describe, expect, it } from 'vitest';

import en from '../../../locales/en/audit-trail.json';
import es from '../../../locales/es/audit-trail.json';
import { matchEventByNameOrCode } from './audit-format.tsx';

// The audit trail names every event the server writes in the reader's language (its code stays beside it): a new
// event in packages/shared without a name here fails this test rather than reaching the screen as a bare code.
describe('the audit trail’s event names', () => {
  const english = en.eventName as Record<string, string>;
  const spanish = es.eventName as Record<string, string>;

  it.each([...AUDIT_EVENTS])('%s has a name in English and Spanish', (event) => {
    expect(english[event]).toMatch(/^\p{Lu}/u);
    expect(spanish[event]).toMatch(/^\p{Lu}/u);
  });

  it('names no event that does not exist', () => {
    expect(Object.keys(english).filter((event) => !(AUDIT_EVENTS as readonly string[]).includes(event))).toEqual([]);
  });

  it('gives each event a name of its own', () => {
    expect(new Set(Object.values(english)).size).toBe(Object.keys(english).length);
    expect(new Set(Object.values(spanish)).size).toBe(Object.keys(spanish).length);
  });
});

describe('matchEventByNameOrCode', () => {
  const options: ComboboxItem[] = [
    { value: 'ACCESS_REQUEST_VIEW', label: 'Solicitud de acceso consultada' },
    { value: 'PATIENT_CHART_VIEW', label: 'Historia del paciente abierta' },
  ];
  const match = (search: string) =>
    matchEventByNameOrCode({ options, search, limit: 100 }).map((option) => (option as ComboboxItem).value);

  it('finds an event by a part of its name, whatever the case and accents', () => {
    expect(match('SOLICITUD')).toEqual(['ACCESS_REQUEST_VIEW']);
    expect(match('historia del')).toEqual(['PATIENT_CHART_VIEW']);
    expect(match('consúltada')).toEqual(['ACCESS_REQUEST_VIEW']);
  });

  it('finds an event by its code, with or without the underscores', () => {
    expect(match('ACCESS_REQUEST_VIEW')).toEqual(['ACCESS_REQUEST_VIEW']);
    expect(match('chart view')).toEqual(['PATIENT_CHART_VIEW']);
    expect(match('_VIEW')).toEqual(['ACCESS_REQUEST_VIEW', 'PATIENT_CHART_VIEW']);
  });

  it('keeps every event for an empty search', () => {
    expect(match('  ')).toHaveLength(2);
  });
});
