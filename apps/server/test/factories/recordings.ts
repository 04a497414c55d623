/** Recordings for server tests, written straight to the tables (the consent and the call are video.test.ts's). */
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { insertAppointments } from '../../src/appointments/appointments.repository.ts';
import { chunkContext, segmentContext } from '../../src/video/recording-files.ts';
import type { TestApp } from '../helpers.ts';

/** A WebM as Chromium's MediaRecorder writes it (no duration, no Cues), about 4.8 s, 151 kB. */
export const RECORDING_WEBM = fs.readFileSync(new URL('../fixtures/recording.webm', import.meta.url));

let slot = 0;

/** A past video appointment of `providerId` with `patientId` (each call a quarter hour earlier). */
export async function pastVideoAppointment(t: TestApp, providerId: string, patientId: string): Promise<string> {
  const startsAt = new Date(Math.floor(Date.now() / 900_000) * 900_000 - ++slot * 900_000);
  const [row] = await insertAppointments(
    t.runtime.database.db,
    [
      {
        patientId,
        providerId,
        startsAt,
        endsAt: new Date(startsAt.getTime() + 15 * 60_000),
        timeZone: t.runtime.config.settings.current().timeZone,
        duration: 15,
        appointmentType: 'video',
        status: 'completed',
        reason: 'Medication follow-up',
        createdBy: providerId,
      },
    ],
    t.runtime.keyring,
  );
  return row!.id;
}

/**
 * A recording of RECORDING_WEBM as the release before the blob store left it (decision 071): assembled, in
 * bytea segments of `partBytes` (`segments`), or stopped with its uploaded parts of `partBytes` still bytea
 * (`chunks`). Answers its id.
 */
export async function legacyRecording(
  t: TestApp,
  people: { providerId: string; patientId: string },
  kind: 'segments' | 'chunks',
  partBytes: number,
): Promise<string> {
  const db = t.runtime.database.db;
  const id = randomUUID();
  const ready = kind === 'segments';
  const appointmentId = await pastVideoAppointment(t, people.providerId, people.patientId);
  await db.execute(
    sql`INSERT INTO video_recordings (id, appointment_id, requested_by, status, notice_version, mime_type, started_at,
          stopped_at, size_bytes, segment_bytes, duration_ms, expires_at)
        VALUES (${id}, ${appointmentId}, ${people.providerId}, ${ready ? 'ready' : 'stopped'}, 'v1', 'video/webm',
          now(), now(), ${ready ? RECORDING_WEBM.length : null}, ${ready ? partBytes : null}, ${ready ? 4814 : null},
          now() + interval '30 days')`,
  );
  for (let n = 0; n * partBytes < RECORDING_WEBM.length; n++) {
    const part = RECORDING_WEBM.subarray(n * partBytes, (n + 1) * partBytes);
    if (ready) {
      const data = t.runtime.keyring.encryptBytes(part, segmentContext(id, n));
      await db.execute(sql`INSERT INTO video_recording_segments VALUES (${id}, ${n}, ${data})`);
    } else {
      const data = t.runtime.keyring.encryptBytes(part, chunkContext(id, n));
      await db.execute(sql`INSERT INTO video_recording_chunks (recording_id, seq, data) VALUES (${id}, ${n}, ${data})`);
    }
  }
  return id;
}
