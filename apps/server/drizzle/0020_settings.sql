-- 0020_settings: the practice's settings (decision 032). One row per setting an administrator changed; a setting
-- without a row uses its default (the environment variable of the same meaning, else the built-in value).
CREATE TABLE "practice_settings" (
  "key" text PRIMARY KEY NOT NULL,
  "value" jsonb NOT NULL,
  "updated_by" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
