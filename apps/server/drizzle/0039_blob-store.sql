ALTER TABLE "intake_card_photos" ALTER COLUMN "data" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "message_attachments" ALTER COLUMN "data" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "intake_card_photos" ADD COLUMN "blob_key" text;--> statement-breakpoint
ALTER TABLE "intake_card_photos" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "intake_card_photos" ADD COLUMN "wrapped_key" "bytea";--> statement-breakpoint
ALTER TABLE "message_attachments" ADD COLUMN "blob_key" text;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD COLUMN "wrapped_key" "bytea";--> statement-breakpoint
ALTER TABLE "intake_card_photos" ADD CONSTRAINT "intake_card_photos_file_check" CHECK ("intake_card_photos"."data" IS NOT NULL OR ("intake_card_photos"."blob_key" IS NOT NULL AND "intake_card_photos"."key_id" IS NOT NULL AND "intake_card_photos"."wrapped_key" IS NOT NULL));--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_file_check" CHECK ("message_attachments"."data" IS NOT NULL OR ("message_attachments"."blob_key" IS NOT NULL AND "message_attachments"."key_id" IS NOT NULL AND "message_attachments"."wrapped_key" IS NOT NULL));