import { z } from 'zod';
import { CronPayloadSchema } from '../jobs/tasks.ts';
import { defineModule } from '../modules/domain-module.ts';
import { RecordingsService } from './recordings.service.ts';
import { registerVideoRoutes } from './video.routes.ts';
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
    recordings: RecordingsService;
  }
}

/** Video visits: tokens, signalling, guests and recordings (decisions 026-028). */
export default defineModule({
  name: 'video',
  after: ['appointments', 'mail'],
  taskPayloads,
  crontab: ['41 3 * * * recordings:expire ?id=recordings-expire&jobKey=cron:recordings-expire&max=3'],
  create: ({ db, keyring, config, secret, appointments, mail, log }) => {
    const recordings = new RecordingsService({ db, keyring, config, log });
    const video = new VideoService({ db, keyring, config, secret, appointments, recordings, mail, log });
    // A cancelled appointment ends its visit (and its recording).
    appointments.addListener(video);
    return {
      services: { video, recordings },
      tasks: {
        'recording:finalize': async ({ recordingId }) => {
          await recordings.finalize(recordingId);
        },
        'recordings:expire': async () => {
          await recordings.deleteExpired();
        },
      },
    };
  },
  routes: (app, deps) => registerVideoRoutes(app, deps),
});
