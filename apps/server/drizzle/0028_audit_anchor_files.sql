-- 0027_audit_anchor_files: where the audit chain was anchored (issue 24, point 14; decision 015).
--
-- One row per anchors file a server wrote to (its absolute path and host), with its newest anchor. It is not
-- evidence (the anchors file is): it lets npm run audit:verify tell "never anchored yet" from "anchored, but the
-- anchors file is not where I looked", and say where the server wrote it.
CREATE TABLE "audit_anchor_files" (
	"file" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"position" bigint NOT NULL,
	"anchored_at" timestamp with time zone NOT NULL,
	"first_anchored_at" timestamp with time zone DEFAULT now() NOT NULL
);
