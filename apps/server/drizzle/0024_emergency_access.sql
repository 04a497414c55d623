-- 0024_emergency_access: emergency access grants ("break the glass", decision 036).
CREATE TABLE "emergency_access_grants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"provider_id" uuid NOT NULL,
	"patient_id" uuid NOT NULL,
	"reason" text NOT NULL,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"reviewed_by" uuid,
	"reviewed_at" timestamp with time zone,
	"review_outcome" text,
	"review_note" text,
	CONSTRAINT "emergency_access_grants_period_check" CHECK ("emergency_access_grants"."ends_at" > "emergency_access_grants"."started_at"),
	CONSTRAINT "emergency_access_grants_review_check" CHECK (("emergency_access_grants"."reviewed_at" IS NULL) = ("emergency_access_grants"."reviewed_by" IS NULL) AND ("emergency_access_grants"."reviewed_at" IS NULL) = ("emergency_access_grants"."review_outcome" IS NULL) AND ("emergency_access_grants"."review_outcome" IS NULL OR "emergency_access_grants"."review_outcome" in ('appropriate', 'inappropriate'))),
	CONSTRAINT "emergency_access_grants_reason_encrypted" CHECK ("emergency_access_grants"."reason" IS NULL OR "emergency_access_grants"."reason" LIKE 'enc:%'),
	CONSTRAINT "emergency_access_grants_review_note_encrypted" CHECK ("emergency_access_grants"."review_note" IS NULL OR "emergency_access_grants"."review_note" LIKE 'enc:%')
);
--> statement-breakpoint
ALTER TABLE "emergency_access_grants" ADD CONSTRAINT "emergency_access_grants_provider_id_users_id_fk" FOREIGN KEY ("provider_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_access_grants" ADD CONSTRAINT "emergency_access_grants_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "emergency_access_grants" ADD CONSTRAINT "emergency_access_grants_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "emergency_access_grants_provider_idx" ON "emergency_access_grants" USING btree ("provider_id","ends_at");--> statement-breakpoint
CREATE INDEX "emergency_access_grants_started_idx" ON "emergency_access_grants" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "emergency_access_grants_awaiting_idx" ON "emergency_access_grants" USING btree ("started_at") WHERE "emergency_access_grants"."reviewed_at" IS NULL;
