-- drizzle-kit does not write extensions: the search index needs pg_trgm.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE TABLE "patients" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"date_of_birth" date NOT NULL,
	"phone" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"street" text,
	"city" text,
	"state" text,
	"zip_code" text,
	"emergency_contact_name" text,
	"emergency_contact_phone" text,
	"insurance_provider" text,
	"insurance_policy_number" text,
	"reason_for_care" text,
	"allergies" text,
	"current_medications" text,
	"medical_history" text,
	"owner_id" uuid,
	"account_id" uuid,
	"deleted_at" timestamp with time zone,
	"deleted_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "providers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"account_id" uuid NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"email" text NOT NULL,
	"specialty" text NOT NULL,
	"experience" integer DEFAULT 0 NOT NULL,
	"phone" text,
	"bio" text,
	"is_active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "providers_account_id_unique" UNIQUE("account_id")
);
--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_deleted_by_users_id_fk" FOREIGN KEY ("deleted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "providers" ADD CONSTRAINT "providers_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "patients_order_idx" ON "patients" USING btree (lower("last_name"),lower("first_name"),"id") WHERE "patients"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "patients_owner_order_idx" ON "patients" USING btree ("owner_id",lower("last_name"),lower("first_name"),"id") WHERE "patients"."deleted_at" IS NULL;--> statement-breakpoint
CREATE INDEX "patients_search_trgm_idx" ON "patients" USING gin ((lower("first_name" || ' ' || "last_name" || ' ' || "email")) gin_trgm_ops);--> statement-breakpoint
CREATE UNIQUE INDEX "patients_account_id_idx" ON "patients" USING btree ("account_id") WHERE "patients"."account_id" IS NOT NULL AND "patients"."deleted_at" IS NULL;