import { z } from 'zod';
import { addJob } from '../jobs/add-job.ts';
import { defineModule } from '../modules/domain-module.ts';
import { BytesMover } from './move-bytes.ts';

/** One pending mover job across every instance. */
export const BLOBS_MOVE_JOB_KEY = 'blobs:move';
/** Rows moved per batch (each one transaction), and batches per job run before it lets other jobs go first. */
const BATCH_ROWS = 20;

const taskPayloads = {
  /** Moves the files rows still hold as bytes into the blob store (decision 071); added at start when any is left. */
  'blobs:move': z.object({}),
};
type BlobMoverTaskSchemas = typeof taskPayloads;

declare module '../jobs/tasks.ts' {
  interface TaskSchemas extends BlobMoverTaskSchemas {}
}
declare module '../modules/services.ts' {
  interface Services {
    bytesMover: BytesMover;
  }
}

/** Files out of the database: the mover of the bytes rows held before the blob store (decision 071). */
export default defineModule({
  name: 'blob-mover',
  after: ['blobs'],
  taskPayloads,
  create: ({ db, keyring, blobs, log }) => {
    const bytesMover = new BytesMover({ db, keyring, blobs, log });
    return {
      services: { bytesMover },
      tasks: {
        'blobs:move': async () => {
          const result = await bytesMover.moveAll({
            batchSize: BATCH_ROWS,
            onProgress: ({ table, moved, failed, remaining }) =>
              log.info({ table, moved, failed, remaining }, 'blobs: moved files out of the database'),
          });
          const failed = Object.values(result.failed).reduce((sum, n) => sum + n, 0);
          const moved = Object.values(result.moved).reduce((sum, n) => sum + n, 0);
          if (failed > 0) log.error({ failed: result.failed }, 'blobs: rows whose bytes could not be opened are left');
          log.info({ moved: result.moved }, 'blobs: the mover finished');
          // Rows written the old way by a server of the previous release while this ran: once more, then done.
          if (moved > 0 && failed === 0 && (await bytesMover.anyLeft())) {
            await addJob(db, 'blobs:move', {}, { jobKey: BLOBS_MOVE_JOB_KEY, delayMs: 60_000 });
          }
        },
      },
      // Started at every start while any row still holds bytes; a crash part-way is resumed by the next start
      // (or by the queue's retry of the job): a moved row holds no bytes, so it is never moved twice.
      jobsStarted: async () => {
        if (await bytesMover.anyLeft()) {
          const left = await bytesMover.remaining();
          log.info({ remaining: left }, 'blobs: files still in the database; the mover starts');
          await addJob(db, 'blobs:move', {}, { jobKey: BLOBS_MOVE_JOB_KEY, jobKeyMode: 'preserve_run_at' });
        }
      },
    };
  },
});
