-- 0017_messages: secure messages (issue 15, decision 029).
CREATE TABLE "conversations" (
	"id" uuid PRIMARY KEY NOT NULL,
	"patient_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"subject" text NOT NULL,
	"created_by" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_message_at" timestamp with time zone DEFAULT now() NOT NULL,
	"patient_read_at" timestamp with time zone,
	"practice_read_at" timestamp with time zone,
	"patient_notified_at" timestamp with time zone,
	"practice_notified_at" timestamp with time zone,
	"search_tokens" text[] DEFAULT '{}'::text[] NOT NULL,
	"search_key_id" text NOT NULL,
	CONSTRAINT "conversations_kind_check" CHECK ("conversations"."kind" in ('clinical', 'office')),
	CONSTRAINT "conversations_subject_encrypted" CHECK ("conversations"."subject" IS NULL OR "conversations"."subject" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "messages" (
	"id" uuid PRIMARY KEY NOT NULL,
	"conversation_id" uuid NOT NULL,
	"sender_id" uuid NOT NULL,
	"sender_side" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"read_at" timestamp with time zone,
	"read_by" uuid,
	"search_tokens" text[] DEFAULT '{}'::text[] NOT NULL,
	"search_key_id" text NOT NULL,
	CONSTRAINT "messages_sender_side_check" CHECK ("messages"."sender_side" in ('patient', 'practice')),
	CONSTRAINT "messages_read_check" CHECK (("messages"."read_at" IS NULL) = ("messages"."read_by" IS NULL)),
	CONSTRAINT "messages_body_encrypted" CHECK ("messages"."body" IS NULL OR "messages"."body" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "message_attachments" (
	"id" uuid PRIMARY KEY NOT NULL,
	"uploaded_by" uuid NOT NULL,
	"message_id" uuid,
	"file_name" text NOT NULL,
	"media_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"data" bytea NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_attachments_media_type_check" CHECK ("message_attachments"."media_type" in ('application/pdf', 'image/png', 'image/jpeg')),
	CONSTRAINT "message_attachments_file_name_encrypted" CHECK ("message_attachments"."file_name" IS NULL OR "message_attachments"."file_name" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "conversation_archives" (
	"conversation_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"archived_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "conversation_archives_conversation_id_user_id_pk" PRIMARY KEY("conversation_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_read_by_users_id_fk" FOREIGN KEY ("read_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_uploaded_by_users_id_fk" FOREIGN KEY ("uploaded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "message_attachments" ADD CONSTRAINT "message_attachments_message_id_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."messages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_archives" ADD CONSTRAINT "conversation_archives_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_archives" ADD CONSTRAINT "conversation_archives_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_patient_idx" ON "conversations" USING btree ("patient_id","last_message_at","id");--> statement-breakpoint
CREATE INDEX "conversations_kind_idx" ON "conversations" USING btree ("kind","last_message_at","id");--> statement-breakpoint
CREATE INDEX "conversations_search_tokens_idx" ON "conversations" USING gin ("search_tokens");--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "messages" USING btree ("conversation_id","created_at");--> statement-breakpoint
CREATE INDEX "messages_unread_idx" ON "messages" USING btree ("conversation_id","sender_side") WHERE "messages"."read_at" IS NULL;--> statement-breakpoint
CREATE INDEX "messages_search_tokens_idx" ON "messages" USING gin ("search_tokens");--> statement-breakpoint
CREATE INDEX "message_attachments_message_idx" ON "message_attachments" USING btree ("message_id");--> statement-breakpoint
CREATE INDEX "message_attachments_pending_idx" ON "message_attachments" USING btree ("uploaded_by","created_at") WHERE "message_attachments"."message_id" IS NULL;
