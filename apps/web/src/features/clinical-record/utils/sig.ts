import { formatSig, type LabelLanguage } from '@telehealth/shared';

import type { Medication, MedicationEvent } from '../api/medications-api.ts';

/** The readable sig of a medication's (or an event's) dose, or '' when it carries none. */
export function sigOf(dose: Medication | MedicationEvent, language: LabelLanguage): string {
  if (dose.doseAmount === null || !dose.doseUnit || !dose.route || !dose.frequency) return '';
  return formatSig(
    {
      amount: dose.doseAmount,
      unit: dose.doseUnit,
      route: dose.route,
      frequency: dose.frequency,
      asNeeded: dose.asNeeded ?? false,
      asNeededReason: dose.asNeededReason,
    },
    language,
  );
}
