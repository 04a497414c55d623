import { describe, expect, it } from 'vitest';

import type { Medication } from '../api/medications-api.ts';
import { dayMs, doseSegments, medicationChanges } from './dose-segments.ts';

function event(
  sequence: number,
  kind: Medication['events'][number]['kind'],
  date: string,
  amount: number | null = null,
) {
  return {
    id: `e${sequence}`,
    sequence,
    kind,
    effectiveDate: date,
    strength: null,
    doseAmount: amount,
    doseUnit: amount === null ? null : ('mg' as const),
    route: amount === null ? null : ('oral' as const),
    frequency: amount === null ? null : ('once-daily' as const),
    asNeeded: amount === null ? null : false,
    asNeededReason: null,
    reason: null,
    noteId: null,
    recordedByName: 'Dr. A',
    recordedAt: `${date}T12:00:00Z`,
  };
}

function medication(events: Medication['events']): Medication {
  return {
    id: 'm1',
    patientId: 'p1',
    drugName: 'sertraline',
    brandName: null,
    drugClass: 'ssri',
    listed: true,
    controlledSchedule: null,
    form: null,
    source: 'clinician',
    reportedDose: null,
    strength: null,
    doseAmount: 100,
    doseUnit: 'mg',
    route: 'oral',
    frequency: 'once-daily',
    asNeeded: false,
    asNeededReason: null,
    quantity: null,
    refills: null,
    prescriber: null,
    indicationId: null,
    indicationCode: null,
    status: 'active',
    startDate: events[0]!.effectiveDate,
    lastChangeDate: events.at(-1)!.effectiveDate,
    events,
  };
}

describe('doseSegments', () => {
  it('cuts a medication into one stretch per dose, held stretches apart, the last one running until today', () => {
    const until = dayMs('2026-11-01');
    const segments = doseSegments(
      medication([
        event(1, 'started', '2026-08-01', 50),
        event(2, 'dose-changed', '2026-09-01', 100),
        event(3, 'held', '2026-10-01'),
        event(4, 'dose-changed', '2026-10-03', 150),
        event(5, 'resumed', '2026-10-08'),
      ]),
      until,
    );
    expect(segments.map((s) => [s.from, s.to, s.dose])).toEqual([
      [dayMs('2026-08-01'), dayMs('2026-09-01'), '50 mg'],
      [dayMs('2026-09-01'), dayMs('2026-10-01'), '100 mg'],
      [dayMs('2026-10-01'), dayMs('2026-10-08'), null],
      [dayMs('2026-10-08'), until, '150 mg'],
    ]);
  });

  it('ends a stopped medication on the day it stopped', () => {
    const segments = doseSegments(
      medication([event(1, 'started', '2026-08-01', 0.5), event(2, 'stopped', '2026-08-20')]),
      dayMs('2026-11-01'),
    );
    expect(segments.map((s) => [s.to, s.dose])).toEqual([[dayMs('2026-08-20'), '0.5 mg']]);
  });

  it('lists every change, oldest first, with the dose it set', () => {
    const marks = medicationChanges([
      medication([event(1, 'started', '2026-08-01', 50), event(2, 'dose-changed', '2026-09-01', 100)]),
    ]);
    expect(marks.map((m) => [m.kind, m.dose])).toEqual([
      ['started', '50 mg'],
      ['dose-changed', '100 mg'],
    ]);
  });
});
