CREATE TABLE "allergies" (
	"id" uuid PRIMARY KEY NOT NULL,
	"patient_id" uuid NOT NULL,
	"substance" text NOT NULL,
	"reaction" text,
	"severity" text NOT NULL,
	"category" text,
	"noted_date" date,
	"status" text DEFAULT 'active' NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"removed_by" uuid,
	"removed_at" timestamp with time zone,
	"removal_reason" text,
	CONSTRAINT "allergies_severity_check" CHECK ("allergies"."severity" in ('mild', 'moderate', 'severe', 'unknown')),
	CONSTRAINT "allergies_category_check" CHECK ("allergies"."category" IS NULL OR "allergies"."category" in ('medication', 'food', 'environment', 'other')),
	CONSTRAINT "allergies_status_check" CHECK ("allergies"."status" in ('active', 'removed')),
	CONSTRAINT "allergies_removal_check" CHECK (("allergies"."status" = 'removed') = ("allergies"."removed_by" IS NOT NULL AND "allergies"."removed_at" IS NOT NULL)),
	CONSTRAINT "allergies_substance_encrypted" CHECK ("allergies"."substance" IS NULL OR "allergies"."substance" LIKE 'enc:%'),
	CONSTRAINT "allergies_reaction_encrypted" CHECK ("allergies"."reaction" IS NULL OR "allergies"."reaction" LIKE 'enc:%'),
	CONSTRAINT "allergies_removal_reason_encrypted" CHECK ("allergies"."removal_reason" IS NULL OR "allergies"."removal_reason" LIKE 'enc:%')
);
--> statement-breakpoint
ALTER TABLE "allergies" ADD CONSTRAINT "allergies_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allergies" ADD CONSTRAINT "allergies_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "allergies" ADD CONSTRAINT "allergies_removed_by_users_id_fk" FOREIGN KEY ("removed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "allergies_patient_idx" ON "allergies" USING btree ("patient_id");