import { fillPlaceholders, type SQL } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import pg from 'pg';
import type { Database } from './client.ts';

/** Values as Drizzle hands them over: timestamps, dates and intervals as PostgreSQL wrote them. */
const AS_WRITTEN = new Set<number>([
  pg.types.builtins.TIMESTAMPTZ,
  pg.types.builtins.TIMESTAMP,
  pg.types.builtins.DATE,
  pg.types.builtins.INTERVAL,
  1115,
  1182,
  1185,
  1187,
  1231,
]);
const types: pg.CustomTypesConfig = {
  getTypeParser: ((id: number, format?: 'text' | 'binary') =>
    AS_WRITTEN.has(id)
      ? (value: string) => value
      : (pg.types.getTypeParser(id, format) as (value: string) => unknown)) as pg.CustomTypesConfig['getTypeParser'],
};

/**
 * A statement run on every request (the session's), as a named prepared statement: each pooled connection parses
 * and plans it once, then only binds and executes it. Written with Drizzle's `sql` and `sql.placeholder(name)` for
 * its values; its rows are what `db.execute` would answer for the same statement (the same text and values, the
 * same type parsing). Needs the database handle of `connectDatabase` (a pool, or one client).
 */
export class NamedStatement<Row> {
  readonly name: string;
  readonly text: string;
  readonly #params: unknown[];

  constructor(name: string, statement: SQL) {
    const { sql, params } = new PgDialect().sqlToQuery(statement);
    this.name = name;
    this.text = sql;
    this.#params = params;
  }

  async run(db: Database, values: Record<string, unknown>): Promise<Row[]> {
    const client = (db as Database & { $client?: pg.Pool | pg.ClientBase }).$client;
    if (!client || typeof client.query !== 'function') {
      throw new Error(`${this.name}: a named statement needs the database handle of connectDatabase`);
    }
    const result = await client.query<Row & pg.QueryResultRow>({
      name: this.name,
      text: this.text,
      values: fillPlaceholders(this.#params, values),
      types,
    });
    return result.rows;
  }
}
