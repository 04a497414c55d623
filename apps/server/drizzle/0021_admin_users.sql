-- 0021_admin_users: Users (/admin/users, issue 16, decision 033).
-- When each account last completed a sign-in (set by the sign-in; filled once from the audit trail here).
ALTER TABLE "users" ADD COLUMN "last_sign_in_at" timestamp with time zone;--> statement-breakpoint
UPDATE "users" u SET "last_sign_in_at" = s."at"
  FROM (SELECT "user_id", max("timestamp") AS "at" FROM "audit_entries"
        WHERE "event" IN ('LOGIN', 'ADMIN_LOGIN') GROUP BY "user_id") s
  WHERE s."user_id" = u."id"::text;--> statement-breakpoint
-- The list's order (keyset): last name, first name, id, case-insensitive.
CREATE INDEX "users_order_idx" ON "users" USING btree (lower("last_name"), lower("first_name"), "id");--> statement-breakpoint
-- Case-insensitive substring search over name and e-mail (pg_trgm is installed by 0002).
CREATE INDEX "users_search_trgm_idx" ON "users" USING gin ((lower("first_name" || ' ' || "last_name" || ' ' || "email")) gin_trgm_ops);
