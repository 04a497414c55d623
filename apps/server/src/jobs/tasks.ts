import type { FastifyBaseLogger } from 'fastify';
import type { JobHelpers } from 'graphile-worker';
import { z } from 'zod';
import { anchorAuditChain } from '../audit/audit-anchors.ts';
import { sealAuditChain } from '../audit/audit-chain.ts';
import type { AppointmentNotifications } from '../appointments/appointment-notifications.ts';
import type { MeasuresService } from '../measures/measures.service.ts';
import type { MessagesService } from '../messages/messages.service.ts';
import type { RecordingsService } from '../video/recordings.service.ts';
import type { WaitlistService } from '../appointments/waitlist.service.ts';
import type { AuthService } from '../auth/auth.service.ts';
import type { Database } from '../db/client.ts';
import type { MailService } from '../mail/mail.service.ts';
import type { RateLimiter } from '../rate-limit/rate-limiter.ts';
import { pruneExpiredAuditEntries } from '../practice-data/audit-retention.ts';
import type { BackupService } from '../practice-data/backup.service.ts';
import type { Keyring } from '../keys/keyring.ts';
import { deleteExpiredIdempotencyKeys } from '../idempotency/idempotency-keys.ts';

/*
 * Every background task of the server, in one place: its name, the payload it accepts and its handler; and
 * the recurring ones in one crontab.
 *
 * Adding a task (appointment reminders, waitlist offers, alerts will):
 *   1. Add its payload schema to `taskPayloads`. Payloads hold ids, never health data or addresses: they sit in
 *      graphile_worker's tables and may appear in logs. The handler reads the rest from the database.
 *   2. Add its handler to `taskHandlers`. Throwing fails the attempt and the queue retries it with backoff
 *      (exp(attempt) seconds: 3 s, 7 s, 20 s, ...) up to its max attempts. A handler may run twice (an
 *      instance can die after the work and before the job is marked done): make it idempotent.
 *   3. Create jobs with `addJob(tx, name, payload, options)` inside the transaction that causes them (the job
 *      exists exactly when that change commits), or add a line to `crontab` for work on a schedule. A task
 *      that must run one at a time uses a `queueName`; one that must be pending only once uses a `jobKey`.
 */

/** What a crontab job receives: graphile-worker adds `_cron: { ts, backfilled }`. */
const CronPayloadSchema = z.looseObject({});

export const taskPayloads = {
  /** Sends one mail from the outbox (added with the mail, in the same transaction, when SMTP_URL is set). */
  'mail:deliver': z.object({ mailId: z.uuid() }),
  /** Ends every session past its deadline and records SESSION_EXPIRED for each (the automatic logoff). */
  'sessions:sweep': CronPayloadSchema,
  /** Forgets rate-limit hits older than any window. */
  'rate-limits:prune': CronPayloadSchema,
  /**
   * Links committed audit entries into the chain (decision 015), then runs again AUDIT_SEAL_INTERVAL_MS later
   * under the job key AUDIT_SEAL_JOB_KEY; the runtime starts it and the crontab restarts it if it ever stops.
   */
  'audit:seal': CronPayloadSchema,
  /** Appends the audit chain's head to DATA_DIR/audit-anchors.log and the log, when it moved. */
  'audit:anchor': CronPayloadSchema,
  /** Sends the invitation or cancellation an appointment's state calls for (job key per appointment). */
  'appointment:notify': z.object({ appointmentId: z.uuid() }),
  /** Sends a reminder some hours before a visit, once (job key per appointment and hours). */
  'appointment:remind': z.object({ appointmentId: z.uuid(), hoursBefore: z.number().positive() }),
  /** Offers a provider's freed time to the waitlist (job key per provider and start). */
  'waitlist:offer': z.object({ providerId: z.uuid(), startsAt: z.iso.datetime(), endsAt: z.iso.datetime() }),
  /** Assembles a video visit's recording from its uploaded parts (job key per recording). */
  'recording:finalize': z.object({ recordingId: z.uuid() }),
  /** Deletes the recordings past RECORDING_RETENTION_DAYS. */
  'recordings:expire': CronPayloadSchema,
  /** E-mails a safety alert's providers (job key per alert; the mail names no patient and no answer). */
  'safety-alert:notify': z.object({ alertId: z.uuid() }),
  /** Tells the administrators of a safety alert still not acknowledged (run SAFETY_ALERT_ESCALATION_MINUTES later). */
  'safety-alert:escalate': z.object({ alertId: z.uuid() }),
  /** Sends the standing-order questionnaires of the visits in the next MEASURE_LEAD_HOURS. */
  'measures:before-visits': CronPayloadSchema,
  /** E-mails one side of a conversation that a message waits, once per unread burst (job key per conversation and side). */
  'message:notify': z.object({ conversationId: z.uuid(), side: z.enum(['patient', 'practice']) }),
  /** Deletes the attachments uploaded and never sent (after a day). */
  'message-attachments:prune': CronPayloadSchema,
  // Issue 16, Data (decision 037): a backup started from /admin/data (its run's id), the scheduled backup
  // (BACKUP_SCHEDULE), and the removal of audit entries past their retention years.
  'backup:run': z.object({ runId: z.uuid() }),
  'backup:scheduled': CronPayloadSchema,
  'audit:retention': CronPayloadSchema,
  /** Deletes the Idempotency-Keys past their day (decision 044). */
  'idempotency-keys:prune': CronPayloadSchema,
} satisfies Record<string, z.ZodType<Record<string, unknown>>>;

