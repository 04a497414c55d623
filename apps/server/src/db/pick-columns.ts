/**
 * The columns of a selection named in `keys` (all of them without): a list reads only what its reader shows.
 * The rows are then partial; the caller adds the keys it always needs (the id, the cursor's).
 */
export function pickColumns<C extends Record<string, unknown>>(
  all: C,
  keys: ReadonlySet<string> | null | undefined,
): C {
  if (!keys) return all;
  return Object.fromEntries(Object.entries(all).filter(([key]) => keys.has(key))) as C;
}
