import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Domain tables kept beside their domain (`*.table.ts`) are part of the schema too.
  schema: ['./src/db/schema.ts', './src/*/*.table.ts'],
  out: './drizzle',
});
