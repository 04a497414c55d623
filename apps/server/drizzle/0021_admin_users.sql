-- 0021_admin_users: reserved for issue 16 (the administrators' side); filled by its part.
SELECT 1;
