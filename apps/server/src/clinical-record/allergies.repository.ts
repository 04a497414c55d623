import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { AllergyCategory, AllergySeverity } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { allergiesEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { userNameOf, userNameOrNullOf } from '../users/users.repository.ts';
import { allergies } from './allergies.table.ts';

export type AllergyRow = typeof allergies.$inferSelect;

/** An allergy with the names of who added it and, once removed, who removed it. */
export interface AllergyListRow {
  allergy: AllergyRow;
  createdByName: string;
  removedByName: string | null;
}

/** What adding an allergy writes. */
export interface AllergyValues {
  patientId: string;
  substance: string;
  reaction: string | null;
  severity: AllergySeverity;
  category: AllergyCategory | null;
  notedDate: string | null;
  by: string;
  /** Who put it on the list: a clinician (the default) or the patient, in an accepted intake. */
  source?: 'clinician' | 'patient';
}

/** Active entries first, the severe ones at the top; then by when they were added. */
const LIST_ORDER = [
  asc(sql`CASE ${allergies.status} WHEN 'active' THEN 0 ELSE 1 END`),
  asc(sql`CASE ${allergies.severity} WHEN 'severe' THEN 0 WHEN 'moderate' THEN 1 WHEN 'mild' THEN 2 ELSE 3 END`),
  desc(allergies.createdAt),
];

function selectList(executor: Executor) {
  return executor
    .select({
      allergy: allergies,
      createdByName: userNameOf(allergies.createdBy),
      removedByName: userNameOrNullOf(allergies.removedBy),
    })
    .from(allergies);
}

function openListRow(keyring: Keyring, row: AllergyListRow): AllergyListRow {
  return { ...row, allergy: allergiesEncrypted.open(keyring, row.allergy) };
}

/** The patient's allergies, removed ones included, in the list order, readable. */
export async function listAllergies(
  executor: Executor,
  keyring: Keyring,
  patientId: string,
): Promise<AllergyListRow[]> {
  const rows = await selectList(executor)
    .where(eq(allergies.patientId, patientId))
    .orderBy(...LIST_ORDER);
  return rows.map((row) => openListRow(keyring, row));
}

/** One entry with its names, readable, or undefined. */
export async function findAllergy(
  executor: Executor,
  keyring: Keyring,
  id: string,
): Promise<AllergyListRow | undefined> {
  const [row] = await selectList(executor).where(eq(allergies.id, id));
  return row && openListRow(keyring, row);
}

/** The entry, readable, with its row locked for a change when `lock` (undefined when there is no such entry). */
export async function findAllergyRow(
  executor: Executor,
  keyring: Keyring,
  id: string,
  options: { lock?: boolean } = {},
): Promise<AllergyRow | undefined> {
  const query = executor.select().from(allergies).where(eq(allergies.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row && allergiesEncrypted.open(keyring, row);
}

/**
 * The substances of the patient's active allergies, readable. Taken under a lock on the patient's allergy list
 * (held to the end of the transaction), so two additions of one substance cannot both find it missing: the
 * substance is encrypted, so no unique index can refuse the second.
 */
export async function lockActiveSubstances(executor: Executor, keyring: Keyring, patientId: string): Promise<string[]> {
  await executor.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${`allergies:${patientId}`}))`);
  const rows = await executor
    .select({ id: allergies.id, substance: allergies.substance })
    .from(allergies)
    .where(and(eq(allergies.patientId, patientId), eq(allergies.status, 'active')));
  return rows.map((row) => allergiesEncrypted.decryptValue(keyring, row.id, 'substance', row.substance));
}

/** Adds an active allergy. Answers its id. */
export async function insertAllergy(executor: Executor, keyring: Keyring, values: AllergyValues): Promise<string> {
  const id = randomUUID();
  await executor.insert(allergies).values({
    ...allergiesEncrypted.seal(keyring, id, { substance: values.substance, reaction: values.reaction }),
    id,
    patientId: values.patientId,
    severity: values.severity,
    category: values.category,
    notedDate: values.notedDate,
    status: 'active',
    source: values.source ?? 'clinician',
    createdBy: values.by,
  });
  return id;
}

/** Marks the entry removed by `by` now, with the reason given; the entry stays. */
export async function markAllergyRemoved(
  executor: Executor,
  keyring: Keyring,
  id: string,
  reason: string | null,
  by: string,
): Promise<void> {
  await executor
    .update(allergies)
    .set({
      ...allergiesEncrypted.seal(keyring, id, { removalReason: reason }),
      status: 'removed',
      removedBy: by,
      removedAt: new Date(),
    })
    .where(eq(allergies.id, id));
}
