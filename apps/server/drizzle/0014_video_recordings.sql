CREATE TABLE "video_recording_chunks" (
	"recording_id" uuid NOT NULL,
	"seq" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "video_recording_chunks_recording_id_seq_pk" PRIMARY KEY("recording_id","seq")
);
--> statement-breakpoint
CREATE TABLE "video_recording_consents" (
	"recording_id" uuid NOT NULL,
	"peer_id" text NOT NULL,
	"user_id" uuid,
	"role" text NOT NULL,
	"decision" text NOT NULL,
	"notice_version" text NOT NULL,
	"asked_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided_at" timestamp with time zone,
	CONSTRAINT "video_recording_consents_recording_id_peer_id_pk" PRIMARY KEY("recording_id","peer_id"),
	CONSTRAINT "video_recording_consents_decision_check" CHECK ("video_recording_consents"."decision" in ('pending', 'yes', 'no'))
);
--> statement-breakpoint
CREATE TABLE "video_recording_segments" (
	"recording_id" uuid NOT NULL,
	"idx" integer NOT NULL,
	"data" "bytea" NOT NULL,
	CONSTRAINT "video_recording_segments_recording_id_idx_pk" PRIMARY KEY("recording_id","idx")
);
--> statement-breakpoint
CREATE TABLE "video_recordings" (
	"id" uuid PRIMARY KEY NOT NULL,
	"appointment_id" uuid NOT NULL,
	"requested_by" uuid NOT NULL,
	"status" text NOT NULL,
	"notice_version" text NOT NULL,
	"mime_type" text,
	"started_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	"duration_ms" integer,
	"size_bytes" bigint,
	"segment_bytes" integer,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_recordings_status_check" CHECK ("video_recordings"."status" in ('asking', 'recording', 'paused', 'stopped', 'refused', 'ready', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "video_recording_chunks" ADD CONSTRAINT "video_recording_chunks_recording_id_video_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."video_recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_recording_consents" ADD CONSTRAINT "video_recording_consents_recording_id_video_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."video_recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_recording_consents" ADD CONSTRAINT "video_recording_consents_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_recording_segments" ADD CONSTRAINT "video_recording_segments_recording_id_video_recordings_id_fk" FOREIGN KEY ("recording_id") REFERENCES "public"."video_recordings"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_recordings" ADD CONSTRAINT "video_recordings_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_recordings" ADD CONSTRAINT "video_recordings_requested_by_users_id_fk" FOREIGN KEY ("requested_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "video_recordings_appointment_idx" ON "video_recordings" USING btree ("appointment_id");