import { Column, is, SQL, type DriverValueDecoder } from 'drizzle-orm';

type Decode = (value: unknown) => unknown;

/**
 * For a hot list: the rows of a statement run with `executor.execute` (keyed by their SQL names, with the driver
 * values Drizzle itself receives), mapped to what Drizzle's select of `selection` answers: the same keys in the
 * same order, each value through its column's own decoder (null stays null). Drizzle's mapper asks `is()` of every
 * field of every row; this looks at the selection once. `selection` holds columns and aliased SQL only, each named
 * as the statement names it (a column by its name, aliased SQL by its alias).
 */
export function rawRowMapper<T>(selection: Record<string, unknown>): (row: Record<string, unknown>) => T {
  const fields: { key: string; name: string; decode: Decode | null }[] = Object.entries(selection).map(
    ([key, field]) => {
      if (is(field, Column)) {
        // The base column answers the driver's value as it is: no call needed.
        const identity = field.mapFromDriverValue === Column.prototype.mapFromDriverValue;
        return { key, name: field.name, decode: identity ? null : (value) => field.mapFromDriverValue(value) };
      }
      if (is(field, SQL.Aliased)) {
        // The decoder `mapWith` set (Drizzle's own mapper reads the same field, which its types keep private).
        const decoder = (field.sql as unknown as { decoder: DriverValueDecoder<unknown, unknown> }).decoder;
        const identity = isNoop(decoder);
        return {
          key,
          name: field.fieldAlias,
          decode: identity ? null : (value) => decoder.mapFromDriverValue(value),
        };
      }
      throw new Error(`rawRowMapper: ${key} is neither a column nor aliased SQL`);
    },
  );
  return (row) => {
    const out: Record<string, unknown> = {};
    for (const { key, name, decode } of fields) {
      const value = row[name];
      out[key] = value === null ? null : decode ? decode(value) : value;
    }
    return out as T;
  };
}

/** Drizzle's default decoder for `sql` (it answers the value as it is). */
function isNoop(decoder: DriverValueDecoder<unknown, unknown>): boolean {
  const probe = {};
  return decoder.mapFromDriverValue(probe) === probe;
}
