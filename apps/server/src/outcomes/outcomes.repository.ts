import { sql } from 'drizzle-orm';
import {
  OUTCOME_DIAGNOSIS_STATUSES,
  OUTCOME_MEDICATION_LOOKBACK_DAYS,
  OUTCOME_MIN_FOLLOW_UP_DAYS,
  OUTCOME_MIN_GROUP_PATIENTS,
  OUTCOME_RESPONSE_SHARE,
  OUTCOME_THRESHOLDS,
  type OutcomeInstrument,
} from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { patientRecords } from '../patients/patients.repository.ts';
import { userNameOrNullOf } from '../users/users.repository.ts';

// Response and remission of a period (decision 064), computed by PostgreSQL in one statement: each patient's
// baseline and follow-up, their response and remission, then the counts and rates of every group at once
// (GROUPING SETS). No patient leaves this file: only counts.

/** The figures of one group (or of all the patients counted, `grouping` 'all'). */
export interface OutcomeGroupRow {
  grouping: 'all' | 'provider' | 'diagnosis' | 'medication-class';
  /**
   * The provider's id, the diagnosis code or the drug class; null for the patients without one (no primary
   * provider, no primary diagnosis recorded, no medication started); 'unclassified' for a medication without class.
   */
  key: string | null;
  /** The provider's name (by-provider rows only). */
  providerName: string | null;
  patients: number;
  responders: number;
  remitters: number;
  /** responders / patients (0 to 1, four decimals); null when the group is too few to read. */
  responseRate: number | null;
  remissionRate: number | null;
  tooFew: boolean;
}

export interface OutcomeQuery {
  instrument: OutcomeInstrument;
  /** The period's first and last day (both included), in `timeZone`. */
  startDate: string;
  endDate: string;
  timeZone: string;
  /** Only the patients whose primary provider this is; every patient when null. */
  ownerId: string | null;
}

