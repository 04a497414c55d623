import type { Executor } from '../db/client.ts';
import { insertDiagnosis } from '../clinical-record/diagnoses.repository.ts';
import {
  insertMedication,
  recordMedicationChange,
  type DoseValues,
} from '../clinical-record/medications.repository.ts';
import type { Keyring } from '../keys/keyring.ts';
import { findIcd10Code } from '@telehealth/shared/icd10cm';
import { findCatalogueDrug } from '@telehealth/shared';

/*
 * The demo's psychiatric record (issue 27): for each patient with questionnaires over the months, a primary
 * diagnosis and a medication started just before the first score, its dose raised at the third, so that the chart's
 * case at a glance and the practice's outcomes have something to show on a first start. Invented, about nobody.
 */

interface DemoMedication {
  generic: string;
  start: Omit<DoseValues, 'asNeededReason'> & { asNeededReason?: string };
  /** The dose it is raised to at the third score, if it is. */
  raisedTo?: { strength: string; doseAmount: number };
}

interface Regimen {
  codes: readonly string[];
  medications: readonly DemoMedication[];
}

const ONCE_DAILY = { doseUnit: 'mg', route: 'oral', frequency: 'once-daily', asNeeded: false } as const;

/** One regimen per measured patient, in turn. */
const REGIMENS: readonly Regimen[] = [
  {
    codes: ['F33.1'],
    medications: [
      {
        generic: 'sertraline',
        start: { ...ONCE_DAILY, strength: '50 mg', doseAmount: 50 },
        raisedTo: { strength: '100 mg', doseAmount: 100 },
      },
    ],
  },
  {
    codes: ['F41.1', 'F33.0'],
    medications: [
      {
        generic: 'escitalopram',
        start: { ...ONCE_DAILY, strength: '10 mg', doseAmount: 10 },
        raisedTo: { strength: '20 mg', doseAmount: 20 },
      },
      {
        generic: 'hydroxyzine',
        start: {
          strength: '25 mg',
          doseAmount: 25,
          doseUnit: 'mg',
          route: 'oral',
          frequency: 'three-times-daily',
          asNeeded: true,
          asNeededReason: 'anxiety',
        },
      },
    ],
  },
  {
    codes: ['F43.10'],
    medications: [
      {
        generic: 'sertraline',
        start: { ...ONCE_DAILY, strength: '50 mg', doseAmount: 50 },
        raisedTo: { strength: '150 mg', doseAmount: 150 },
      },
      {
        generic: 'prazosin',
        start: {
          strength: '1 mg',
          doseAmount: 1,
          doseUnit: 'mg',
          route: 'oral',
          frequency: 'at-bedtime',
          asNeeded: false,
        },
      },
    ],
  },
  {
    codes: ['F32.1'],
    medications: [
      {
        generic: 'bupropion',
        start: { ...ONCE_DAILY, strength: '150 mg', doseAmount: 150 },
        raisedTo: { strength: '300 mg', doseAmount: 300 },
      },
    ],
  },
];

const DAY = 86_400_000;

function dateOf(now: Date, daysAgo: number): string {
  return new Date(now.getTime() - daysAgo * DAY).toISOString().slice(0, 10);
}

/**
 * The `index`th regimen for the patient (their diagnoses, the first primary, and their medications), started
 * `firstAgo` + 5 days ago and raised `raisedAgo` days ago, written by the patient's provider. Answers the ids.
 */
export async function seedDemoRecord(
  tx: Executor,
  keyring: Keyring,
  values: {
    patientId: string;
    providerId: string;
    prescriber: string;
    index: number;
    firstAgo: number;
    raisedAgo: number;
    now: Date;
  },
): Promise<{ diagnosisIds: string[]; medicationIds: string[] }> {
  const regimen = REGIMENS[values.index % REGIMENS.length]!;
  const diagnosisIds: string[] = [];
  for (const [i, code] of regimen.codes.entries()) {
    const listed = findIcd10Code(code);
    if (!listed) throw new Error(`demo diagnosis ${code} is not in the code list`);
    diagnosisIds.push(
      await insertDiagnosis(tx, keyring, {
        patientId: values.patientId,
        code,
        title: listed.title,
        listed: true,
        status: 'active',
        onsetDate: dateOf(values.now, values.firstAgo + 60),
        primary: i === 0,
        comment: null,
        by: values.providerId,
      }),
    );
  }
  const medicationIds: string[] = [];
  for (const medication of regimen.medications) {
    const drug = findCatalogueDrug(medication.generic);
    if (!drug) throw new Error(`demo medication ${medication.generic} is not in the catalogue`);
    const dose: DoseValues = { ...medication.start, asNeededReason: medication.start.asNeededReason ?? null };
    const id = await insertMedication(tx, keyring, {
      patientId: values.patientId,
      drugName: drug.generic,
      brandName: null,
      drugClass: drug.drugClass,
      listed: true,
      controlledSchedule: drug.controlledSchedule,
      form: 'tablet',
      dose,
      quantity: 30,
      refills: 2,
      prescriber: values.prescriber,
      indicationId: diagnosisIds[0] ?? null,
      startDate: dateOf(values.now, values.firstAgo + 5),
      reason: null,
      noteId: null,
      by: values.providerId,
    });
    if (medication.raisedTo) {
      await recordMedicationChange(tx, keyring, {
        medicationId: id,
        kind: 'dose-changed',
        status: 'active',
        effectiveDate: dateOf(values.now, values.raisedAgo),
        dose: { ...dose, ...medication.raisedTo },
        reason: 'Partial response; tolerating well.',
        noteId: null,
        by: values.providerId,
      });
    }
    medicationIds.push(id);
  }
  return { diagnosisIds, medicationIds };
}