export type TaskName = keyof typeof taskPayloads;
/** What `addJob` accepts for a task. */
export type TaskPayload<N extends TaskName> = z.input<(typeof taskPayloads)[N]>;
/** What a task's handler receives, after the payload was checked against its schema. */
export type ParsedTaskPayload<N extends TaskName> = z.output<(typeof taskPayloads)[N]>;

export type TaskHandler<N extends TaskName> = (payload: ParsedTaskPayload<N>, helpers: JobHelpers) => Promise<void>;
export type TaskHandlers = { [N in TaskName]: TaskHandler<N> };

/** Tasks that add themselves again each time they run: always pending, so `drain()` does not wait for them. */
export const SELF_RESCHEDULING_TASKS: readonly TaskName[] = ['audit:seal'];

/** The sealer's pace: an entry is sealed within about this plus the queue's poll interval of its commit. */
export const AUDIT_SEAL_INTERVAL_MS = 250;
/** One pending sealer job across every instance. */
export const AUDIT_SEAL_JOB_KEY = 'audit:seal';

/** The services the handlers use; the runtime passes its own. */
export interface TaskServices {
  db: Database;
  authService: AuthService;
  rateLimiter: RateLimiter;
  mail: MailService;
  appointmentNotifications: AppointmentNotifications;
  waitlist: WaitlistService;
  recordings: RecordingsService;
  measures: MeasuresService;
  messages: MessagesService;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Where audit anchors go: DATA_DIR/audit-anchors.log. */
  auditAnchorsFile: string;
  backups: BackupService;
  keyring: Keyring;
}

