CREATE TABLE "intake_card_photos" (
	"id" uuid PRIMARY KEY NOT NULL,
	"patient_id" uuid NOT NULL,
	"side" text NOT NULL,
	"media_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"data" "bytea" NOT NULL,
	"uploaded_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "intake_card_photos_side_check" CHECK ("intake_card_photos"."side" in ('front', 'back'))
);
--> statement-breakpoint
CREATE TABLE "intakes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"patient_id" uuid NOT NULL,
	"status" text NOT NULL,
	"answers" text NOT NULL,
	"current_section" text NOT NULL,
	"submitted_at" timestamp with time zone,
	"accepted_at" timestamp with time zone,
	"accepted_by" uuid,
	"returned_at" timestamp with time zone,
	"returned_by" uuid,
	"return_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "intakes_status_check" CHECK ("intakes"."status" in ('in-progress', 'submitted', 'accepted')),
	CONSTRAINT "intakes_accepted_check" CHECK (("intakes"."status" = 'accepted') = ("intakes"."accepted_at" IS NOT NULL AND "intakes"."accepted_by" IS NOT NULL)),
	CONSTRAINT "intakes_answers_encrypted" CHECK ("intakes"."answers" IS NULL OR "intakes"."answers" LIKE 'enc:%'),
	CONSTRAINT "intakes_return_reason_encrypted" CHECK ("intakes"."return_reason" IS NULL OR "intakes"."return_reason" LIKE 'enc:%')
);
--> statement-breakpoint
ALTER TABLE "medications" DROP CONSTRAINT "medications_dose_check";--> statement-breakpoint
ALTER TABLE "allergies" ADD COLUMN "source" text DEFAULT 'clinician' NOT NULL;--> statement-breakpoint
ALTER TABLE "medications" ADD COLUMN "source" text DEFAULT 'clinician' NOT NULL;--> statement-breakpoint
ALTER TABLE "medications" ADD COLUMN "reported_dose" text;--> statement-breakpoint
ALTER TABLE "intake_card_photos" ADD CONSTRAINT "intake_card_photos_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intake_card_photos" ADD CONSTRAINT "intake_card_photos_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intakes" ADD CONSTRAINT "intakes_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intakes" ADD CONSTRAINT "intakes_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "intakes" ADD CONSTRAINT "intakes_returned_by_users_id_fk" FOREIGN KEY ("returned_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "intake_card_photos_side_idx" ON "intake_card_photos" USING btree ("patient_id","side");--> statement-breakpoint
CREATE INDEX "intake_card_photos_patient_idx" ON "intake_card_photos" USING btree ("patient_id");--> statement-breakpoint
CREATE UNIQUE INDEX "intakes_patient_idx" ON "intakes" USING btree ("patient_id");--> statement-breakpoint
ALTER TABLE "allergies" ADD CONSTRAINT "allergies_source_check" CHECK ("allergies"."source" in ('clinician', 'patient'));--> statement-breakpoint
ALTER TABLE "medications" ADD CONSTRAINT "medications_source_check" CHECK ("medications"."source" in ('clinician', 'patient'));--> statement-breakpoint
ALTER TABLE "medications" ADD CONSTRAINT "medications_reported_dose_encrypted" CHECK ("medications"."reported_dose" IS NULL OR "medications"."reported_dose" LIKE 'enc:%');--> statement-breakpoint
ALTER TABLE "medications" ADD CONSTRAINT "medications_dose_check" CHECK (("medications"."source" = 'patient' AND "medications"."dose_amount" IS NULL) OR ("medications"."dose_amount" > 0 AND "medications"."dose_unit" IS NOT NULL AND "medications"."route" IS NOT NULL AND "medications"."frequency" IS NOT NULL AND "medications"."as_needed" IS NOT NULL));