-- A provider has one id: their account's (decision 020). providers.id becomes the account id, account_id goes,
-- and a patient's primary provider (owner_id, which already held the provider's account id) references the
-- provider record, as appointments and notes will.
ALTER TABLE "patients" DROP CONSTRAINT "patients_owner_id_users_id_fk";
--> statement-breakpoint
-- From now on every provider account has its provider record. One that was never given a record (none is
-- made so by the product itself) gets one, specialty Other, so the patients it owns keep their reference.
INSERT INTO "providers" ("id", "account_id", "first_name", "last_name", "email", "specialty")
SELECT u."id", u."id", u."first_name", u."last_name", u."email", 'Other'
FROM "users" u
WHERE u."role" = 'provider'
  AND NOT EXISTS (SELECT 1 FROM "providers" pr WHERE pr."account_id" = u."id");
--> statement-breakpoint
-- Audit entries written before this keep naming the old record id (providerId) beside the account id.
UPDATE "providers" SET "id" = "account_id" WHERE "id" <> "account_id";
--> statement-breakpoint
ALTER TABLE "providers" DROP CONSTRAINT "providers_account_id_unique";
--> statement-breakpoint
ALTER TABLE "providers" DROP CONSTRAINT "providers_account_id_users_id_fk";
--> statement-breakpoint
ALTER TABLE "providers" DROP COLUMN "account_id";
--> statement-breakpoint
ALTER TABLE "providers" ALTER COLUMN "id" DROP DEFAULT;
--> statement-breakpoint
ALTER TABLE "providers" ADD CONSTRAINT "providers_id_users_id_fk" FOREIGN KEY ("id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_owner_id_providers_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;
