import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNotNull, isNull, lte, sql } from 'drizzle-orm';
import type { TreatmentGoal, TreatmentPlanProblem, TreatmentPlanStatus } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { treatmentPlanVersionsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { patientRecords } from '../patients/patients.repository.ts';
import { userNameOf, userNameOrNullOf } from '../users/users.repository.ts';
import { treatmentPlans, treatmentPlanVersions } from './treatment-plans.table.ts';

export type TreatmentPlanRow = typeof treatmentPlans.$inferSelect;
export type TreatmentPlanVersionRow = typeof treatmentPlanVersions.$inferSelect;

/** What a version's encrypted content holds. */
export interface TreatmentPlanContent {
  problems: TreatmentPlanProblem[];
  goals: TreatmentGoal[];
  interventions: string[];
}

/** What a save writes into a draft. */
export interface TreatmentPlanValues {
  status: TreatmentPlanStatus;
  content: TreatmentPlanContent;
  targetDate: string | null;
  reviewDate: string;
}

/** A version, readable, with its plan's patient and the names of who wrote and signed it. */
export interface TreatmentPlanVersionRecord {
  row: TreatmentPlanVersionRow;
  patientId: string;
  content: TreatmentPlanContent;
  createdByName: string;
  updatedByName: string;
  signedByName: string | null;
}

/** A plan whose latest signed version's review date has come, for its provider's dashboard. */
export interface TreatmentPlanDue {
  planId: string;
  versionId: string;
  version: number;
  patientId: string;
  patientName: string;
  reviewDate: string;
}

function selectVersions(executor: Executor) {
  return executor
    .select({
      row: treatmentPlanVersions,
      patientId: treatmentPlans.patientId,
      createdByName: userNameOf(treatmentPlanVersions.createdBy),
      updatedByName: userNameOf(treatmentPlanVersions.updatedBy),
      signedByName: userNameOrNullOf(treatmentPlanVersions.signedBy),
    })
    .from(treatmentPlanVersions)
    .innerJoin(treatmentPlans, eq(treatmentPlans.id, treatmentPlanVersions.planId));
}

type SelectedVersion = Awaited<ReturnType<ReturnType<typeof selectVersions>['execute']>>[number];

function openVersion(keyring: Keyring, selected: SelectedVersion): TreatmentPlanVersionRecord {
  const row = treatmentPlanVersionsEncrypted.open(keyring, selected.row);
  return { ...selected, row, content: JSON.parse(row.content) as TreatmentPlanContent };
}

/** The patient's plan, or undefined when none was written yet. */
export async function findPlanOfPatient(executor: Executor, patientId: string): Promise<TreatmentPlanRow | undefined> {
  const [row] = await executor.select().from(treatmentPlans).where(eq(treatmentPlans.patientId, patientId));
  return row;
}

/** One plan by id. */
export async function findPlan(executor: Executor, id: string): Promise<TreatmentPlanRow | undefined> {
  const [row] = await executor.select().from(treatmentPlans).where(eq(treatmentPlans.id, id));
  return row;
}

/** The patient's plan, created when there is none, locked for the change that follows. */
export async function lockPlanOfPatient(executor: Executor, patientId: string, by: string): Promise<TreatmentPlanRow> {
  await executor
    .insert(treatmentPlans)
    .values({ id: randomUUID(), patientId, createdBy: by })
    .onConflictDoNothing({ target: treatmentPlans.patientId });
  const [row] = await executor
    .select()
    .from(treatmentPlans)
    .where(eq(treatmentPlans.patientId, patientId))
    .for('update');
  return row!;
}

/** One version, readable, or undefined. */
export async function findVersion(
  executor: Executor,
  keyring: Keyring,
  id: string,
): Promise<TreatmentPlanVersionRecord | undefined> {
  const [row] = await selectVersions(executor).where(eq(treatmentPlanVersions.id, id));
  return row && openVersion(keyring, row);
}

/** A version's plan and patient, without its content: for the reach check. */
export async function findVersionOwner(
  executor: Executor,
  id: string,
): Promise<{ planId: string; patientId: string } | undefined> {
  const [row] = await executor
    .select({ planId: treatmentPlans.id, patientId: treatmentPlans.patientId })
    .from(treatmentPlanVersions)
    .innerJoin(treatmentPlans, eq(treatmentPlans.id, treatmentPlanVersions.planId))
    .where(eq(treatmentPlanVersions.id, id));
  return row;
}

/** The plan's versions, newest first (only the signed ones with `signedOnly`), readable. */
export async function listVersions(
  executor: Executor,
  keyring: Keyring,
  planId: string,
  options: { signedOnly: boolean; limit?: number },
): Promise<TreatmentPlanVersionRecord[]> {
  const query = selectVersions(executor)
    .where(
      and(
        eq(treatmentPlanVersions.planId, planId),
        options.signedOnly ? isNotNull(treatmentPlanVersions.signedAt) : undefined,
      ),
    )
    .orderBy(desc(treatmentPlanVersions.version));
  const rows = options.limit ? await query.limit(options.limit) : await query;
  return rows.map((row) => openVersion(keyring, row));
}

/** The id of the plan's latest signed version (null when none is signed). */
export async function latestSignedVersionId(executor: Executor, planId: string): Promise<string | null> {
  const [row] = await executor
    .select({ id: treatmentPlanVersions.id })
    .from(treatmentPlanVersions)
    .where(and(eq(treatmentPlanVersions.planId, planId), isNotNull(treatmentPlanVersions.signedAt)))
    .orderBy(desc(treatmentPlanVersions.version))
    .limit(1);
  return row?.id ?? null;
}

/** The plan's open draft (at most one), locked, or undefined. */
export async function lockDraft(executor: Executor, planId: string): Promise<TreatmentPlanVersionRow | undefined> {
  const [row] = await executor
    .select()
    .from(treatmentPlanVersions)
    .where(and(eq(treatmentPlanVersions.planId, planId), isNull(treatmentPlanVersions.signedAt)))
    .for('update');
  return row;
}

/** A version's row locked for a change (its signature, the patient's acknowledgement). */
export async function lockVersion(executor: Executor, id: string): Promise<TreatmentPlanVersionRow | undefined> {
  const [row] = await executor
    .select()
    .from(treatmentPlanVersions)
    .where(eq(treatmentPlanVersions.id, id))
    .for('update');
  return row;
}

/** Adds the plan's next version as a draft. Answers its id and number. */
export async function insertDraft(
  executor: Executor,
  keyring: Keyring,
  planId: string,
  values: TreatmentPlanValues,
  by: string,
): Promise<{ id: string; version: number }> {
  const id = randomUUID();
  const [row] = await executor
    .insert(treatmentPlanVersions)
    .values({
      ...treatmentPlanVersionsEncrypted.seal(keyring, id, { content: JSON.stringify(values.content) }),
      id,
      planId,
      version: sql`(SELECT coalesce(max(${treatmentPlanVersions.version}), 0) + 1 FROM ${treatmentPlanVersions} WHERE ${treatmentPlanVersions.planId} = ${planId})`,
      status: values.status,
      targetDate: values.targetDate,
      reviewDate: values.reviewDate,
      createdBy: by,
      updatedBy: by,
    })
    .returning({ version: treatmentPlanVersions.version });
  return { id, version: row!.version };
}

/** Rewrites the open draft. */
export async function updateDraft(
  executor: Executor,
  keyring: Keyring,
  id: string,
  values: TreatmentPlanValues,
  by: string,
): Promise<void> {
  await executor
    .update(treatmentPlanVersions)
    .set({
      ...treatmentPlanVersionsEncrypted.seal(keyring, id, { content: JSON.stringify(values.content) }),
      status: values.status,
      targetDate: values.targetDate,
      reviewDate: values.reviewDate,
      updatedBy: by,
      updatedAt: new Date(),
    })
    .where(and(eq(treatmentPlanVersions.id, id), isNull(treatmentPlanVersions.signedAt)));
}

/** Signs the draft. */
export async function signVersion(executor: Executor, id: string, by: string): Promise<void> {
  await executor
    .update(treatmentPlanVersions)
    .set({ signedBy: by, signedAt: new Date() })
    .where(and(eq(treatmentPlanVersions.id, id), isNull(treatmentPlanVersions.signedAt)));
}

/** Marks a signed version as read by the patient. */
export async function acknowledgeVersion(executor: Executor, id: string, by: string): Promise<void> {
  await executor
    .update(treatmentPlanVersions)
    .set({ acknowledgedBy: by, acknowledgedAt: new Date() })
    .where(
      and(
        eq(treatmentPlanVersions.id, id),
        isNotNull(treatmentPlanVersions.signedAt),
        isNull(treatmentPlanVersions.acknowledgedAt),
      ),
    );
}

/**
 * The active plans of the provider's patients whose latest signed version is due for review on or before `today`,
 * the most overdue first.
 */
export async function listPlansDueForReview(
  executor: Executor,
  providerId: string,
  today: string,
): Promise<TreatmentPlanDue[]> {
  const patient = patientRecords('patient');
  const newer = sql`NOT EXISTS (SELECT 1 FROM ${treatmentPlanVersions} AS later
    WHERE later.plan_id = ${treatmentPlanVersions.planId} AND later.signed_at IS NOT NULL
      AND later.version > ${treatmentPlanVersions.version})`;
  const rows = await executor
    .select({
      planId: treatmentPlans.id,
      versionId: treatmentPlanVersions.id,
      version: treatmentPlanVersions.version,
      patientId: treatmentPlans.patientId,
      firstName: patient.firstName,
      lastName: patient.lastName,
      reviewDate: treatmentPlanVersions.reviewDate,
    })
    .from(treatmentPlanVersions)
    .innerJoin(treatmentPlans, eq(treatmentPlans.id, treatmentPlanVersions.planId))
    .innerJoin(patient, eq(patient.id, treatmentPlans.patientId))
    .where(
      and(
        eq(patient.ownerId, providerId),
        isNull(patient.deletedAt),
        isNotNull(treatmentPlanVersions.signedAt),
        eq(treatmentPlanVersions.status, 'active'),
        lte(treatmentPlanVersions.reviewDate, today),
        newer,
      ),
    )
    .orderBy(treatmentPlanVersions.reviewDate, patient.lastName);
  return rows.map(({ firstName, lastName, ...row }) => ({ ...row, patientName: `${firstName} ${lastName}` }));
}
