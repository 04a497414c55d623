import { randomUUID } from 'node:crypto';
import { and, eq, inArray } from 'drizzle-orm';
import type { IntakeAnswers, IntakeCardSide, IntakeSection, MessageAttachmentType } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { storedFileOf, type SealedBlobWritten, type StoredFile } from '../blobs/sealed-blobs.ts';
import { fileDataContext } from '../http/encrypted-files.ts';
import { intakesEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { intakeCardPhotos, intakes } from './intake.table.ts';

export type IntakeRow = typeof intakes.$inferSelect;

/** An intake with its answers parsed (the JSON decrypted). */
export interface IntakeRecord {
  row: IntakeRow;
  answers: IntakeAnswers;
}

function openIntake(keyring: Keyring, row: IntakeRow): IntakeRecord {
  const opened = intakesEncrypted.open(keyring, row);
  return { row: opened, answers: JSON.parse(opened.answers) as IntakeAnswers };
}

/** The patient's intake, readable, locked for a change when `lock` (undefined: not started). */
export async function findIntakeOfPatient(
  executor: Executor,
  keyring: Keyring,
  patientId: string,
  options: { lock?: boolean } = {},
): Promise<IntakeRecord | undefined> {
  const query = executor.select().from(intakes).where(eq(intakes.patientId, patientId));
  const [row] = options.lock ? await query.for('update') : await query;
  return row && openIntake(keyring, row);
}

/** The intake by id, readable, locked for a change when `lock`. */
export async function findIntake(
  executor: Executor,
  keyring: Keyring,
  id: string,
  options: { lock?: boolean } = {},
): Promise<IntakeRecord | undefined> {
  const query = executor.select().from(intakes).where(eq(intakes.id, id));
  const [row] = options.lock ? await query.for('update') : await query;
  return row && openIntake(keyring, row);
}

/** Whether the intake exists, and its patient (tells a denial from a miss). */
export async function intakePatient(executor: Executor, id: string): Promise<{ patientId: string } | undefined> {
  const [row] = await executor.select({ patientId: intakes.patientId }).from(intakes).where(eq(intakes.id, id));
  return row;
}

/** The statuses of the patients' intakes (a patient without one is left out: not started). One query. */
export async function findIntakeStatuses(
  executor: Executor,
  patientIds: readonly string[],
): Promise<{ patientId: string; status: string }[]> {
  if (patientIds.length === 0) return [];
  return executor
    .select({ patientId: intakes.patientId, status: intakes.status })
    .from(intakes)
    .where(inArray(intakes.patientId, [...patientIds]));
}

/** Starts the patient's intake with its first answers. Answers its id. */
export async function insertIntake(
  executor: Executor,
  keyring: Keyring,
  values: { patientId: string; answers: IntakeAnswers; currentSection: IntakeSection },
): Promise<string> {
  const id = randomUUID();
  await executor.insert(intakes).values({
    ...intakesEncrypted.seal(keyring, id, { answers: JSON.stringify(values.answers) }),
    id,
    patientId: values.patientId,
    status: 'in-progress',
    currentSection: values.currentSection,
  });
  return id;
}

/** Writes the intake's answers and the step to come back to. */
export async function updateIntakeAnswers(
  executor: Executor,
  keyring: Keyring,
  id: string,
  values: { answers: IntakeAnswers; currentSection: IntakeSection },
): Promise<void> {
  await executor
    .update(intakes)
    .set({
      ...intakesEncrypted.seal(keyring, id, { answers: JSON.stringify(values.answers) }),
      currentSection: values.currentSection,
      updatedAt: new Date(),
    })
    .where(eq(intakes.id, id));
}

export async function markIntakeSubmitted(executor: Executor, id: string): Promise<void> {
  await executor
    .update(intakes)
    .set({ status: 'submitted', submittedAt: new Date(), updatedAt: new Date() })
    .where(eq(intakes.id, id));
}

export async function markIntakeAccepted(executor: Executor, id: string, by: string): Promise<void> {
  await executor
    .update(intakes)
    .set({ status: 'accepted', acceptedAt: new Date(), acceptedBy: by, updatedAt: new Date() })
    .where(eq(intakes.id, id));
}

/** Back to the patient, in progress, with the provider's reason. */
export async function markIntakeReturned(
  executor: Executor,
  keyring: Keyring,
  id: string,
  reason: string,
  by: string,
): Promise<void> {
  await executor
    .update(intakes)
    .set({
      ...intakesEncrypted.seal(keyring, id, { returnReason: reason }),
      status: 'in-progress',
      returnedAt: new Date(),
      returnedBy: by,
      updatedAt: new Date(),
    })
    .where(eq(intakes.id, id));
}

export interface CardPhotoInfo {
  id: string;
  patientId: string;
  side: IntakeCardSide;
  mediaType: MessageAttachmentType;
  sizeBytes: number;
  createdAt: Date;
}

/** Where a card photo's file is sealed for: its table, column and row id (the file key is bound to it). */
export function cardPhotoDataContext(id: string) {
  return fileDataContext('intake_card_photos', id);
}

/**
 * Keeps the photo of one side of the patient's card, whose file was written to the blob store (under
 * `cardPhotoDataContext(id)`); a new one replaces the old. Answers it, and the blob keys of the photos it replaced,
 * which the caller removes once this has committed.
 */
export async function replaceCardPhoto(
  executor: Executor,
  values: {
    id: string;
    patientId: string;
    side: IntakeCardSide;
    mediaType: MessageAttachmentType;
    file: SealedBlobWritten;
    uploadedBy: string;
  },
): Promise<{ photo: CardPhotoInfo; replacedBlobKeys: string[] }> {
  const replaced = await executor
    .delete(intakeCardPhotos)
    .where(and(eq(intakeCardPhotos.patientId, values.patientId), eq(intakeCardPhotos.side, values.side)))
    .returning({ blobKey: intakeCardPhotos.blobKey });
  const { id, file } = values;
  const createdAt = new Date();
  await executor.insert(intakeCardPhotos).values({
    id,
    patientId: values.patientId,
    side: values.side,
    mediaType: values.mediaType,
    sizeBytes: file.plainBytes,
    blobKey: file.blobKey,
    keyId: file.keyId,
    wrappedKey: file.wrappedKey,
    uploadedBy: values.uploadedBy,
    createdAt,
  });
  return {
    photo: {
      id,
      patientId: values.patientId,
      side: values.side,
      mediaType: values.mediaType,
      sizeBytes: file.plainBytes,
      createdAt,
    },
    replacedBlobKeys: replaced.flatMap((row) => (row.blobKey ? [row.blobKey] : [])),
  };
}

const photoInfoColumns = {
  id: intakeCardPhotos.id,
  patientId: intakeCardPhotos.patientId,
  side: intakeCardPhotos.side,
  mediaType: intakeCardPhotos.mediaType,
  sizeBytes: intakeCardPhotos.sizeBytes,
  createdAt: intakeCardPhotos.createdAt,
};

/** The patient's card photos (without their bytes). */
export async function listCardPhotos(executor: Executor, patientId: string): Promise<CardPhotoInfo[]> {
  const rows = await executor
    .select(photoInfoColumns)
    .from(intakeCardPhotos)
    .where(eq(intakeCardPhotos.patientId, patientId));
  return rows as CardPhotoInfo[];
}

/** A card photo's patient (whether it exists). */
export async function cardPhotoPatient(executor: Executor, id: string): Promise<{ patientId: string } | undefined> {
  const [row] = await executor
    .select({ patientId: intakeCardPhotos.patientId })
    .from(intakeCardPhotos)
    .where(eq(intakeCardPhotos.id, id));
  return row;
}

/** A card photo with where its file is. */
export async function findCardPhoto(
  executor: Executor,
  id: string,
): Promise<(CardPhotoInfo & { stored: StoredFile }) | undefined> {
  const [row] = await executor.select().from(intakeCardPhotos).where(eq(intakeCardPhotos.id, id));
  if (!row) return undefined;
  return {
    id: row.id,
    patientId: row.patientId,
    side: row.side as IntakeCardSide,
    mediaType: row.mediaType as MessageAttachmentType,
    sizeBytes: row.sizeBytes,
    createdAt: row.createdAt,
    stored: storedFileOf(row),
  };
}
