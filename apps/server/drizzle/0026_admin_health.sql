-- 0026_admin_health: reserved for issue 16 (the administrators' side); filled by its part.
SELECT 1;
