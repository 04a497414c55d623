CREATE TABLE "video_guests" (
	"id" uuid PRIMARY KEY NOT NULL,
	"appointment_id" uuid NOT NULL,
	"invited_by" uuid NOT NULL,
	"name" text NOT NULL,
	"email" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "video_guests_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "video_guests_name_encrypted" CHECK ("video_guests"."name" IS NULL OR "video_guests"."name" LIKE 'enc:%'),
	CONSTRAINT "video_guests_email_encrypted" CHECK ("video_guests"."email" IS NULL OR "video_guests"."email" LIKE 'enc:%')
);
--> statement-breakpoint
ALTER TABLE "video_guests" ADD CONSTRAINT "video_guests_appointment_id_appointments_id_fk" FOREIGN KEY ("appointment_id") REFERENCES "public"."appointments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "video_guests" ADD CONSTRAINT "video_guests_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "video_guests_appointment_idx" ON "video_guests" USING btree ("appointment_id");