CREATE TABLE "diagnoses" (
	"id" uuid PRIMARY KEY NOT NULL,
	"patient_id" uuid NOT NULL,
	"code" text NOT NULL,
	"title" text NOT NULL,
	"listed" boolean NOT NULL,
	"status" text NOT NULL,
	"onset_date" date,
	"is_primary" boolean DEFAULT false NOT NULL,
	"comment" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "diagnoses_status_check" CHECK ("diagnoses"."status" in ('active', 'in-remission', 'resolved', 'rule-out')),
	CONSTRAINT "diagnoses_title_encrypted" CHECK ("diagnoses"."title" IS NULL OR "diagnoses"."title" LIKE 'enc:%'),
	CONSTRAINT "diagnoses_comment_encrypted" CHECK ("diagnoses"."comment" IS NULL OR "diagnoses"."comment" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "diagnosis_revisions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"diagnosis_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"status" text NOT NULL,
	"onset_date" date,
	"is_primary" boolean NOT NULL,
	"comment" text,
	"changed_by" uuid NOT NULL,
	"changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "diagnosis_revisions_status_check" CHECK ("diagnosis_revisions"."status" in ('active', 'in-remission', 'resolved', 'rule-out')),
	CONSTRAINT "diagnosis_revisions_comment_encrypted" CHECK ("diagnosis_revisions"."comment" IS NULL OR "diagnosis_revisions"."comment" LIKE 'enc:%')
);
--> statement-breakpoint
ALTER TABLE "diagnoses" ADD CONSTRAINT "diagnoses_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnoses" ADD CONSTRAINT "diagnoses_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnoses" ADD CONSTRAINT "diagnoses_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnosis_revisions" ADD CONSTRAINT "diagnosis_revisions_diagnosis_id_diagnoses_id_fk" FOREIGN KEY ("diagnosis_id") REFERENCES "public"."diagnoses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "diagnosis_revisions" ADD CONSTRAINT "diagnosis_revisions_changed_by_users_id_fk" FOREIGN KEY ("changed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "diagnoses_patient_code_idx" ON "diagnoses" USING btree ("patient_id","code");--> statement-breakpoint
CREATE UNIQUE INDEX "diagnoses_one_primary_idx" ON "diagnoses" USING btree ("patient_id") WHERE "diagnoses"."is_primary";--> statement-breakpoint
CREATE UNIQUE INDEX "diagnosis_revisions_version_idx" ON "diagnosis_revisions" USING btree ("diagnosis_id","version");--> statement-breakpoint
CREATE INDEX "diagnosis_revisions_diagnosis_idx" ON "diagnosis_revisions" USING btree ("diagnosis_id");