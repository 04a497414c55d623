import { PracticeOutcomesInputSchema, type OutcomeInstrument } from '@telehealth/shared';
import { findIcd10Code } from '@telehealth/shared/icd10cm';
import type { Caller } from '../access/caller.ts';
import { scopeOf } from '../access/scope.ts';
import type { Database } from '../db/client.ts';
import { parseInput } from '../errors.ts';
import { computeOutcomeGroups, type OutcomeGroupRow } from './outcomes.repository.ts';

/** One group's figures: who (a key and, where the server knows one, a label), how many, and the rates. */
export interface OutcomeGroup {
  /** The provider's id, the ICD-10-CM code or the drug class; null for "none" (see OutcomeGroupRow.key). */
  key: string | null;
  /** The provider's name or the code's official title; null for a drug class (the browser names it). */
  label: string | null;
  patients: number;
  responders: number;
  remitters: number;
  responseRate: number | null;
  remissionRate: number | null;
  tooFew: boolean;
}

export interface PracticeOutcomes extends Omit<OutcomeGroup, 'key' | 'label'> {
  instrument: OutcomeInstrument;
  periodStart: string;
  periodEnd: string;
  byProvider: OutcomeGroup[];
  byDiagnosis: OutcomeGroup[];
  byMedicationClass: OutcomeGroup[];
}

/**
 * Response and remission rates of a period (decision 064): administrators for the whole practice (or one
 * provider's patients), a provider for the patients whose primary provider they are. Reading them is audited
 * (PRACTICE_OUTCOMES_VIEW, counts only: no patient is named anywhere in the answer).
 */
export class OutcomesService {
  readonly #db: Database;
  readonly #timeZone: () => string;

  constructor(options: { db: Database; timeZone: () => string }) {
    this.#db = options.db;
    this.#timeZone = options.timeZone;
  }

  async practiceOutcomes(caller: Caller, input: unknown): Promise<PracticeOutcomes> {
    const scope = scopeOf(this.#db, caller);
    const asked = parseInput(PracticeOutcomesInputSchema, input);
    const providerId = asked.providerId || null;
    // A provider may name only themselves (another provider's patients are refused and recorded, as a record
    // out of reach); naming nobody is their own patients.
    const reach = await scope.reach('outcome:read', providerId ? { record: { patientOwnerId: providerId } } : {});
    const ownerId = reach.kind === 'own' ? reach.callerId : providerId;
    const timeZone = this.#timeZone();
    return this.#db.transaction(async (tx) => {
      const rows = await computeOutcomeGroups(tx, {
        instrument: asked.instrument,
        startDate: asked.startDate,
        endDate: asked.endDate,
        timeZone,
        ownerId,
      });
      const all = rows.find((row) => row.grouping === 'all')!;
      const byProvider = rows.filter((row) => row.grouping === 'provider').map(groupOf);
      // A provider's list holds themselves, even before any patient of theirs counts.
      if (reach.kind === 'own' && byProvider.length === 0)
        byProvider.push({ ...figuresOf(all), key: reach.callerId, label: caller.user.name });
      await scope.audit(tx, 'PRACTICE_OUTCOMES_VIEW', {
        startDate: asked.startDate,
        endDate: asked.endDate,
        timeZone,
        instrument: asked.instrument,
        ...(ownerId ? { providerId: ownerId } : {}),
        patients: all.patients,
        responders: all.responders,
        remitters: all.remitters,
      });
      return {
        instrument: asked.instrument,
        periodStart: asked.startDate,
        periodEnd: asked.endDate,
        ...figuresOf(all),
        byProvider,
        byDiagnosis: rows
          .filter((row) => row.grouping === 'diagnosis')
          .map((row) => ({ ...groupOf(row), label: row.key ? (findIcd10Code(row.key)?.title ?? null) : null })),
        byMedicationClass: rows.filter((row) => row.grouping === 'medication-class').map(groupOf),
      };
    });
  }
}

function figuresOf(row: OutcomeGroupRow): Omit<OutcomeGroup, 'key' | 'label'> {
  const { patients, responders, remitters, responseRate, remissionRate, tooFew } = row;
  return { patients, responders, remitters, responseRate, remissionRate, tooFew };
}

function groupOf(row: OutcomeGroupRow): OutcomeGroup {
  return { ...figuresOf(row), key: row.key, label: row.providerName };
}
