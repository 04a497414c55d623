import { describe, expect, it } from 'vitest';

import { removePatientFromPages } from './delete-patient.ts';
import type { PatientPage } from './list-patients.ts';
import type { PatientSummary } from './patient-schemas.ts';

function patient(id: string): PatientSummary {
  return {
    id,
    firstName: 'Test',
    lastName: id,
    email: `${id}@example.com`,
    phone: null,
    dateOfBirth: '1990-01-01',
    isActive: true,
    createdAt: '2026-01-01T00:00:00.000Z',
    owner: null,
  };
}

describe('removePatientFromPages', () => {
  it('removes the patient from whichever page holds it and keeps the paging tokens', () => {
    const pages: PatientPage[] = [
      { items: [patient('a'), patient('b')], nextToken: 't1' },
      { items: [patient('c')], nextToken: null },
    ];
    const result = removePatientFromPages({ pages, pageParams: [null, 't1'] }, 'c');
    expect(result?.pages.map((page) => page.items.map((item) => item.id))).toEqual([['a', 'b'], []]);
    expect(result?.pages.map((page) => page.nextToken)).toEqual(['t1', null]);
    expect(result?.pageParams).toEqual([null, 't1']);
  });

  it('leaves an empty cache empty', () => {
    expect(removePatientFromPages(undefined, 'a')).toBeUndefined();
  });
});
