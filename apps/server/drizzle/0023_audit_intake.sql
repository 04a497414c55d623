-- 0023_audit_intake: reserved for issue 16 (the administrators' side); filled by its part.
SELECT 1;
