CREATE TABLE "practice_document_signatures" (
	"id" uuid PRIMARY KEY NOT NULL,
	"document_id" uuid NOT NULL,
	"version_id" uuid NOT NULL,
	"text_hash" text NOT NULL,
	"patient_id" uuid NOT NULL,
	"method" text NOT NULL,
	"signed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"typed_name" text,
	"client_address" text,
	"user_agent" text,
	"account_id" uuid,
	"paper_signed_on" date,
	"recorded_by" uuid,
	CONSTRAINT "practice_document_signatures_method_check" CHECK ("practice_document_signatures"."method" in ('electronic', 'paper')),
	CONSTRAINT "practice_document_signatures_facts_check" CHECK (("practice_document_signatures"."method" = 'electronic' AND "practice_document_signatures"."typed_name" IS NOT NULL AND "practice_document_signatures"."account_id" IS NOT NULL)
        OR ("practice_document_signatures"."method" = 'paper' AND "practice_document_signatures"."paper_signed_on" IS NOT NULL AND "practice_document_signatures"."recorded_by" IS NOT NULL)),
	CONSTRAINT "practice_document_signatures_typed_name_encrypted" CHECK ("practice_document_signatures"."typed_name" IS NULL OR "practice_document_signatures"."typed_name" LIKE 'enc:%'),
	CONSTRAINT "practice_document_signatures_client_address_encrypted" CHECK ("practice_document_signatures"."client_address" IS NULL OR "practice_document_signatures"."client_address" LIKE 'enc:%'),
	CONSTRAINT "practice_document_signatures_user_agent_encrypted" CHECK ("practice_document_signatures"."user_agent" IS NULL OR "practice_document_signatures"."user_agent" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "practice_document_versions" (
	"id" uuid PRIMARY KEY NOT NULL,
	"document_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"title_en" text NOT NULL,
	"title_es" text,
	"body_en" text NOT NULL,
	"body_es" text,
	"text_hash" text NOT NULL,
	"resign_required" boolean NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "practice_document_versions_hash_check" CHECK ("practice_document_versions"."text_hash" ~ '^[0-9a-f]{64}$'),
	CONSTRAINT "practice_document_versions_title_en_encrypted" CHECK ("practice_document_versions"."title_en" IS NULL OR "practice_document_versions"."title_en" LIKE 'enc:%'),
	CONSTRAINT "practice_document_versions_title_es_encrypted" CHECK ("practice_document_versions"."title_es" IS NULL OR "practice_document_versions"."title_es" LIKE 'enc:%'),
	CONSTRAINT "practice_document_versions_body_en_encrypted" CHECK ("practice_document_versions"."body_en" IS NULL OR "practice_document_versions"."body_en" LIKE 'enc:%'),
	CONSTRAINT "practice_document_versions_body_es_encrypted" CHECK ("practice_document_versions"."body_es" IS NULL OR "practice_document_versions"."body_es" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "practice_documents" (
	"id" uuid PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"requires_signature" boolean NOT NULL,
	"active" boolean NOT NULL,
	"created_by" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "practice_documents_kind_check" CHECK ("practice_documents"."kind" in ('telehealth-consent', 'privacy-notice', 'financial-policy', 'cancellation-policy', 'custom'))
);
--> statement-breakpoint
ALTER TABLE "practice_document_signatures" ADD CONSTRAINT "practice_document_signatures_document_id_practice_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."practice_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_document_signatures" ADD CONSTRAINT "practice_document_signatures_version_id_practice_document_versions_id_fk" FOREIGN KEY ("version_id") REFERENCES "public"."practice_document_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_document_signatures" ADD CONSTRAINT "practice_document_signatures_patient_id_patients_id_fk" FOREIGN KEY ("patient_id") REFERENCES "public"."patients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_document_signatures" ADD CONSTRAINT "practice_document_signatures_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_document_signatures" ADD CONSTRAINT "practice_document_signatures_recorded_by_users_id_fk" FOREIGN KEY ("recorded_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_document_versions" ADD CONSTRAINT "practice_document_versions_document_id_practice_documents_id_fk" FOREIGN KEY ("document_id") REFERENCES "public"."practice_documents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_document_versions" ADD CONSTRAINT "practice_document_versions_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "practice_documents" ADD CONSTRAINT "practice_documents_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "practice_document_signatures_patient_idx" ON "practice_document_signatures" USING btree ("patient_id","document_id");--> statement-breakpoint
CREATE UNIQUE INDEX "practice_document_versions_version_idx" ON "practice_document_versions" USING btree ("document_id","version");--> statement-breakpoint
CREATE UNIQUE INDEX "practice_documents_kind_idx" ON "practice_documents" USING btree ("kind") WHERE "practice_documents"."kind" <> 'custom';