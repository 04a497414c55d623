import type pg from 'pg';
import { quoteIdent, type Manifest } from './backup-format.ts';

// The restore's work on the database beside the rows: what a failed restore undoes, what a restored one needs.

/** What the database held before a restore's migrations: what undoRestore must leave. */
export interface ObjectsBefore {
  schemas: Set<string>;
  extensions: Set<string>;
  /** Relations, functions and types of the schema public, by oid. */
  publicObjects: Set<string>;
}

export async function objectsBefore(client: pg.Client): Promise<ObjectsBefore> {
  const names = async (text: string) => new Set((await client.query<{ x: string }>(text)).rows.map((r) => r.x));
  return {
    schemas: await names('SELECT nspname::text AS x FROM pg_namespace'),
    extensions: await names('SELECT extname::text AS x FROM pg_extension'),
    publicObjects: await names(`SELECT oid::text AS x FROM pg_class WHERE relnamespace = 'public'::regnamespace
      UNION ALL SELECT oid::text FROM pg_proc WHERE pronamespace = 'public'::regnamespace
      UNION ALL SELECT oid::text FROM pg_type WHERE typnamespace = 'public'::regnamespace`),
  };
}

/**
 * Drops, in one transaction, what a failed restore created: the schemas (drizzle's record, the job queue), the
 * tables, functions and types in public, and the extensions the migrations installed.
 */
export async function undoRestore(client: pg.Client, before: ObjectsBefore): Promise<void> {
  const created = async (text: string) =>
    (await client.query<{ oid: string; name: string }>(text)).rows.filter((r) => !before.publicObjects.has(r.oid));
  await client.query('BEGIN');
  try {
    const schemas = await client.query<{ name: string }>('SELECT nspname::text AS name FROM pg_namespace');
    for (const { name } of schemas.rows) {
      if (!before.schemas.has(name)) await client.query(`DROP SCHEMA ${quoteIdent(name)} CASCADE`);
    }
    // Relations first (their triggers and indexes go with them), then the functions and types left.
    const relations = await created(`SELECT c.oid::text AS oid,
        CASE c.relkind WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END
          || format(' IF EXISTS %I.%I', 'public', c.relname) AS name
      FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f')
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid AND d.deptype = 'e')`);
    for (const { name } of relations) await client.query(`DROP ${name} CASCADE`);
    const sequences = await created(`SELECT c.oid::text AS oid, format('%I.%I', 'public', c.relname) AS name
      FROM pg_class c WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'S'`);
    for (const { name } of sequences) await client.query(`DROP SEQUENCE IF EXISTS ${name} CASCADE`);
    const functions = await created(`SELECT p.oid::text AS oid, p.oid::regprocedure::text AS name FROM pg_proc p
      WHERE p.pronamespace = 'public'::regnamespace
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')`);
    for (const { name } of functions) await client.query(`DROP FUNCTION IF EXISTS ${name} CASCADE`);
    const types = await created(`SELECT t.oid::text AS oid, format('%I.%I', 'public', t.typname) AS name FROM pg_type t
      WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('e', 'd', 'r') AND t.typrelid = 0
        AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_type'::regclass AND d.objid = t.oid AND d.deptype = 'e')`);
    for (const { name } of types) await client.query(`DROP TYPE IF EXISTS ${name} CASCADE`);
    const extensions = await client.query<{ name: string }>('SELECT extname::text AS name FROM pg_extension');
    for (const { name } of extensions.rows) {
      if (!before.extensions.has(name)) await client.query(`DROP EXTENSION IF EXISTS ${quoteIdent(name)} CASCADE`);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}

/**
 * What a restored database needs beyond its rows:
 * - the audit entries' transaction ids (decision 015) come from the old server, whose counter the new one does not
 *   share. They only order the chain, and no checksum covers them, so they are renumbered from 1 in the same
 *   order (a new number only where the entry id goes down), leaving them below the new server's counter: the
 *   sealer then seals what was not sealed yet, and new entries come after them.
 * - jobs locked by the old server's workers are released; the backup job that was running is dropped, and its
 *   run, recorded as running in the backup, is marked as interrupted.
 */
export async function afterRestore(client: pg.Client, manifest: Manifest): Promise<void> {
  const has = (schema: string, name: string) => manifest.tables.some((t) => t.schema === schema && t.name === name);
  if (has('public', 'audit_chain') && has('public', 'audit_entries')) {
    await client.query(`
      WITH ordered AS (
        SELECT position, entry_id, lag(entry_id) OVER (ORDER BY position) AS prev FROM audit_chain
      ), renumbered AS (
        SELECT position, 1 + count(*) FILTER (WHERE prev >= entry_id) OVER (ORDER BY position) AS x FROM ordered
      )
      UPDATE audit_chain c SET xact_id = r.x::text::xid8 FROM renumbered r WHERE c.position = r.position`);
    await client.query('UPDATE audit_entries e SET xact_id = c.xact_id FROM audit_chain c WHERE c.entry_id = e.id');
    await client.query(`
      WITH head AS (SELECT coalesce(max(xact_id::text::bigint), 0) AS x FROM audit_chain),
      unsealed AS (
        SELECT e.id, row_number() OVER (ORDER BY e.xact_id, e.id) AS n FROM audit_entries e
        WHERE NOT EXISTS (SELECT 1 FROM audit_chain c WHERE c.entry_id = e.id)
      )
      UPDATE audit_entries e SET xact_id = (head.x + u.n)::text::xid8 FROM unsealed u, head WHERE e.id = u.id`);
  }
  if (has('graphile_worker', '_private_jobs') && has('graphile_worker', '_private_tasks')) {
    await client.query(`DELETE FROM graphile_worker._private_jobs j USING graphile_worker._private_tasks t
      WHERE j.task_id = t.id AND t.identifier = 'backup:run'`);
    await client.query('UPDATE graphile_worker._private_jobs SET locked_at = NULL, locked_by = NULL');
    if (has('graphile_worker', '_private_job_queues')) {
      await client.query('UPDATE graphile_worker._private_job_queues SET locked_at = NULL, locked_by = NULL');
    }
  }
  if (has('public', 'backup_runs')) {
    await client.query(`UPDATE backup_runs SET status = 'failed', finished_at = now(),
      error = 'interrupted: it was running when the backup this database was restored from was taken'
      WHERE status = 'running'`);
  }
}

/** Lets the new server's transaction counter pass every restored audit transaction id (normally it already has). */
export async function advanceTransactionIds(client: pg.Client): Promise<void> {
  for (;;) {
    const state = await client.query<{ needed: string }>(
      `SELECT (coalesce((SELECT max(xact_id::text::bigint) FROM audit_entries), 0)
               - pg_current_xact_id()::text::bigint + 1)::text AS needed`,
    );
    const needed = Number(state.rows[0]?.needed ?? 0);
    if (needed <= 0) return;
    await client.query(
      `DO $$ BEGIN FOR i IN 1..${Math.min(needed, 100_000)} LOOP PERFORM pg_current_xact_id(); COMMIT; END LOOP; END $$`,
    );
  }
}
