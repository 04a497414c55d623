import { z } from 'zod';
import { CronPayloadSchema } from '../jobs/tasks.ts';
import { defineModule } from '../modules/domain-module.ts';
import { pruneExpiredAuditEntries } from './audit-retention.ts';
import { BackupService } from './backup.service.ts';
import { DataExportService } from './data-export.service.ts';
import { registerDataRoutes } from './data.routes.ts';

const taskPayloads = {
  // Issue 16, Data (decision 037): a backup started from /admin/data (its run's id), the scheduled backup
  // (BACKUP_SCHEDULE), and the removal of audit entries past their retention years.
  'backup:run': z.object({ runId: z.uuid() }),
  'backup:scheduled': CronPayloadSchema,
  'audit:retention': CronPayloadSchema,
};
type PracticeDataTaskSchemas = typeof taskPayloads;

declare module '../jobs/tasks.ts' {
  interface TaskSchemas extends PracticeDataTaskSchemas {}
}
declare module '../modules/services.ts' {
  interface Services {
    /** FHIR exports and backups (decision 037). */
    dataExport: DataExportService;
    backups: BackupService;
  }
}

/** The scheduled backup's crontab line (BACKUP_SCHEDULE, UTC), or none when it is off. */
export function backupCrontab(schedule: string | null): string[] {
  return schedule ? [`${schedule} backup:scheduled ?id=backup-scheduled&jobKey=cron:backup-scheduled&max=1`] : [];
}

/** The practice's data: FHIR exports, backups, audit retention (decision 037). */
export default defineModule({
  name: 'practice-data',
  after: ['blobs'],
  taskPayloads,
  crontab: ['37 4 * * * audit:retention ?id=audit-retention&jobKey=cron:audit-retention&max=3'],
  create: ({ db, pool, config, keyring, url, log, blobStore }) => {
    const backups = new BackupService({ db, config, keyring, url, blobStore });
    const dataExport = new DataExportService({ db, pool, keyring });
    return {
      services: { backups, dataExport },
      tasks: {
        'backup:run': async ({ runId }) => {
          await backups.run(runId);
        },
        'backup:scheduled': async () => {
          const run = await backups.runScheduled();
          if (run.status === 'failed') log.error({ backupRunId: run.id }, 'the scheduled backup failed');
          if (run.status === 'skipped') log.warn({ backupRunId: run.id }, 'the scheduled backup was skipped');
        },
        'audit:retention': async () => {
          const pruned = await pruneExpiredAuditEntries(db, keyring);
          if (pruned > 0) log.info({ pruned }, 'audit entries past their retention removed');
        },
      },
      crontab: backupCrontab(config.backup.schedule),
      // A backup whose process died while this server was down shows as failed, not as running.
      jobsStarted: () => backups.endDeadRuns(),
    };
  },
  routes: (app, deps) => registerDataRoutes(app, deps),
});
