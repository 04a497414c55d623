-- 0030_backup_lock: a backup run whose process died is recognised at once (issue 24, point 8; decision 037).
--
-- The process writing a backup holds a session-level advisory lock on a connection of its own for the run's life;
-- claimed_at says the run got that far (a run started from /admin/data waits for its job before). A claimed run
-- still 'running' while nobody holds the lock has died with its process.
ALTER TABLE "backup_runs" ADD COLUMN "claimed_at" timestamp with time zone;
--> statement-breakpoint
-- Runs left 'running' by the version before were written by processes that hold no such lock: claimed, so the
-- next backup finds them dead instead of waiting six hours.
UPDATE "backup_runs" SET "claimed_at" = "started_at" WHERE "status" = 'running';
--> statement-breakpoint
-- A scheduled backup that found another one being written is recorded as skipped (the health screen shows it).
ALTER TABLE "backup_runs" DROP CONSTRAINT "backup_runs_status_check";
--> statement-breakpoint
ALTER TABLE "backup_runs" ADD CONSTRAINT "backup_runs_status_check"
  CHECK ("status" in ('running', 'succeeded', 'failed', 'skipped'));