export function taskHandlers(services: TaskServices): TaskHandlers {
  return {
    'mail:deliver': async ({ mailId }, helpers) => {
      await services.mail.deliver(mailId, {
        final: helpers.job.attempts >= helpers.job.max_attempts,
        abort: helpers.abortPromise,
      });
    },
    'sessions:sweep': async () => {
      await services.authService.sweepExpiredSessions();
    },
    'rate-limits:prune': async () => {
      await services.rateLimiter.prune(services.db);
    },
    'audit:seal': async (_payload, helpers) => {
      try {
        await sealAuditChain(services.db);
      } catch (error) {
        // The next run, a moment later, tries again: no retry of its own (a failed job would only pile up).
        services.log.error({ err: error }, 'audit sealing failed');
      } finally {
        // By the database's clock, which every instance shares; the key keeps one pending job.
        await helpers.query(
          `SELECT graphile_worker.add_job('audit:seal', run_at => now() + $1 * interval '1 millisecond', job_key => $2)`,
          [AUDIT_SEAL_INTERVAL_MS, AUDIT_SEAL_JOB_KEY],
        );
      }
    },
    'audit:anchor': async () => {
      await anchorAuditChain(services.db, { file: services.auditAnchorsFile, log: services.log });
    },
    'appointment:notify': async ({ appointmentId }) => {
      await services.appointmentNotifications.notify(appointmentId);
    },
    'appointment:remind': async ({ appointmentId, hoursBefore }) => {
      await services.appointmentNotifications.remind(appointmentId, hoursBefore);
    },
    'waitlist:offer': async ({ providerId, startsAt, endsAt }) => {
      await services.waitlist.offerFreedSlot({ providerId, startsAt: new Date(startsAt), endsAt: new Date(endsAt) });
    },
    'recording:finalize': async ({ recordingId }) => {
      await services.recordings.finalize(recordingId);
    },
    'recordings:expire': async () => {
      await services.recordings.deleteExpired();
    },
    'safety-alert:notify': async ({ alertId }) => {
      await services.measures.notifyAlert(alertId);
    },
    'safety-alert:escalate': async ({ alertId }) => {
      await services.measures.escalateAlert(alertId);
    },
    'measures:before-visits': async () => {
      await services.measures.sendBeforeVisits();
    },
    'message:notify': async ({ conversationId, side }) => {
      await services.messages.notify(conversationId, side);
    },
    'message-attachments:prune': async () => {
      await services.messages.pruneUnsentAttachments();
    },
    'backup:run': async ({ runId }) => {
      await services.backups.run(runId);
    },
    'backup:scheduled': async () => {
      const run = await services.backups.runScheduled();
      if (run.status === 'failed') services.log.error({ backupRunId: run.id }, 'the scheduled backup failed');
      if (run.status === 'skipped') services.log.warn({ backupRunId: run.id }, 'the scheduled backup was skipped');
    },
    'audit:retention': async () => {
      const pruned = await pruneExpiredAuditEntries(services.db, services.keyring);
      if (pruned > 0) services.log.info({ pruned }, 'audit entries past their retention removed');
    },
    'idempotency-keys:prune': async () => {
      await deleteExpiredIdempotencyKeys(services.db);
    },
  };
}

/**
 * Recurring work, in graphile-worker's crontab format (UTC; minute hour day month weekday task ?options).
 * Every instance runs the same crontab and each entry is scheduled once per time however many run. Give each
 * line a fixed `id` (changing it can run a time twice). `jobKey` keeps one pending job per entry when an
 * attempt fails and waits for its retry; `max` bounds the retries of work the next run redoes anyway.
 */
export const crontab = [
  '* * * * * sessions:sweep ?id=sessions-sweep&jobKey=cron:sessions-sweep&max=3',
  '17 * * * * rate-limits:prune ?id=rate-limits-prune&jobKey=cron:rate-limits-prune&max=3',
  // A safety net: restarts the self-rescheduling sealer if it ever stopped, and leaves a pending one alone.
  `* * * * * audit:seal ?id=audit-seal&jobKey=${AUDIT_SEAL_JOB_KEY}&jobKeyMode=preserve_run_at`,
  '* * * * * audit:anchor ?id=audit-anchor&jobKey=cron:audit-anchor&max=3',
  '41 3 * * * recordings:expire ?id=recordings-expire&jobKey=cron:recordings-expire&max=3',
  '*/15 * * * * measures:before-visits ?id=measures-before-visits&jobKey=cron:measures-before-visits&max=3',
  '23 * * * * message-attachments:prune ?id=message-attachments-prune&jobKey=cron:message-attachments-prune&max=3',
  '37 4 * * * audit:retention ?id=audit-retention&jobKey=cron:audit-retention&max=3',
  '29 * * * * idempotency-keys:prune ?id=idempotency-keys-prune&jobKey=cron:idempotency-keys-prune&max=3',
].join('\n');

/** The scheduled backup's crontab line (BACKUP_SCHEDULE, UTC), or none when it is off. */
export function backupCrontab(schedule: string | null): string {
  return schedule ? `\n${schedule} backup:scheduled ?id=backup-scheduled&jobKey=cron:backup-scheduled&max=1` : '';
}
