import type { FastifyInstance } from 'fastify';
import type pg from 'pg';
import { ERROR_CODES } from '@telehealth/shared';
import { checkDatabaseReadiness, isDatabaseReachable } from '../db/client.ts';
import { RequestError } from '../errors.ts';
import { requestErrorBody } from './request-errors.ts';
import type { Config } from '../config.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Whether this instance should be sent traffic: `startDraining()` on SIGTERM (decision 072). */
    readiness: Readiness;
  }
}

/** This instance's part of readiness: draining from SIGTERM until it stops. The database is asked per check. */
export class Readiness {
  #draining = false;

  get draining(): boolean {
    return this.#draining;
  }

  /** From now on `/api/health/ready` answers 503, while every request is still served. Never undone. */
  startDraining(): void {
    this.#draining = true;
  }
}

/**
 * The health routes, without a session, never cached:
 * - `/api/health` (as before, for people and tests): the database reachable, and the version;
 * - `/api/health/live` (the process answers: restart it if not) touches nothing;
 * - `/api/health/ready` (send it traffic): not draining, then one round trip that reads the latest migration
 *   applied, which must be this version's latest; 503 with `NOT_READY` and the reason's message otherwise.
 * A load balancer checks `ready` (deploy/haproxy/haproxy.cfg); an orchestrator restarts on `live`.
 */
export function registerHealthRoutes(app: FastifyInstance, deps: { config: Config; pool: pg.Pool }): void {
  const readiness = new Readiness();
  app.decorate('readiness', readiness);

  app.get('/api/health', async (_request, reply) => {
    const database = await isDatabaseReachable(deps.pool);
    return reply
      .code(database ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({
        status: database ? 'ok' : 'degraded',
        database: database ? 'ok' : 'unreachable',
        version: deps.config.version,
      });
  });

  // Asked every second or so by each balancer: their answers are not logged at `info` (a 5xx still is).
  const quiet = { logLevel: 'warn' } as const;

  app.get('/api/health/live', quiet, async (_request, reply) =>
    reply.header('cache-control', 'no-store').send({ status: 'live' }),
  );

  app.get('/api/health/ready', quiet, async (_request, reply) => {
    void reply.header('cache-control', 'no-store');
    // Draining first, without touching the database: a stopping instance may have a busy pool.
    const problem = readiness.draining ? 'notReadyDraining' : await databaseProblem(deps.pool);
    if (problem) {
      return reply.code(503).send(requestErrorBody(new RequestError(503, ERROR_CODES.notReady, problem)));
    }
    return reply.send({ status: 'ready' });
  });
}

async function databaseProblem(pool: pg.Pool): Promise<'notReadyDatabase' | 'notReadyMigrations' | null> {
  switch (await checkDatabaseReadiness(pool)) {
    case 'ok':
      return null;
    case 'unreachable':
      return 'notReadyDatabase';
    case 'migrations-missing':
      return 'notReadyMigrations';
  }
}
