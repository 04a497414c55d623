import { and, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { VideoPresence, VideoRole } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { appointments } from '../appointments/appointments.table.ts';
import { patientRecords } from '../patients/patients.repository.ts';
import { providers } from '../providers/providers.table.ts';
import { videoParticipants } from './video.table.ts';
import { videoParticipantsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';

const patient = patientRecords('patient');

/** An appointment as a video visit sees it: who may join, when, and whether it is still on. */
export interface VisitAppointment {
  id: string;
  status: string;
  appointmentType: string;
  startsAt: Date;
  endsAt: Date;
  providerId: string;
  patientId: string;
  patientAccountId: string | null;
  /** The patient's own provider, whose chart it is (null: none). */
  patientOwnerId: string | null;
  providerName: string;
  patientName: string;
}

export async function findVisitAppointment(db: Executor, id: string): Promise<VisitAppointment | undefined> {
  const [row] = await db
    .select({
      id: appointments.id,
      status: appointments.status,
      appointmentType: appointments.appointmentType,
      startsAt: appointments.startsAt,
      endsAt: appointments.endsAt,
      providerId: appointments.providerId,
      patientId: appointments.patientId,
      patientAccountId: patient.accountId,
      patientOwnerId: patient.ownerId,
      providerName: sql<string>`${providers.firstName} || ' ' || ${providers.lastName}`,
      patientName: sql<string>`${patient.firstName} || ' ' || ${patient.lastName}`,
    })
    .from(appointments)
    .innerJoin(patient, eq(patient.id, appointments.patientId))
    .innerJoin(providers, eq(providers.id, appointments.providerId))
    .where(and(eq(appointments.id, id), isNull(patient.deletedAt)));
  return row;
}

export interface ParticipantRow {
  id: string;
  appointmentId: string;
  peerId: string;
  userId: string | null;
  role: VideoRole;
  displayName: string;
  presence: VideoPresence;
  connectionId: string | null;
  pageId: string | null;
  joinedAt: Date;
  admittedAt: Date | null;
  seenAt: Date;
}

/** A connection not heard from for this long (its instance died) no longer counts as present. */
export const PRESENCE_STALE_MS = 60_000;

export async function listParticipants(
  db: Executor,
  appointmentId: string,
  keyring: Keyring,
): Promise<ParticipantRow[]> {
  const rows = await db.select().from(videoParticipants).where(eq(videoParticipants.appointmentId, appointmentId));
  return rows.map((row) => videoParticipantsEncrypted.open(keyring, row as ParticipantRow));
}

export function isPresent(row: ParticipantRow, now: Date): boolean {
  return row.connectionId !== null && now.getTime() - row.seenAt.getTime() < PRESENCE_STALE_MS;
}

export async function saveParticipant(
  tx: Executor,
  row: Omit<ParticipantRow, 'joinedAt' | 'seenAt'> & { seenAt: Date },
  keyring: Keyring,
): Promise<void> {
  const sealed = videoParticipantsEncrypted.seal(keyring, row.id, row);
  await tx
    .insert(videoParticipants)
    .values(sealed)
    .onConflictDoUpdate({
      target: [videoParticipants.appointmentId, videoParticipants.peerId],
      set: {
        displayName: sealed.displayName,
        presence: sealed.presence,
        connectionId: sealed.connectionId,
        pageId: sealed.pageId,
        admittedAt: sealed.admittedAt,
        seenAt: sealed.seenAt,
      },
    });
}

/** The people waiting in the visits of a provider, now. */
export async function findWaiting(db: Executor, providerId: string, since: Date, keyring: Keyring) {
  const rows = await db
    .select({
      participant: videoParticipants,
      startsAt: appointments.startsAt,
      patientFirstName: patient.firstName,
      patientLastName: patient.lastName,
    })
    .from(videoParticipants)
    .innerJoin(appointments, eq(appointments.id, videoParticipants.appointmentId))
    .innerJoin(patient, eq(patient.id, appointments.patientId))
    .where(
      and(
        eq(appointments.providerId, providerId),
        eq(videoParticipants.presence, 'waiting'),
        isNotNull(videoParticipants.connectionId),
        gt(videoParticipants.seenAt, since),
      ),
    )
    .orderBy(videoParticipants.joinedAt);
  return rows.map((r) => ({
    ...r,
    participant: videoParticipantsEncrypted.open(keyring, r.participant as ParticipantRow),
  }));
}
