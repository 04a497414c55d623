import { defineConfig } from 'drizzle-kit';

export default defineConfig({
  dialect: 'postgresql',
  // Every table lives with its domain (`src/<domain>/<name>.table.ts`, decision 056): a new one is covered as it is.
  schema: './src/**/*.table.ts',
  out: './drizzle',
});
