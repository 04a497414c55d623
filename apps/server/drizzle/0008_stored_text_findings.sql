CREATE TABLE "stored_text_findings" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"table_name" text NOT NULL,
	"record_id" uuid NOT NULL,
	"field" text NOT NULL,
	"problem" text NOT NULL,
	"original_value" text NOT NULL,
	"rule_version" integer NOT NULL,
	"found_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"resolved_by" uuid,
	CONSTRAINT "stored_text_findings_problem_check" CHECK ("stored_text_findings"."problem" in ('invalidCharacters', 'markup')),
	CONSTRAINT "stored_text_findings_original_value_encrypted" CHECK ("stored_text_findings"."original_value" IS NULL OR "stored_text_findings"."original_value" LIKE 'enc:%')
);
--> statement-breakpoint
CREATE TABLE "text_rule_reviews" (
	"rule_version" integer PRIMARY KEY NOT NULL,
	"reviewed_at" timestamp with time zone DEFAULT now() NOT NULL,
	"findings" integer NOT NULL
);
--> statement-breakpoint
ALTER TABLE "stored_text_findings" ADD CONSTRAINT "stored_text_findings_resolved_by_users_id_fk" FOREIGN KEY ("resolved_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "stored_text_findings_order_idx" ON "stored_text_findings" USING btree ("found_at" DESC NULLS LAST,"id" DESC NULLS LAST);