-- 0017_messages: reserved for issue 15 (the patient portal and secure messages); filled by its part.
SELECT 1;
