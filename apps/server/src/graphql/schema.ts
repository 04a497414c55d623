import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { builder } from './builder.ts';

/*
 * Each domain keeps its GraphQL types and operations beside its services, in `src/<domain>/*.graphql.ts`
 * (decision 053): each file adds them to the one builder when imported. They are found here rather than listed,
 * so a new domain's file is part of the schema without editing this one. Sorted, for a stable schema.
 */
const SRC = path.resolve(import.meta.dirname, '..');
const graphqlFiles = fs
  .readdirSync(SRC, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .flatMap((dir) =>
    fs
      .readdirSync(path.join(SRC, dir.name))
      .filter((file) => file.endsWith('.graphql.ts'))
      .map((file) => path.join(SRC, dir.name, file)),
  )
  .sort();
for (const file of graphqlFiles) await import(pathToFileURL(file).href);

export { PUBLIC_ROOT_FIELDS } from '../auth/auth.graphql.ts';
export const schema = builder.toSchema();
