-- Data keys (decision 016): the clinical free text and the stored access-request forms hold only encrypted
-- values ('enc:v1:<key id>:<iv>:<ciphertext>'). The form was jsonb; its JSON text is now encrypted as a whole.
ALTER TABLE "access_requests" ALTER COLUMN "form" SET DATA TYPE text USING "form"::text;--> statement-breakpoint
-- NOT VALID: from now on no write may put plain text in these columns, while rows written before this migration
-- are still plain text. The server encrypts those at start, in batches, under the migration lock
-- (keys/encrypt-at-start.ts), then validates each constraint; a validated constraint means no plain text is left.
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_form_encrypted" CHECK ("access_requests"."form" IS NULL OR "access_requests"."form" LIKE 'enc:%') NOT VALID;--> statement-breakpoint
ALTER TABLE "access_requests" ADD CONSTRAINT "access_requests_decline_reason_encrypted" CHECK ("access_requests"."decline_reason" IS NULL OR "access_requests"."decline_reason" LIKE 'enc:%') NOT VALID;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_reason_for_care_encrypted" CHECK ("patients"."reason_for_care" IS NULL OR "patients"."reason_for_care" LIKE 'enc:%') NOT VALID;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_allergies_encrypted" CHECK ("patients"."allergies" IS NULL OR "patients"."allergies" LIKE 'enc:%') NOT VALID;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_current_medications_encrypted" CHECK ("patients"."current_medications" IS NULL OR "patients"."current_medications" LIKE 'enc:%') NOT VALID;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_medical_history_encrypted" CHECK ("patients"."medical_history" IS NULL OR "patients"."medical_history" LIKE 'enc:%') NOT VALID;--> statement-breakpoint
ALTER TABLE "patients" ADD CONSTRAINT "patients_insurance_policy_number_encrypted" CHECK ("patients"."insurance_policy_number" IS NULL OR "patients"."insurance_policy_number" LIKE 'enc:%') NOT VALID;
