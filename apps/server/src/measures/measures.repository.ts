import { randomUUID } from 'node:crypto';
import { INSTRUMENT_DEFINITIONS, scoreAnswers, type Instrument, type StoredAnswer } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { measures, safetyAlerts } from './measures.table.ts';
import { measuresEncrypted, safetyAlertsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';

/** A completed form's answers as kept (encrypted): one per item, and the closing question's when it has one. */
export interface StoredAnswers {
  items: StoredAnswer[];
  difficulty: { loinc: string; value: number } | null;
}

/** The answers as a completed form keeps them (encrypted): each item's id and LOINC code with the value chosen. */
export function storedAnswersOf(
  instrument: Instrument,
  answers: readonly number[],
  difficulty: number | null | undefined,
): StoredAnswers {
  const definition = INSTRUMENT_DEFINITIONS[instrument];
  return {
    items: definition.items.map((item, i) => ({ item: item.id, loinc: item.loinc, value: answers[i]! })),
    // An instrument without a closing question (the PCL-5, the AUDIT-C) keeps none, whatever was sent.
    difficulty:
      difficulty === null || difficulty === undefined || !definition.difficulty
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
