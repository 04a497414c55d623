CREATE TABLE "measure_schedules" (
	"patient_id" uuid NOT NULL,
	"instrument" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "measure_schedules_patient_id_instrument_pk" PRIMARY KEY("patient_id","instrument"),
	CONSTRAINT "measure_schedules_instrument_check" CHECK ("measure_schedules"."instrument" in ('phq9', 'gad7'))
);
--> statement-breakpoint
CREATE TABLE "measures" (
	"id" uuid PRIMARY KEY NOT NULL,
	"patient_id" uuid NOT NULL,
	"instrument" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"requested_by" uuid,
	"appointment_id" uuid,
	"answers" text,
	"total" integer,
	"band" text,
	"completed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "measures_instrument_check" CHECK ("measures"."instrument" in ('phq9', 'gad7')),
	CONSTRAINT "measures_status_check" CHECK ("measures"."status" in ('pending', 'completed', 'cancelled')),
	CONSTRAINT "measures_completed_check" CHECK (("measures"."status" = 'completed') = ("measures"."completed_at" IS NOT NULL AND "measures"."answers" IS NOT NULL AND "measures"."total" IS NOT NULL)),
	CONSTRAINT "measures_answers_encrypted" CHECK ("measures"."answers" IS NULL OR "measures"."answers" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "note_addenda" (
	"id" uuid PRIMARY KEY NOT NULL,
	"note_id" uuid NOT NULL,
	"note_version" integer NOT NULL,
	"author_id" uuid NOT NULL,
	"content" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "note_addenda_content_encrypted" CHECK ("note_addenda"."content" IS NULL OR "note_addenda"."content" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "note_templates" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"key" text,
	"name" text NOT NULL,
	"body" text NOT NULL,
	"category" text DEFAULT 'general' NOT NULL,
	"is_active" boolean DEFAULT true NOT NULL,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "note_templates_key_unique" UNIQUE("key"),
	CONSTRAINT "note_templates_category_check" CHECK ("note_templates"."category" in ('general', 'medical', 'appointment', 'patient', 'administrative', 'research'))
);
--> statement-breakpoint
CREATE TABLE "note_unlocks" (
	"id" uuid PRIMARY KEY NOT NULL,
	"note_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"reason" text NOT NULL,
	"unlocked_by" uuid NOT NULL,
	"unlocked_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "note_unlocks_reason_encrypted" CHECK ("note_unlocks"."reason" IS NULL OR "note_unlocks"."reason" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "note_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"note_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"tags" text NOT NULL,
	"category" text NOT NULL,
	"priority" text NOT NULL,
	"signed_at" timestamp with time zone NOT NULL,
	"signed_by" uuid NOT NULL,
	CONSTRAINT "note_versions_title_encrypted" CHECK ("note_versions"."title" IS NULL OR "note_versions"."title" LIKE 'enc:%'),
	CONSTRAINT "note_versions_content_encrypted" CHECK ("note_versions"."content" IS NULL OR "note_versions"."content" LIKE 'enc:%'),
	CONSTRAINT "note_versions_tags_encrypted" CHECK ("note_versions"."tags" IS NULL OR "note_versions"."tags" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "notes" (
	"id" uuid PRIMARY KEY NOT NULL,
	"author_id" uuid NOT NULL,
	"patient_id" uuid,
	"appointment_id" uuid,
	"template_id" uuid,
	"title" text NOT NULL,
	"content" text NOT NULL,
	"tags" text NOT NULL,
	"category" text DEFAULT 'general' NOT NULL,
	"priority" text DEFAULT 'medium' NOT NULL,
	"is_private" boolean DEFAULT false NOT NULL,
	"search_tokens" text[] DEFAULT '{}'::text[] NOT NULL,
	"search_key_id" text NOT NULL,
	"version" integer DEFAULT 1 NOT NULL,
	"signed_at" timestamp with time zone,
	"signed_by" uuid,
	"deleted_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notes_category_check" CHECK ("notes"."category" in ('general', 'medical', 'appointment', 'patient', 'administrative', 'research')),
	CONSTRAINT "notes_priority_check" CHECK ("notes"."priority" in ('low', 'medium', 'high', 'urgent')),
	CONSTRAINT "notes_signed_check" CHECK (("notes"."signed_at" IS NULL) = ("notes"."signed_by" IS NULL)),
	CONSTRAINT "notes_private_patient_check" CHECK (NOT "notes"."is_private" OR "notes"."patient_id" IS NOT NULL),
	CONSTRAINT "notes_title_encrypted" CHECK ("notes"."title" IS NULL OR "notes"."title" LIKE 'enc:%'),
	CONSTRAINT "notes_content_encrypted" CHECK ("notes"."content" IS NULL OR "notes"."content" LIKE 'enc:%'),
	CONSTRAINT "notes_tags_encrypted" CHECK ("notes"."tags" IS NULL OR "notes"."tags" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "safety_alerts" (
	"id" uuid PRIMARY KEY NOT NULL,
	"patient_id" uuid NOT NULL,
	"measure_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"notified_at" timestamp with time zone,
	"escalated_at" timestamp with time zone,
	"acknowledged_at" timestamp with time zone,
	"acknowledged_by" uuid,
	"acknowledgement" text,
	CONSTRAINT "safety_alerts_measure_id_unique" UNIQUE("measure_id"),
	CONSTRAINT "safety_alerts_ack_check" CHECK (("safety_alerts"."acknowledged_at" IS NULL) = ("safety_alerts"."acknowledged_by" IS NULL) AND ("safety_alerts"."acknowledged_at" IS NULL) = ("safety_alerts"."acknowledgement" IS NULL)),
	CONSTRAINT "safety_alerts_acknowledgement_encrypted" CHECK ("safety_alerts"."acknowledgement" IS NULL OR "safety_alerts"."acknowledgement" LIKE 'enc:%')
);
--> statement-breakpoint
ALTER TABLE "measure_schedules" ADD CONSTRAINT "measure_schedules_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measure_schedules" ADD CONSTRAINT "measure_schedules_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measures" ADD CONSTRAINT "measures_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measures" ADD CONSTRAINT "measures_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "measures" ADD CONSTRAINT "measures_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_addenda" ADD CONSTRAINT "note_addenda_note_id_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."notes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_addenda" ADD CONSTRAINT "note_addenda_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_templates" ADD CONSTRAINT "note_templates_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_unlocks" ADD CONSTRAINT "note_unlocks_note_id_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."notes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_unlocks" ADD CONSTRAINT "note_unlocks_unlocked_by_users_id_fk" FOREIGN KEY ("unlocked_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_versions" ADD CONSTRAINT "note_versions_note_id_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."notes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_versions" ADD CONSTRAINT "note_versions_signed_by_users_id_fk" FOREIGN KEY ("signed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_template_id_note_templates_id_fk" FOREIGN KEY ("template_id") REFERENCES "public"."note_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notes" ADD CONSTRAINT "notes_signed_by_users_id_fk" FOREIGN KEY ("signed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_alerts" ADD CONSTRAINT "safety_alerts_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_alerts" ADD CONSTRAINT "safety_alerts_measure_id_measures_id_fk" FOREIGN KEY ("measure_id") REFERENCES "public"."measures"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "safety_alerts" ADD CONSTRAINT "safety_alerts_acknowledged_by_users_id_fk" FOREIGN KEY ("acknowledged_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "measures_patient_idx" ON "measures" USING btree ("patient_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "measures_appointment_instrument_idx" ON "measures" USING btree ("appointment_id","instrument") WHERE "measures"."appointment_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "note_addenda_note_idx" ON "note_addenda" USING btree ("note_id","signed_at");--> statement-breakpoint
CREATE INDEX "note_unlocks_note_idx" ON "note_unlocks" USING btree ("note_id");--> statement-breakpoint
CREATE UNIQUE INDEX "note_versions_note_version_idx" ON "note_versions" USING btree ("note_id","version");--> statement-breakpoint
CREATE INDEX "notes_author_updated_idx" ON "notes" USING btree ("author_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "notes_patient_updated_idx" ON "notes" USING btree ("patient_id","updated_at","id");--> statement-breakpoint
CREATE INDEX "notes_updated_idx" ON "notes" USING btree ("updated_at","id");--> statement-breakpoint
CREATE INDEX "notes_search_tokens_idx" ON "notes" USING gin ("search_tokens");--> statement-breakpoint
CREATE INDEX "safety_alerts_open_idx" ON "safety_alerts" USING btree ("patient_id","created_at") WHERE "safety_alerts"."acknowledged_at" IS NULL;--> statement-breakpoint
-- A signed note is locked (decision 027). The only change allowed is the unlock: signed -> draft, the version one
-- higher, nothing else of the note changed. A key rotation (keys:rotate) may re-encrypt the encrypted columns, and a
-- new search key rewrite the search index: each says so for its transaction with the setting telehealth.reencrypt,
-- and may change nothing else.
CREATE FUNCTION notes_refuse_signed_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'DELETE' THEN
    IF OLD.signed_at IS NOT NULL THEN
      RAISE EXCEPTION 'note % is signed and cannot be deleted', OLD.id USING ERRCODE = 'integrity_constraint_violation';
    END IF;
    RETURN OLD;
  END IF;
  IF OLD.signed_at IS NULL THEN
    RETURN NEW;
  END IF;
  IF NEW.signed_at IS NULL AND NEW.version = OLD.version + 1
     AND NEW.title = OLD.title AND NEW.content = OLD.content AND NEW.tags = OLD.tags
     AND NEW.category = OLD.category AND NEW.priority = OLD.priority AND NEW.is_private = OLD.is_private
     AND NEW.patient_id IS NOT DISTINCT FROM OLD.patient_id
     AND NEW.appointment_id IS NOT DISTINCT FROM OLD.appointment_id
     AND NEW.author_id = OLD.author_id AND NEW.deleted_at IS NOT DISTINCT FROM OLD.deleted_at THEN
    RETURN NEW;
  END IF;
  IF current_setting('telehealth.reencrypt', true) = 'on'
     AND NEW.signed_at = OLD.signed_at AND NEW.signed_by = OLD.signed_by AND NEW.version = OLD.version
     AND NEW.category = OLD.category AND NEW.priority = OLD.priority AND NEW.is_private = OLD.is_private
     AND NEW.patient_id IS NOT DISTINCT FROM OLD.patient_id
     AND NEW.appointment_id IS NOT DISTINCT FROM OLD.appointment_id
     AND NEW.author_id = OLD.author_id AND NEW.deleted_at IS NOT DISTINCT FROM OLD.deleted_at
     AND NEW.updated_at = OLD.updated_at THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION 'note % is signed and locked', OLD.id USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER notes_signed_locked
  BEFORE UPDATE OR DELETE ON notes
  FOR EACH ROW EXECUTE FUNCTION notes_refuse_signed_change();
--> statement-breakpoint
-- Signed versions, unlock records and addenda are written once. A key rotation may re-encrypt them (see above).
CREATE FUNCTION note_record_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND current_setting('telehealth.reencrypt', true) = 'on' THEN
    RETURN NEW;
  END IF;
  RAISE EXCEPTION '% rows are written once: % is not allowed', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'integrity_constraint_violation';
END;
$$;
--> statement-breakpoint
CREATE TRIGGER note_versions_write_once BEFORE UPDATE OR DELETE ON note_versions
  FOR EACH ROW EXECUTE FUNCTION note_record_refuse_change();
--> statement-breakpoint
CREATE TRIGGER note_unlocks_write_once BEFORE UPDATE OR DELETE ON note_unlocks
  FOR EACH ROW EXECUTE FUNCTION note_record_refuse_change();
--> statement-breakpoint
CREATE TRIGGER note_addenda_write_once BEFORE UPDATE OR DELETE ON note_addenda
  FOR EACH ROW EXECUTE FUNCTION note_record_refuse_change();
