-- 0025_data_backup: backups, and the retention of audit entries (issue 16, point 7; decision 037).
--
-- Every backup run (scheduled, started from /admin/data, or npm run backup): the console reads the newest row.
CREATE TABLE "backup_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone,
	"status" text DEFAULT 'running' NOT NULL,
	"bytes" bigint,
	"location" text,
	"error" text,
	"trigger" text NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"requested_by" text,
	CONSTRAINT "backup_runs_status_check" CHECK ("status" in ('running', 'succeeded', 'failed')),
	CONSTRAINT "backup_runs_trigger_check" CHECK ("trigger" in ('schedule', 'manual', 'cli')),
	CONSTRAINT "backup_runs_progress_check" CHECK ("progress" BETWEEN 0 AND 100)
);
--> statement-breakpoint
CREATE INDEX "backup_runs_started_at_idx" ON "backup_runs" USING btree ("started_at");
--> statement-breakpoint
-- At most one backup runs at a time (a second "back up now" finds the first).
CREATE UNIQUE INDEX "backup_runs_one_running_idx" ON "backup_runs" ((true)) WHERE "status" = 'running';
--> statement-breakpoint
-- An audit entry removed at the end of its retention: its chain link stays (position, checksum), this row says
-- why the content is gone, signed with a key outside the database (decision 037). Append-only.
CREATE TABLE "audit_pruned" (
	"entry_id" bigint PRIMARY KEY NOT NULL,
	"position" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"pruned_at" timestamp with time zone DEFAULT now() NOT NULL,
	"key_id" text NOT NULL,
	"signature" text NOT NULL,
	CONSTRAINT "audit_pruned_position_unique" UNIQUE("position")
);
--> statement-breakpoint
CREATE TRIGGER audit_pruned_no_update_delete
  BEFORE UPDATE OR DELETE ON "audit_pruned"
  FOR EACH ROW EXECUTE FUNCTION audit_entries_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_pruned_no_truncate
  BEFORE TRUNCATE ON "audit_pruned"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_refuse_change();
--> statement-breakpoint
-- Entries stay append-only, except that one recorded in audit_pruned (in the same transaction) may be deleted.
CREATE FUNCTION audit_entries_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' AND EXISTS (SELECT 1 FROM "audit_pruned" WHERE "entry_id" = OLD."id") THEN
    RETURN OLD;
  END IF;
  RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
DROP TRIGGER audit_entries_no_update_delete ON "audit_entries";
--> statement-breakpoint
CREATE TRIGGER audit_entries_no_update_delete
  BEFORE UPDATE OR DELETE ON "audit_entries"
  FOR EACH ROW EXECUTE FUNCTION audit_entries_guard();
--> statement-breakpoint
-- The retention job finds expired entries by when they expire.
CREATE INDEX "audit_entries_expiry_idx" ON "audit_entries" USING btree ("retention_years", "timestamp");
