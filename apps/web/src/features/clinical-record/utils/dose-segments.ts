import { formatDoseAmount, type DoseUnit } from '@telehealth/shared';

import type { Medication } from '../api/medications-api.ts';

/** One stretch of a medication at one dose (or held), on the time line. */
export interface DoseSegment {
  medicationId: string;
  drugName: string;
  /** Milliseconds since the epoch (UTC midnight of the day it began). */
  from: number;
  /** Milliseconds since the epoch (the day it ended, or `until` while it runs). */
  to: number;
  /** The dose, short ("50 mg"), or null while held. */
  dose: string | null;
}

/** A change that marks the time line: a start, a new dose, a hold, a resume or a stop. */
export interface MedicationChangeMark {
  at: number;
  medicationId: string;
  drugName: string;
  kind: Medication['events'][number]['kind'];
  dose: string | null;
}

/** A calendar date (YYYY-MM-DD) as the milliseconds of its UTC midnight. */
export function dayMs(date: string): number {
  return Date.parse(`${date}T00:00:00Z`);
}

function shortDose(amount: number | null, unit: DoseUnit | null): string | null {
  return amount === null || !unit ? null : `${formatDoseAmount(amount)} ${unit}`;
}

/**
 * A medication's history as stretches of one dose each, held stretches apart (dose null), from its events in
 * order: a start or a new dose begins a stretch, a hold ends it and begins a held one, a resume begins a stretch at
 * the last dose, a stop ends it. A stretch still running ends at `until`.
 */
export function doseSegments(medication: Medication, until: number): DoseSegment[] {
  const segments: DoseSegment[] = [];
  let open: DoseSegment | null = null;
  let lastDose: string | null = null;
  const close = (at: number) => {
    if (open) segments.push({ ...open, to: Math.max(at, open.from) });
    open = null;
  };
  const begin = (at: number, dose: string | null) => {
    open = { medicationId: medication.id, drugName: medication.drugName, from: at, to: at, dose };
  };
  for (const event of medication.events) {
    const at = dayMs(event.effectiveDate);
    if (event.kind === 'started' || event.kind === 'dose-changed') {
      lastDose = shortDose(event.doseAmount, event.doseUnit);
      const held = (open as DoseSegment | null)?.dose === null && event.kind === 'dose-changed';
      if (held) continue; // A new dose while held takes effect when it resumes.
      close(at);
      begin(at, lastDose);
    } else if (event.kind === 'held') {
      close(at);
      begin(at, null);
    } else if (event.kind === 'resumed') {
      close(at);
      begin(at, lastDose);
    } else {
      close(at);
    }
  }
  close(until);
  return segments;
}

/** Every change of the medications, oldest first: the marks the scores' charts show. */
export function medicationChanges(medications: readonly Medication[]): MedicationChangeMark[] {
  return medications
    .flatMap((medication) =>
      medication.events.map((event) => ({
        at: dayMs(event.effectiveDate),
        medicationId: medication.id,
        drugName: medication.drugName,
        kind: event.kind,
        dose: shortDose(event.doseAmount, event.doseUnit),
      })),
    )
    .sort((a, b) => a.at - b.at);
}
