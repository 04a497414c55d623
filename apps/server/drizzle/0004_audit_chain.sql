-- The audit chain without a global lock (decision 015). Audited transactions insert their entries without a
-- checksum, stamped with their transaction id; one sealer links committed entries into audit_chain afterwards.
--
-- The entries chained so far (0 as their transaction: older than any real one) keep their checksums: they
-- become the first positions of the chain, in id order, which is the order they were chained in.
ALTER TABLE "audit_entries" ADD COLUMN "xact_id" xid8 DEFAULT '0' NOT NULL;
--> statement-breakpoint
ALTER TABLE "audit_entries" ALTER COLUMN "xact_id" SET DEFAULT pg_current_xact_id();
--> statement-breakpoint
CREATE TABLE "audit_chain" (
	"position" bigint PRIMARY KEY NOT NULL,
	"entry_id" bigint NOT NULL,
	"xact_id" xid8 NOT NULL,
	"prev_checksum" text NOT NULL,
	"checksum" text NOT NULL,
	"sealed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "audit_chain_entry_id_unique" UNIQUE("entry_id")
);
--> statement-breakpoint
INSERT INTO "audit_chain" ("position", "entry_id", "xact_id", "prev_checksum", "checksum")
SELECT row_number() OVER (ORDER BY "id"), "id", '0', "prev_checksum", "checksum" FROM "audit_entries";
--> statement-breakpoint
ALTER TABLE "audit_entries" DROP COLUMN "prev_checksum", DROP COLUMN "checksum";
--> statement-breakpoint
-- The sealer's walk: unsealed entries in seal order, after where it stopped.
CREATE INDEX "audit_entries_seal_order_idx" ON "audit_entries" USING btree ("xact_id", "id");
--> statement-breakpoint
-- The transaction id is the database's, never the inserter's: an entry stamped with an older transaction
-- than the chain has passed could never be sealed.
CREATE FUNCTION audit_entries_stamp_transaction() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  NEW.xact_id := pg_current_xact_id();
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_entries_stamp_transaction
  BEFORE INSERT ON "audit_entries"
  FOR EACH ROW EXECUTE FUNCTION audit_entries_stamp_transaction();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION audit_entries_refuse_change() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '% is append-only: % is not allowed', TG_TABLE_NAME, TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;
--> statement-breakpoint
-- The chain is append-only like the entries: a position, once sealed, is never changed or removed.
CREATE TRIGGER audit_chain_no_update_delete
  BEFORE UPDATE OR DELETE ON "audit_chain"
  FOR EACH ROW EXECUTE FUNCTION audit_entries_refuse_change();
--> statement-breakpoint
CREATE TRIGGER audit_chain_no_truncate
  BEFORE TRUNCATE ON "audit_chain"
  FOR EACH STATEMENT EXECUTE FUNCTION audit_entries_refuse_change();
