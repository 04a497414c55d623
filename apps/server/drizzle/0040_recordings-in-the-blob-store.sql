ALTER TABLE "video_recording_chunks" ALTER COLUMN "data" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "video_recording_chunks" ADD COLUMN "blob_key" text;--> statement-breakpoint
ALTER TABLE "video_recording_chunks" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "video_recording_chunks" ADD COLUMN "wrapped_key" "bytea";--> statement-breakpoint
ALTER TABLE "video_recording_chunks" ADD COLUMN "plain_bytes" integer;--> statement-breakpoint
ALTER TABLE "video_recordings" ADD COLUMN "blob_key" text;--> statement-breakpoint
ALTER TABLE "video_recordings" ADD COLUMN "key_id" text;--> statement-breakpoint
ALTER TABLE "video_recordings" ADD COLUMN "wrapped_key" "bytea";--> statement-breakpoint
ALTER TABLE "video_recording_chunks" ADD CONSTRAINT "video_recording_chunks_file_check" CHECK ("video_recording_chunks"."data" IS NOT NULL OR ("video_recording_chunks"."blob_key" IS NOT NULL AND "video_recording_chunks"."key_id" IS NOT NULL AND "video_recording_chunks"."wrapped_key" IS NOT NULL));