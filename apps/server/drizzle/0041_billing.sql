CREATE TABLE "fee_schedule" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"code" text NOT NULL,
	"short_name" text NOT NULL,
	"fee_cents" integer NOT NULL,
	"add_on" boolean DEFAULT false NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"example" boolean DEFAULT false NOT NULL,
	"updated_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fee_schedule_fee_check" CHECK ("fee_schedule"."fee_cents" >= 0),
	CONSTRAINT "fee_schedule_code_check" CHECK ("fee_schedule"."code" ~ '^([0-9]{4}[0-9FT]|[A-V][0-9]{4})$')
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"patient_id" uuid NOT NULL,
	"provider_id" uuid,
	"appointment_id" uuid,
	"coding_line_id" uuid,
	"kind" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"entry_date" date NOT NULL,
	"method" text,
	"reference" text,
	"reason" text,
	"reverses_id" uuid,
	"entered_by" uuid NOT NULL,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ledger_entries_kind_check" CHECK ("ledger_entries"."kind" in ('charge', 'payment', 'adjustment', 'reversal')),
	CONSTRAINT "ledger_entries_amount_check" CHECK ("ledger_entries"."amount_cents" <> 0),
	CONSTRAINT "ledger_entries_sign_check" CHECK (("ledger_entries"."kind" = 'charge' AND "ledger_entries"."amount_cents" > 0) OR ("ledger_entries"."kind" = 'payment' AND "ledger_entries"."amount_cents" < 0) OR "ledger_entries"."kind" in ('adjustment', 'reversal')),
	CONSTRAINT "ledger_entries_method_check" CHECK (("ledger_entries"."kind" = 'payment') = ("ledger_entries"."method" IS NOT NULL) AND ("ledger_entries"."method" IS NULL OR "ledger_entries"."method" in ('cash', 'check', 'card', 'insurance'))),
	CONSTRAINT "ledger_entries_charge_line_check" CHECK ("ledger_entries"."kind" <> 'charge' OR "ledger_entries"."coding_line_id" IS NOT NULL),
	CONSTRAINT "ledger_entries_reversal_check" CHECK (("ledger_entries"."kind" = 'reversal') = ("ledger_entries"."reverses_id" IS NOT NULL)),
	CONSTRAINT "ledger_entries_reason_check" CHECK ("ledger_entries"."kind" not in ('adjustment', 'reversal') OR "ledger_entries"."reason" IS NOT NULL),
	CONSTRAINT "ledger_entries_reference_encrypted" CHECK ("ledger_entries"."reference" IS NULL OR "ledger_entries"."reference" LIKE 'enc:%'),
	CONSTRAINT "ledger_entries_reason_encrypted" CHECK ("ledger_entries"."reason" IS NULL OR "ledger_entries"."reason" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "visit_coding_lines" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"coding_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"fee_item_id" uuid NOT NULL,
	"code" text NOT NULL,
	"short_name" text NOT NULL,
	"add_on" boolean NOT NULL,
	"units" integer NOT NULL,
	"modifiers" text[] NOT NULL,
	"diagnosis_pointers" integer[] NOT NULL,
	"unit_fee_cents" integer NOT NULL,
	CONSTRAINT "visit_coding_lines_units_check" CHECK ("visit_coding_lines"."units" between 1 and 24),
	CONSTRAINT "visit_coding_lines_fee_check" CHECK ("visit_coding_lines"."unit_fee_cents" >= 0),
	CONSTRAINT "visit_coding_lines_modifiers_check" CHECK (cardinality("visit_coding_lines"."modifiers") <= 4),
	CONSTRAINT "visit_coding_lines_pointers_check" CHECK (cardinality("visit_coding_lines"."diagnosis_pointers") between 1 and 4)
);
--> statement-breakpoint
CREATE TABLE "visit_codings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"appointment_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"provider_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"place_of_service" text NOT NULL,
	"diagnosis_codes" text[] NOT NULL,
	"service_date" date NOT NULL,
	"coded_by" uuid NOT NULL,
	"coded_at" timestamp with time zone DEFAULT now() NOT NULL,
	"superseded_at" timestamp with time zone,
	CONSTRAINT "visit_codings_place_check" CHECK ("visit_codings"."place_of_service" in ('02', '10', '11')),
	CONSTRAINT "visit_codings_diagnoses_check" CHECK (cardinality("visit_codings"."diagnosis_codes") between 1 and 4)
);
--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "npi" text;--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "taxonomy_code" text;--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "license_state" text;--> statement-breakpoint
ALTER TABLE "providers" ADD COLUMN "license_number" text;--> statement-breakpoint
ALTER TABLE "fee_schedule" ADD CONSTRAINT "fee_schedule_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_coding_line_id_visit_coding_lines_id_fk" FOREIGN KEY ("coding_line_id") REFERENCES "public"."visit_coding_lines"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_entered_by_users_id_fk" FOREIGN KEY ("entered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_reverses_id_fkey" FOREIGN KEY ("reverses_id") REFERENCES "public"."ledger_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_coding_lines" ADD CONSTRAINT "visit_coding_lines_coding_id_visit_codings_id_fk" FOREIGN KEY ("coding_id") REFERENCES "public"."visit_codings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_coding_lines" ADD CONSTRAINT "visit_coding_lines_fee_item_id_fee_schedule_id_fk" FOREIGN KEY ("fee_item_id") REFERENCES "public"."fee_schedule"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_codings" ADD CONSTRAINT "visit_codings_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_codings" ADD CONSTRAINT "visit_codings_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_codings" ADD CONSTRAINT "visit_codings_provider_id_providers_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."providers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "visit_codings" ADD CONSTRAINT "visit_codings_coded_by_users_id_fk" FOREIGN KEY ("coded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "fee_schedule_code_idx" ON "fee_schedule" USING btree ("code");--> statement-breakpoint
CREATE INDEX "ledger_entries_patient_idx" ON "ledger_entries" USING btree ("patient_id","entry_date","entered_at");--> statement-breakpoint
CREATE INDEX "ledger_entries_provider_idx" ON "ledger_entries" USING btree ("provider_id","entry_date");--> statement-breakpoint
CREATE INDEX "ledger_entries_appointment_idx" ON "ledger_entries" USING btree ("appointment_id") WHERE "ledger_entries"."appointment_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_one_reversal_idx" ON "ledger_entries" USING btree ("reverses_id") WHERE "ledger_entries"."reverses_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "visit_coding_lines_position_idx" ON "visit_coding_lines" USING btree ("coding_id","position");--> statement-breakpoint
CREATE UNIQUE INDEX "visit_codings_version_idx" ON "visit_codings" USING btree ("appointment_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "visit_codings_current_idx" ON "visit_codings" USING btree ("appointment_id") WHERE "visit_codings"."superseded_at" IS NULL;--> statement-breakpoint
CREATE INDEX "visit_codings_patient_idx" ON "visit_codings" USING btree ("patient_id","service_date");--> statement-breakpoint
CREATE INDEX "visit_codings_provider_idx" ON "visit_codings" USING btree ("provider_id","service_date");--> statement-breakpoint
CREATE UNIQUE INDEX "providers_npi_idx" ON "providers" USING btree ("npi") WHERE "providers"."npi" IS NOT NULL;--> statement-breakpoint
-- The ledger is written once (decision 073): an entry is reversed by another, never changed or removed. A key
-- rotation may re-encrypt its reference and reason (note_record_refuse_change lets that one update through).
CREATE TRIGGER ledger_entries_write_once BEFORE UPDATE OR DELETE ON ledger_entries
  FOR EACH ROW EXECUTE FUNCTION note_record_refuse_change();
--> statement-breakpoint
CREATE TRIGGER visit_coding_lines_write_once BEFORE UPDATE OR DELETE ON visit_coding_lines
  FOR EACH ROW EXECUTE FUNCTION note_record_refuse_change();
