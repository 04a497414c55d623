-- 0028_text_rule_url_schemes: the text rule's second version (issue 24, point 3; decision 022) refuses a one-line
-- field that starts with a link such as javascript:, and the stored-text review records such values as findings.
ALTER TABLE "stored_text_findings" DROP CONSTRAINT "stored_text_findings_problem_check";
--> statement-breakpoint
ALTER TABLE "stored_text_findings" ADD CONSTRAINT "stored_text_findings_problem_check" CHECK ("problem" in ('invalidCharacters', 'markup', 'urlScheme'));
