CREATE TABLE "treatment_plan_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"plan_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"status" text NOT NULL,
	"content" text NOT NULL,
	"target_date" date,
	"review_date" date NOT NULL,
	"signed_by" uuid,
	"signed_at" timestamp with time zone,
	"acknowledged_by" uuid,
	"acknowledged_at" timestamp with time zone,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "treatment_plan_versions_status_check" CHECK ("treatment_plan_versions"."status" in ('active', 'completed', 'discontinued')),
	CONSTRAINT "treatment_plan_versions_signed_check" CHECK (("treatment_plan_versions"."signed_at" IS NULL) = ("treatment_plan_versions"."signed_by" IS NULL) AND ("treatment_plan_versions"."acknowledged_at" IS NULL OR "treatment_plan_versions"."signed_at" IS NOT NULL)),
	CONSTRAINT "treatment_plan_versions_content_encrypted" CHECK ("treatment_plan_versions"."content" IS NULL OR "treatment_plan_versions"."content" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "treatment_plans" (
	"id" uuid PRIMARY KEY NOT NULL,
	"patient_id" uuid NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "treatment_plan_versions" ADD CONSTRAINT "treatment_plan_versions_plan_id_treatment_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."treatment_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_versions" ADD CONSTRAINT "treatment_plan_versions_signed_by_users_id_fk" FOREIGN KEY ("signed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_versions" ADD CONSTRAINT "treatment_plan_versions_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_versions" ADD CONSTRAINT "treatment_plan_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plan_versions" ADD CONSTRAINT "treatment_plan_versions_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plans" ADD CONSTRAINT "treatment_plans_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "treatment_plans" ADD CONSTRAINT "treatment_plans_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "treatment_plan_versions_version_idx" ON "treatment_plan_versions" USING btree ("plan_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "treatment_plan_versions_one_draft_idx" ON "treatment_plan_versions" USING btree ("plan_id") WHERE "treatment_plan_versions"."signed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "treatment_plan_versions_review_idx" ON "treatment_plan_versions" USING btree ("review_date");--> statement-breakpoint
CREATE UNIQUE INDEX "treatment_plans_patient_idx" ON "treatment_plans" USING btree ("patient_id");