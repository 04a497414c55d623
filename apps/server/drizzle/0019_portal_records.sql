-- 0019_portal_records: reserved for issue 15 (the patient portal and secure messages); filled by its part.
SELECT 1;
