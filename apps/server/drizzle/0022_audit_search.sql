-- 0022_audit_search: reserved for issue 16 (the administrators' side); filled by its part.
SELECT 1;
