const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Whether a value is a UUID, the form of every record id: a service checks an id from the caller before it
 * queries (PostgreSQL would refuse anything else in a uuid column with an error rather than "not found").
 */
export function isUuid(value: string): boolean {
  return UUID.test(value);
}
