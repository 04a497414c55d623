CREATE TABLE "appointment_history" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"appointment_id" uuid NOT NULL,
	"action" text NOT NULL,
	"from_status" text,
	"to_status" text,
	"from_starts_at" timestamp with time zone,
	"to_starts_at" timestamp with time zone,
	"fields" jsonb,
	"actor_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointment_history_action_check" CHECK ("appointment_history"."action" in ('created', 'updated', 'rescheduled', 'status', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "appointments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"time_zone" text NOT NULL,
	"duration" integer NOT NULL,
	"appointment_type" text NOT NULL,
	"status" text NOT NULL,
	"priority" text DEFAULT 'normal' NOT NULL,
	"reason" text NOT NULL,
	"notes" text,
	"series_id" uuid,
	"sequence" integer DEFAULT 0 NOT NULL,
	"invitation_sequence" integer,
	"cancellation_kind" text,
	"cancel_reason" text,
	"cancelled_at" timestamp with time zone,
	"cancelled_by" uuid,
	"created_by" uuid,
	"updated_by" uuid,
	"status_changed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status_changed_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "appointments_time_order" CHECK ("appointments"."ends_at" > "appointments"."starts_at"),
	CONSTRAINT "appointments_duration_check" CHECK ("appointments"."duration" in (15, 30, 45, 60, 90)),
	CONSTRAINT "appointments_type_check" CHECK ("appointments"."appointment_type" in ('in-person', 'video')),
	CONSTRAINT "appointments_status_check" CHECK ("appointments"."status" in ('scheduled', 'pending', 'confirmed', 'checked-in', 'in-progress', 'completed', 'cancelled', 'no-show')),
	CONSTRAINT "appointments_priority_check" CHECK ("appointments"."priority" in ('normal', 'high', 'urgent')),
	CONSTRAINT "appointments_cancellation_check" CHECK (("appointments"."status" = 'cancelled') = ("appointments"."cancellation_kind" IS NOT NULL) AND ("appointments"."cancellation_kind" IS NULL OR "appointments"."cancellation_kind" in ('patient', 'provider', 'late'))),
	CONSTRAINT "appointments_reason_encrypted" CHECK ("appointments"."reason" IS NULL OR "appointments"."reason" LIKE 'enc:%'),
	CONSTRAINT "appointments_notes_encrypted" CHECK ("appointments"."notes" IS NULL OR "appointments"."notes" LIKE 'enc:%'),
	CONSTRAINT "appointments_cancel_reason_encrypted" CHECK ("appointments"."cancel_reason" IS NULL OR "appointments"."cancel_reason" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "provider_schedules" (
	"provider_id" uuid PRIMARY KEY NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_by" uuid
);
--> statement-breakpoint
CREATE TABLE "provider_time_off" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"provider_id" uuid NOT NULL,
	"start_date" date NOT NULL,
	"end_date" date NOT NULL,
	"label" text,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "provider_time_off_order_check" CHECK ("provider_time_off"."start_date" <= "provider_time_off"."end_date")
);
--> statement-breakpoint
CREATE TABLE "provider_working_hours" (
	"provider_id" uuid NOT NULL,
	"weekday" integer NOT NULL,
	"start_time" text NOT NULL,
	"end_time" text NOT NULL,
	CONSTRAINT "provider_working_hours_weekday_check" CHECK ("provider_working_hours"."weekday" between 1 and 7),
	CONSTRAINT "provider_working_hours_order_check" CHECK ("provider_working_hours"."start_time" < "provider_working_hours"."end_time")
);
--> statement-breakpoint
ALTER TABLE "appointment_history" ADD CONSTRAINT "appointment_history_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointment_history" ADD CONSTRAINT "appointment_history_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_cancelled_by_users_id_fk" FOREIGN KEY ("cancelled_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_status_changed_by_users_id_fk" FOREIGN KEY ("status_changed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_schedules" ADD CONSTRAINT "provider_schedules_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_schedules" ADD CONSTRAINT "provider_schedules_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_time_off" ADD CONSTRAINT "provider_time_off_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_time_off" ADD CONSTRAINT "provider_time_off_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "provider_working_hours" ADD CONSTRAINT "provider_working_hours_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "appointment_history_appointment_idx" ON "appointment_history" USING btree ("appointment_id","id");--> statement-breakpoint
CREATE INDEX "appointments_provider_start_idx" ON "appointments" USING btree ("provider_id","starts_at","id");--> statement-breakpoint
CREATE INDEX "appointments_patient_start_idx" ON "appointments" USING btree ("patient_id","starts_at","id");--> statement-breakpoint
CREATE INDEX "appointments_start_idx" ON "appointments" USING btree ("starts_at","id");--> statement-breakpoint
CREATE INDEX "appointments_series_idx" ON "appointments" USING btree ("series_id","starts_at") WHERE "appointments"."series_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "provider_time_off_provider_idx" ON "provider_time_off" USING btree ("provider_id","start_date");--> statement-breakpoint
CREATE UNIQUE INDEX "provider_working_hours_pk" ON "provider_working_hours" USING btree ("provider_id","weekday","start_time");--> statement-breakpoint
-- No double booking (decision 023): two slot-holding appointments of one provider, or of one patient, never
-- overlap. Drizzle cannot express exclusion constraints, so they are written here. btree_gist lets the uuid
-- column join the range in one GiST index; the status list is SLOT_HOLDING_STATUSES in packages/shared.
-- A concurrent second insert waits for the first to commit, then fails with 23P01 naming the constraint.
CREATE EXTENSION IF NOT EXISTS btree_gist;--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_provider_no_overlap" EXCLUDE USING gist ("provider_id" WITH =, tstzrange("starts_at", "ends_at", '[)') WITH &&) WHERE ("status" IN ('scheduled', 'pending', 'confirmed', 'checked-in', 'in-progress', 'completed'));--> statement-breakpoint
ALTER TABLE "appointments" ADD CONSTRAINT "appointments_patient_no_overlap" EXCLUDE USING gist ("patient_id" WITH =, tstzrange("starts_at", "ends_at", '[)') WITH &&) WHERE ("status" IN ('scheduled', 'pending', 'confirmed', 'checked-in', 'in-progress', 'completed'));
