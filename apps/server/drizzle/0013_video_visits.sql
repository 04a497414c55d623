CREATE TABLE "video_participants" (
	"id" uuid PRIMARY KEY NOT NULL,
	"appointment_id" uuid NOT NULL,
	"peer_id" text NOT NULL,
	"user_id" uuid,
	"role" text NOT NULL,
	"display_name" text NOT NULL,
	"presence" text NOT NULL,
	"connection_id" uuid,
	"page_id" text,
	"joined_at" timestamp with time zone DEFAULT now() NOT NULL,
	"admitted_at" timestamp with time zone,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "video_participants_display_name_encrypted" CHECK ("video_participants"."display_name" IS NULL OR "video_participants"."display_name" LIKE 'enc:%'),
	CONSTRAINT "video_participants_role_check" CHECK ("video_participants"."role" in ('provider', 'patient', 'guest')),
	CONSTRAINT "video_participants_presence_check" CHECK ("video_participants"."presence" in ('waiting', 'admitted'))
);
--> statement-breakpoint
CREATE TABLE "video_signals" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"connection_id" uuid NOT NULL,
	"message" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "video_participants" ADD CONSTRAINT "video_participants_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_participants" ADD CONSTRAINT "video_participants_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "video_participants_peer_idx" ON "video_participants" USING btree ("appointment_id","peer_id");--> statement-breakpoint
CREATE UNIQUE INDEX "video_participants_connection_idx" ON "video_participants" USING btree ("connection_id");--> statement-breakpoint
CREATE INDEX "video_signals_created_idx" ON "video_signals" USING btree ("created_at");