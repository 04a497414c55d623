CREATE TABLE "first_visit_reminders" (
	"patient_id" uuid NOT NULL,
	"number" integer NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "first_visit_reminders" ADD CONSTRAINT "first_visit_reminders_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "first_visit_reminders_once_idx" ON "first_visit_reminders" USING btree ("patient_id","number");