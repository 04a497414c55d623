import { CronPayloadSchema } from '../jobs/tasks.ts';
import { addJob } from '../jobs/add-job.ts';
import { defineModule } from '../modules/domain-module.ts';
import { anchorAuditChain, auditAnchorsPath } from './audit-anchors.ts';
import { sealAuditChain } from './audit-chain.ts';

/** The sealer's pace: an entry is sealed within about this plus the queue's poll interval of its commit. */
export const AUDIT_SEAL_INTERVAL_MS = 1000;
/** One pending sealer job across every instance. */
export const AUDIT_SEAL_JOB_KEY = 'audit:seal';

const taskPayloads = {
  /**
   * Links committed audit entries into the chain (decision 015), then runs again AUDIT_SEAL_INTERVAL_MS later
   * under the job key AUDIT_SEAL_JOB_KEY; the runtime starts it and the crontab restarts it if it ever stops.
   */
  'audit:seal': CronPayloadSchema,
  /** Appends the audit chain's head to DATA_DIR/audit-anchors.log and the log, when it moved. */
  'audit:anchor': CronPayloadSchema,
};
type AuditTaskSchemas = typeof taskPayloads;

declare module '../jobs/tasks.ts' {
  interface TaskSchemas extends AuditTaskSchemas {}
}

/** The audit chain's upkeep: the sealer and the anchors (decision 015). No services: the audit trail is read by audit-trail/. */
export default defineModule({
  name: 'audit',
  taskPayloads,
  selfReschedulingTasks: ['audit:seal'],
  crontab: [
    // A safety net: restarts the self-rescheduling sealer if it ever stopped, and leaves a pending one alone.
    `* * * * * audit:seal ?id=audit-seal&jobKey=${AUDIT_SEAL_JOB_KEY}&jobKeyMode=preserve_run_at`,
    '* * * * * audit:anchor ?id=audit-anchor&jobKey=cron:audit-anchor&max=3',
  ],
  create: ({ db, config, log }) => ({
    tasks: {
      'audit:seal': async (_payload, helpers) => {
        try {
          await sealAuditChain(db);
        } catch (error) {
          // The next run, a moment later, tries again: no retry of its own (a failed job would only pile up).
          log.error({ err: error }, 'audit sealing failed');
        } finally {
          // By the database's clock, which every instance shares; the key keeps one pending job.
          await helpers.query(
            `SELECT graphile_worker.add_job('audit:seal', run_at => now() + $1 * interval '1 millisecond', job_key => $2)`,
            [AUDIT_SEAL_INTERVAL_MS, AUDIT_SEAL_JOB_KEY],
          );
        }
      },
      'audit:anchor': async () => {
        await anchorAuditChain(db, { file: auditAnchorsPath(config.dataDir), log });
      },
    },
    // The audit sealer runs from now on, rescheduling itself (one pending job whatever the instances).
    jobsStarted: async () => {
      await addJob(db, 'audit:seal', {}, { jobKey: AUDIT_SEAL_JOB_KEY, jobKeyMode: 'preserve_run_at' });
    },
  }),
});
