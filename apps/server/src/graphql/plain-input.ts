/**
 * A GraphQL input object as the shared zod schemas receive it: GraphQL hands absent fields as missing keys and
 * explicit nulls as null, and both reach the schemas as they are, in a plain JSON object.
 */
export function plainInput(input: object): Record<string, unknown> {
  return JSON.parse(JSON.stringify(input)) as Record<string, unknown>;
}
