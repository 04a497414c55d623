import { z } from 'zod';
import { CronPayloadSchema } from '../jobs/tasks.ts';
import { defineModule } from '../modules/domain-module.ts';
import { VideoConsentGate } from './consent-gate.ts';
import { RecordingFiles } from './recording-files.ts';
import { RecordingsService } from './recordings.service.ts';
import { registerVideoRoutes } from './video.routes.ts';
import { VideoGuests } from './video-guests.ts';
import { VideoSignalling } from './video-signalling.ts';
import { VideoService } from './video.service.ts';

const taskPayloads = {
  /** Assembles a video visit's recording from its uploaded parts (job key per recording). */
  'recording:finalize': z.object({ recordingId: z.uuid() }),
  /** Deletes the recordings past RECORDING_RETENTION_DAYS. */
  'recordings:expire': CronPayloadSchema,
};
type VideoTaskSchemas = typeof taskPayloads;

declare module '../jobs/tasks.ts' {
  interface TaskSchemas extends VideoTaskSchemas {}
}
declare module '../modules/services.ts' {
  interface Services {
    video: VideoService;
    videoGuests: VideoGuests;
    videoSignalling: VideoSignalling;
    recordings: RecordingsService;
    recordingFiles: RecordingFiles;
  }
}

/** Video visits: tokens, signalling, guests and recordings (decisions 026-028). */
export default defineModule({
  name: 'video',
  after: ['appointments', 'mail', 'practice-documents', 'blobs'],
  taskPayloads,
  crontab: ['41 3 * * * recordings:expire ?id=recordings-expire&jobKey=cron:recordings-expire&max=3'],
  create: ({ db, keyring, config, secret, appointments, mail, log, settings, practiceDocuments, blobs }) => {
    const recordings = new RecordingsService({ db, keyring, config });
    const recordingFiles = new RecordingFiles({ db, keyring, blobs, log });
    // The telehealth consent gate (decision 069), asked on every path a patient reaches a visit by.
    const consent = new VideoConsentGate({ settings, documents: practiceDocuments });
    const video = new VideoService({ db, keyring, config, secret, appointments, consent });
    const { tokens } = video;
    const videoGuests = new VideoGuests({ db, keyring, config, appointments, mail, tokens, rules: video });
    const videoSignalling = new VideoSignalling({
      db,
      keyring,
      config,
      appointments,
      recordings,
      guests: videoGuests,
      tokens,
      consent,
      log,
    });
    // A cancelled appointment ends its visit (and its recording).
    appointments.addListener(videoSignalling);
    return {
      services: { video, videoGuests, videoSignalling, recordings, recordingFiles },
      tasks: {
        'recording:finalize': async ({ recordingId }) => {
          await recordingFiles.finalize(recordingId);
        },
        'recordings:expire': async () => {
          await recordingFiles.deleteExpired();
        },
      },
    };
  },
  routes: (app, deps) => registerVideoRoutes(app, deps),
});
