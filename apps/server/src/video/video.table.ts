import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { fileIsKept, sealedBlobColumns } from '../blobs/blob-columns.ts';
import { bytea, encryptedCheck } from '../db/columns.ts';
import { appointments } from '../appointments/appointments.table.ts';
import { users } from '../auth/auth.table.ts';

/**
 * The people of a video visit (decision 026), one row per person (peer) and appointment: the provider, the
 * patient, later guests. `presence` is waiting or admitted; `connectionId` the signalling socket now holding
 * the person (null once they left), and `pageId` the browser page behind it (a new page after a reload is a
 * new peer for the others). `displayName` is the name the person gave, encrypted with the data keys.
 */
export const videoParticipants = pgTable(
  'video_participants',
  {
    id: uuid('id').primaryKey(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    peerId: text('peer_id').notNull(),
    userId: uuid('user_id').references(() => users.id),
    role: text('role').notNull(),
    displayName: text('display_name').notNull(),
    presence: text('presence').notNull(),
    connectionId: uuid('connection_id'),
    pageId: text('page_id'),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
    admittedAt: timestamp('admitted_at', { withTimezone: true }),
    seenAt: timestamp('seen_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('video_participants_peer_idx').on(t.appointmentId, t.peerId),
    uniqueIndex('video_participants_connection_idx').on(t.connectionId),
    encryptedCheck('video_participants', t.displayName),
    check('video_participants_role_check', sql`${t.role} in ('provider', 'patient', 'guest')`),
    check('video_participants_presence_check', sql`${t.presence} in ('waiting', 'admitted')`),
  ],
);

/**
 * Signalling messages on their way to one socket: written and announced (NOTIFY video_signal) in one
 * transaction, taken (deleted) by the instance holding the socket. This is what lets the two people of a
 * call be connected to two different server instances.
 */
export const videoSignals = pgTable(
  'video_signals',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    connectionId: uuid('connection_id').notNull(),
    message: jsonb('message').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('video_signals_created_idx').on(t.createdAt)],
);

/**
 * Recordings of video visits (decision 026), made only with the consent of everyone in the call. `status`:
 * asking (consent pending), recording, paused (someone joined and has not agreed yet), stopped (being
 * assembled), refused (someone declined before anything was recorded), ready, failed.
 */
export const videoRecordings = pgTable(
  'video_recordings',
  {
    id: uuid('id').primaryKey(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    requestedBy: uuid('requested_by')
      .notNull()
      .references(() => users.id),
    status: text('status').notNull(),
    noticeVersion: text('notice_version').notNull(),
    mimeType: text('mime_type'),
    startedAt: timestamp('started_at', { withTimezone: true }),
    stoppedAt: timestamp('stopped_at', { withTimezone: true }),
    durationMs: integer('duration_ms'),
    sizeBytes: bigint('size_bytes', { mode: 'number' }),
    /** Of a recording assembled before its file was a blob (decision 071): the size of its legacy segments. */
    segmentBytes: integer('segment_bytes'),
    /** The assembled file, one sealed blob (decision 071): its key in the blob store and its wrapped file key. */
    ...sealedBlobColumns(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('video_recordings_appointment_idx').on(t.appointmentId),
    check(
      'video_recordings_status_check',
      sql`${t.status} in ('asking', 'recording', 'paused', 'stopped', 'refused', 'ready', 'failed')`,
    ),
  ],
);

/** Each person's answer to a recording's request: who, when, under which version of the notice. */
export const videoRecordingConsents = pgTable(
  'video_recording_consents',
  {
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => videoRecordings.id, { onDelete: 'cascade' }),
    peerId: text('peer_id').notNull(),
    userId: uuid('user_id').references(() => users.id),
    role: text('role').notNull(),
    decision: text('decision').notNull(),
    noticeVersion: text('notice_version').notNull(),
    askedAt: timestamp('asked_at', { withTimezone: true }).notNull().defaultNow(),
    decidedAt: timestamp('decided_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.recordingId, t.peerId] }),
    check('video_recording_consents_decision_check', sql`${t.decision} in ('pending', 'yes', 'no')`),
  ],
);

/**
 * What the provider's browser uploaded while recording, each part a sealed blob (decision 071). `data` holds the
 * encrypted bytes of a part uploaded before parts were blobs, until the mover (blob-mover/) takes them out.
 */
export const videoRecordingChunks = pgTable(
  'video_recording_chunks',
  {
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => videoRecordings.id, { onDelete: 'cascade' }),
    seq: integer('seq').notNull(),
    data: bytea('data'),
    ...sealedBlobColumns(),
    plainBytes: integer('plain_bytes'),
  },
  (t) => [primaryKey({ columns: [t.recordingId, t.seq] }), check('video_recording_chunks_file_check', fileIsKept(t))],
);

/**
 * A recording assembled before its file was a blob, in encrypted segments of `segment_bytes`: only the mover
 * (blob-mover/) reads them now, into one blob, and deletes them (decision 071). New recordings never write here.
 */
export const videoRecordingSegments = pgTable(
  'video_recording_segments',
  {
    recordingId: uuid('recording_id')
      .notNull()
      .references(() => videoRecordings.id, { onDelete: 'cascade' }),
    idx: integer('idx').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.recordingId, t.idx] })],
);

/**
 * Guests of a video visit (a family member, a second clinician), invited by its provider by e-mail: the link's
 * token (only its SHA-256 is kept) lets them join that visit only, as a guest who waits to be let in.
 */
export const videoGuests = pgTable(
  'video_guests',
  {
    id: uuid('id').primaryKey(),
    appointmentId: uuid('appointment_id')
      .notNull()
      .references(() => appointments.id, { onDelete: 'cascade' }),
    invitedBy: uuid('invited_by')
      .notNull()
      .references(() => users.id),
    name: text('name').notNull(),
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [
    index('video_guests_appointment_idx').on(t.appointmentId),
    encryptedCheck('video_guests', t.name),
    encryptedCheck('video_guests', t.email),
  ],
);
