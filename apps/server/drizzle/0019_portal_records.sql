-- 0019_portal_records: the patient portal's My Records, Who viewed my record and My account (decision 031).
ALTER TABLE "users" ADD COLUMN "language_chosen" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE TABLE "note_shares" (
	"note_id" uuid PRIMARY KEY NOT NULL,
	"patient_id" uuid NOT NULL,
	"shared_by" uuid NOT NULL,
	"shared_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "record_corrections" (
	"id" uuid PRIMARY KEY NOT NULL,
	"patient_id" uuid NOT NULL,
	"requested_by" uuid NOT NULL,
	"field" text NOT NULL,
	"request" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"response" text,
	"answered_by" uuid,
	"answered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "record_corrections_status_check" CHECK ("record_corrections"."status" in ('pending', 'accepted', 'declined')),
	CONSTRAINT "record_corrections_answer_check" CHECK (("record_corrections"."status" = 'pending') = ("record_corrections"."answered_at" IS NULL) AND ("record_corrections"."answered_at" IS NULL) = ("record_corrections"."answered_by" IS NULL) AND ("record_corrections"."status" <> 'declined' OR "record_corrections"."response" IS NOT NULL)),
	CONSTRAINT "record_corrections_request_encrypted" CHECK ("record_corrections"."request" IS NULL OR "record_corrections"."request" LIKE 'enc:%'),
	CONSTRAINT "record_corrections_response_encrypted" CHECK ("record_corrections"."response" IS NULL OR "record_corrections"."response" LIKE 'enc:%')
);
--> statement-breakpoint
ALTER TABLE "note_shares" ADD CONSTRAINT "note_shares_note_id_notes_id_fk" FOREIGN KEY ("note_id") REFERENCES "public"."notes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_shares" ADD CONSTRAINT "note_shares_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "note_shares" ADD CONSTRAINT "note_shares_shared_by_users_id_fk" FOREIGN KEY ("shared_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_corrections" ADD CONSTRAINT "record_corrections_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_corrections" ADD CONSTRAINT "record_corrections_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "record_corrections" ADD CONSTRAINT "record_corrections_answered_by_users_id_fk" FOREIGN KEY ("answered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "note_shares_patient_idx" ON "note_shares" USING btree ("patient_id","shared_at");--> statement-breakpoint
CREATE INDEX "record_corrections_patient_idx" ON "record_corrections" USING btree ("patient_id","created_at");--> statement-breakpoint
CREATE INDEX "audit_entries_patient_ids_idx" ON "audit_entries" USING gin (("details" -> 'patientIds') jsonb_path_ops);
--> statement-breakpoint
-- Second line of defence behind the service (decision 031): only a signed note that is not a psychotherapy note
-- (45 CFR 164.501), about the very patient it is shared with, can be shared.
CREATE FUNCTION note_shares_refuse_unshareable() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (
    SELECT 1 FROM notes n
    WHERE n.id = NEW.note_id AND n.patient_id = NEW.patient_id AND n.is_private = false
      AND n.signed_at IS NOT NULL AND n.deleted_at IS NULL
  ) THEN
    RAISE EXCEPTION 'note % cannot be shared: only a signed note about the patient, never a psychotherapy note', NEW.note_id
      USING ERRCODE = 'check_violation';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER note_shares_shareable BEFORE INSERT OR UPDATE ON note_shares
  FOR EACH ROW EXECUTE FUNCTION note_shares_refuse_unshareable();
