-- 0032_idempotency_keys: retried writes answer the first result (issue 24, point 12; decision 044).
--
-- One row per Idempotency-Key an account used on a create mutation, written in the same transaction as what it
-- created: the operation, an HMAC of its input, and the created record's id (re-read on a retry through the
-- normal, authorised and audited path). Deleted after 24 hours by the idempotency-keys:prune job.
CREATE TABLE "idempotency_keys" (
	"account_id" uuid NOT NULL,
	"key" text NOT NULL,
	"operation" text NOT NULL,
	"input_hash" text NOT NULL,
	"result_id" uuid NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "idempotency_keys_account_id_key_pk" PRIMARY KEY("account_id","key"),
	CONSTRAINT "idempotency_keys_key_length_check" CHECK (length("key") BETWEEN 1 AND 255)
);
--> statement-breakpoint
ALTER TABLE "idempotency_keys" ADD CONSTRAINT "idempotency_keys_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "idempotency_keys_created_at_idx" ON "idempotency_keys" USING btree ("created_at");
