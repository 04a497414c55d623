-- 0022_audit_search: the audit search's indexes (decision 034). A search pages newest first by (timestamp, id),
-- the keyset, so each index that narrows a search ends in (timestamp, id): a page is then one backward index
-- range scan that stops after the page's rows, at any depth and over millions of entries. The patient filter uses
-- the GIN index on details->'patientIds' (migration 0019). The old two-column indexes are replaced, not kept
-- beside: every query that used them can use the new ones.
DROP INDEX IF EXISTS "audit_entries_timestamp_idx";--> statement-breakpoint
CREATE INDEX "audit_entries_timestamp_idx" ON "audit_entries" USING btree ("timestamp","id");--> statement-breakpoint
DROP INDEX IF EXISTS "audit_entries_user_id_idx";--> statement-breakpoint
CREATE INDEX "audit_entries_user_id_idx" ON "audit_entries" USING btree ("user_id","timestamp","id");--> statement-breakpoint
DROP INDEX IF EXISTS "audit_entries_event_idx";--> statement-breakpoint
CREATE INDEX "audit_entries_event_idx" ON "audit_entries" USING btree ("event","timestamp","id");--> statement-breakpoint
-- Warnings and errors are few among millions of INFO entries: a partial index finds them without reading the rest.
CREATE INDEX "audit_entries_level_idx" ON "audit_entries" USING btree ("level","timestamp","id") WHERE "level" IN ('WARNING', 'ERROR');
