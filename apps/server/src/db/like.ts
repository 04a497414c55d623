/**
 * `text` as a LIKE / ILIKE pattern that finds it anywhere in a value: its `%`, `_` and `\` match themselves
 * (backslash is PostgreSQL's default escape character), so a search for "50%" is not a search for "50".
 */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
