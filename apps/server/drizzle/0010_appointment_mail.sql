CREATE TABLE "appointment_reminders" (
	"appointment_id" uuid NOT NULL,
	"hours_before" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "calendar_method" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "calendar_ics" text;--> statement-breakpoint
ALTER TABLE "appointment_reminders" ADD CONSTRAINT "appointment_reminders_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "appointment_reminders_once_idx" ON "appointment_reminders" USING btree ("appointment_id","hours_before","starts_at");