/** The counts and rates of every group of the period, the whole first. */
export async function computeOutcomeGroups(executor: Executor, query: OutcomeQuery): Promise<OutcomeGroupRow[]> {
  const { baselineMin, remissionBelow } = OUTCOME_THRESHOLDS[query.instrument];
  const from = sql`(${query.startDate}::date::timestamp AT TIME ZONE ${query.timeZone})`;
  const to = sql`((${query.endDate}::date + 1)::timestamp AT TIME ZONE ${query.timeZone})`;
  const owner = query.ownerId === null ? sql`` : sql`AND p.owner_id = ${query.ownerId}::uuid`;
  const localDate = (instant: string) => sql`(${sql.raw(instant)} AT TIME ZONE ${query.timeZone})::date`;
  const patients = sql`count(DISTINCT patient_id)`;
  const rate = (flag: string) =>
    sql`CASE WHEN ${patients} >= ${OUTCOME_MIN_GROUP_PATIENTS}
        THEN round((count(DISTINCT patient_id) FILTER (WHERE ${sql.raw(flag)}))::numeric / ${patients}, 4)::float8 END`;
  const result = await executor.execute<{
    kind: OutcomeGroupRow['grouping'];
    group_key: string | null;
    provider_name: string | null;
    patients: number;
    responders: number;
    remitters: number;
    response_rate: number | null;
    remission_rate: number | null;
    too_few: boolean;
  }>(sql`
    WITH completed AS (
      -- Every completed result of the instrument of a patient not deleted (of the provider asked for).
      SELECT m.patient_id, p.owner_id, m.total, m.completed_at
      FROM measures m
      JOIN ${patientRecords('p')} ON p.id = m.patient_id AND p.deleted_at IS NULL ${owner}
      WHERE m.instrument = ${query.instrument} AND m.status = 'completed'
    ),
    baseline AS (
      -- The patient's first result ever, counted only when clinically significant.
      SELECT * FROM (
        SELECT DISTINCT ON (patient_id) patient_id, owner_id, total AS baseline, completed_at AS baseline_at
        FROM completed ORDER BY patient_id, completed_at
      ) first WHERE baseline >= ${baselineMin}
    ),
    follow_up AS (
      -- The latest result of the period taken at least OUTCOME_MIN_FOLLOW_UP_DAYS after the baseline.
      SELECT DISTINCT ON (c.patient_id) c.patient_id, c.total AS follow_up, c.completed_at AS follow_up_at
      FROM completed c JOIN baseline b ON b.patient_id = c.patient_id
      WHERE c.completed_at >= ${from} AND c.completed_at < ${to}
        AND c.completed_at >= b.baseline_at + make_interval(days => ${OUTCOME_MIN_FOLLOW_UP_DAYS})
      ORDER BY c.patient_id, c.completed_at DESC
    ),
    episodes AS (
      -- One row per patient counted: whether they responded (at most half the baseline) and remitted.
      SELECT b.patient_id, b.owner_id, b.baseline_at, f.follow_up_at,
             f.follow_up::numeric <= b.baseline * ${OUTCOME_RESPONSE_SHARE}::numeric AS responded,
             f.follow_up < ${remissionBelow} AS remitted
      FROM baseline b JOIN follow_up f ON f.patient_id = b.patient_id
    ),
    grouped AS (
      -- Each episode with its primary diagnosis and each class started around it (one row per class: a patient
      -- in two classes is two rows, which count(DISTINCT patient_id) counts once in every other group).
      SELECT e.patient_id, e.owner_id, e.responded, e.remitted, d.code AS diagnosis, started.drug_class
      FROM episodes e
      LEFT JOIN diagnoses d ON d.patient_id = e.patient_id AND d.is_primary
        AND d.status IN (${sql.join(
          OUTCOME_DIAGNOSIS_STATUSES.map((status) => sql`${status}`),
          sql`, `,
        )})
      LEFT JOIN LATERAL (
        SELECT DISTINCT coalesce(md.drug_class, 'unclassified') AS drug_class
        FROM medications md
        WHERE md.patient_id = e.patient_id
          AND md.start_date >= ${localDate('e.baseline_at')} - ${OUTCOME_MEDICATION_LOOKBACK_DAYS}::int
          AND md.start_date <= ${localDate('e.follow_up_at')}
      ) started ON true
    )
    SELECT CASE WHEN GROUPING(owner_id) = 0 THEN 'provider'
                WHEN GROUPING(diagnosis) = 0 THEN 'diagnosis'
                WHEN GROUPING(drug_class) = 0 THEN 'medication-class'
                ELSE 'all' END AS kind,
           CASE WHEN GROUPING(owner_id) = 0 THEN owner_id::text
                WHEN GROUPING(diagnosis) = 0 THEN diagnosis
                WHEN GROUPING(drug_class) = 0 THEN drug_class END AS group_key,
           CASE WHEN GROUPING(owner_id) = 0 THEN ${userNameOrNullOf(sql`owner_id`)} END AS provider_name,
           ${patients}::int AS patients,
           (count(DISTINCT patient_id) FILTER (WHERE responded))::int AS responders,
           (count(DISTINCT patient_id) FILTER (WHERE remitted))::int AS remitters,
           ${rate('responded')} AS response_rate,
           ${rate('remitted')} AS remission_rate,
           ${patients} < ${OUTCOME_MIN_GROUP_PATIENTS} AS too_few
    FROM grouped
    GROUP BY GROUPING SETS ((), (owner_id), (diagnosis), (drug_class))
    ORDER BY kind, patients DESC, group_key NULLS LAST`);
  return result.rows.map((row) => ({
    grouping: row.kind,
    key: row.group_key,
    providerName: row.provider_name,
    patients: row.patients,
    responders: row.responders,
    remitters: row.remitters,
    responseRate: row.response_rate,
    remissionRate: row.remission_rate,
    tooFew: row.too_few,
  }));
}
