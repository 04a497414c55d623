import { randomUUID } from 'node:crypto';
import { INSTRUMENT_DEFINITIONS, scoreAnswers, type Instrument } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { measures, safetyAlerts } from './measures.table.ts';
import { measuresEncrypted, safetyAlertsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';

/** A stored answer: the item's LOINC code and the value chosen (0-3). */
export interface StoredAnswers {
  items: { loinc: string; value: number }[];
  difficulty: { loinc: string; value: number } | null;
}

/** The answers as a completed form keeps them (encrypted): each item's LOINC code with the value chosen. */
export function storedAnswersOf(
  instrument: Instrument,
  answers: readonly number[],
  difficulty: number | null | undefined,
): StoredAnswers {
  const definition = INSTRUMENT_DEFINITIONS[instrument];
  return {
    items: definition.items.map((item, i) => ({ loinc: item.loinc, value: answers[i]! })),
    difficulty:
      difficulty === null || difficulty === undefined
        ? null
        : { loinc: definition.difficulty.loinc, value: difficulty },
  };
}

/**
 * A questionnaire sent and answered in the past, written at once (the demo's history; a real one is sent, then
 * submitted by the patient through the service). Answers its id, or throws on an incomplete form.
 */
export async function insertCompletedMeasure(
  executor: Executor,
  keyring: Keyring,
  values: {
    patientId: string;
    instrument: Instrument;
    requestedBy: string;
    answers: readonly number[];
    difficulty: number | null;
    sentAt: Date;
    completedAt: Date;
  },
): Promise<string> {
  const score = scoreAnswers(values.instrument, values.answers);
  if (!score) throw new RangeError(`incomplete ${values.instrument}`);
  const id = randomUUID();
  const stored = storedAnswersOf(values.instrument, values.answers, values.difficulty);
  await executor.insert(measures).values({
    ...measuresEncrypted.seal(keyring, id, { answers: JSON.stringify(stored) }),
    id,
    patientId: values.patientId,
    instrument: values.instrument,
    status: 'completed',
    requestedBy: values.requestedBy,
    total: score.total,
    band: score.band,
    createdAt: values.sentAt,
    completedAt: values.completedAt,
  });
  return id;
}

/** A safety alert raised and already acknowledged (the demo's history). Answers its id. */
export async function insertAcknowledgedAlert(
  executor: Executor,
  keyring: Keyring,
  values: {
    patientId: string;
    measureId: string;
    createdAt: Date;
    acknowledgedAt: Date;
    acknowledgedBy: string;
    acknowledgement: string;
  },
): Promise<string> {
  const id = randomUUID();
  await executor.insert(safetyAlerts).values({
    ...safetyAlertsEncrypted.seal(keyring, id, { acknowledgement: values.acknowledgement }),
    id,
    patientId: values.patientId,
    measureId: values.measureId,
    createdAt: values.createdAt,
    notifiedAt: values.createdAt,
    acknowledgedAt: values.acknowledgedAt,
    acknowledgedBy: values.acknowledgedBy,
  });
  return id;
}
