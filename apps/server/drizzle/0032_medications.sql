CREATE TABLE "medication_events" (
	"id" uuid PRIMARY KEY NOT NULL,
	"medication_id" uuid NOT NULL,
	"sequence" integer NOT NULL,
	"kind" text NOT NULL,
	"effective_date" date NOT NULL,
	"strength" text,
	"dose_amount" numeric(12, 4),
	"dose_unit" text,
	"route" text,
	"frequency" text,
	"as_needed" boolean,
	"as_needed_reason" text,
	"reason" text,
	"note_id" uuid,
	"recorded_by" uuid NOT NULL,
	"recorded_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "medication_events_dose_check" CHECK (("medication_events"."kind" in ('started', 'dose-changed')) = ("medication_events"."dose_amount" IS NOT NULL)),
	CONSTRAINT "medication_events_kind_check" CHECK ("medication_events"."kind" in ('started', 'dose-changed', 'held', 'resumed', 'stopped')),
	CONSTRAINT "medication_events_reason_encrypted" CHECK ("medication_events"."reason" IS NULL OR "medication_events"."reason" LIKE 'enc:%'),
	CONSTRAINT "medication_events_as_needed_reason_encrypted" CHECK ("medication_events"."as_needed_reason" IS NULL OR "medication_events"."as_needed_reason" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "medications" (
	"id" uuid PRIMARY KEY NOT NULL,
	"patient_id" uuid NOT NULL,
	"drug_name" text NOT NULL,
	"brand_name" text,
	"drug_class" text,
	"listed" boolean NOT NULL,
	"controlled_schedule" text,
	"form" text,
	"strength" text,
	"dose_amount" numeric(12, 4),
	"dose_unit" text,
	"route" text,
	"frequency" text,
	"as_needed" boolean,
	"as_needed_reason" text,
	"quantity" integer,
	"refills" integer,
	"prescriber" text,
	"indication_id" uuid,
	"status" text NOT NULL,
	"start_date" date NOT NULL,
	"last_change_date" date NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "medications_status_check" CHECK ("medications"."status" in ('active', 'held', 'stopped')),
	CONSTRAINT "medications_dose_check" CHECK ("medications"."dose_amount" > 0 AND "medications"."dose_unit" IS NOT NULL AND "medications"."route" IS NOT NULL AND "medications"."frequency" IS NOT NULL AND "medications"."as_needed" IS NOT NULL),
	CONSTRAINT "medications_drug_name_encrypted" CHECK ("medications"."drug_name" IS NULL OR "medications"."drug_name" LIKE 'enc:%'),
	CONSTRAINT "medications_brand_name_encrypted" CHECK ("medications"."brand_name" IS NULL OR "medications"."brand_name" LIKE 'enc:%'),
	CONSTRAINT "medications_prescriber_encrypted" CHECK ("medications"."prescriber" IS NULL OR "medications"."prescriber" LIKE 'enc:%'),
	CONSTRAINT "medications_as_needed_reason_encrypted" CHECK ("medications"."as_needed_reason" IS NULL OR "medications"."as_needed_reason" LIKE 'enc:%')
);
--> statement-breakpoint
ALTER TABLE "medication_events" ADD CONSTRAINT "medication_events_medication_id_medications_id_fk" FOREIGN KEY ("medication_id") REFERENCES "public"."medications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_events" ADD CONSTRAINT "medication_events_note_id_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."notes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medication_events" ADD CONSTRAINT "medication_events_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medications" ADD CONSTRAINT "medications_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medications" ADD CONSTRAINT "medications_indication_id_diagnoses_id_fk" FOREIGN KEY ("indication_id") REFERENCES "public"."diagnoses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "medications" ADD CONSTRAINT "medications_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "medication_events_sequence_idx" ON "medication_events" USING btree ("medication_id","sequence");--> statement-breakpoint
CREATE INDEX "medication_events_note_idx" ON "medication_events" USING btree ("note_id");--> statement-breakpoint
CREATE INDEX "medications_patient_idx" ON "medications" USING btree ("patient_id");