import { timingSafeEqual, createHash } from 'node:crypto';
import { BlockList, isIP } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type pg from 'pg';
import { collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { ERROR_CODES } from '@telehealth/shared';
import { auditAnchorsPath } from '../audit/audit-anchors.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { RequestError } from '../errors.ts';
import { requestErrorBody } from '../http/request-errors.ts';
import { readUndeliveredMail } from './console-stats.repository.ts';
import { readJobQueueFigures, readSealerFigures } from './system-health.ts';

// GET /metrics in Prometheus's text format (decision 038), for the operator's monitoring: requests by route
// pattern (never a raw URL, which could hold an id), the pool, the job queue, the outbox, the audit sealer and
// the process. Closed unless the caller brings METRICS_TOKEN or comes from METRICS_ALLOW (loopback by default).

const PREFIX = 'telehealth_';

export interface MetricsDependencies {
  config: Config;
  db: Database;
  pool: pg.Pool;
}

/** Registers the request timing hook and GET /metrics. Call before the other routes. */
export function registerMetrics(app: FastifyInstance, deps: MetricsDependencies): Registry {
  const { config, db, pool } = deps;
  // A registry per app (tests build several in one process), never prom-client's global one.
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const requests = new Histogram({
    name: `${PREFIX}http_request_duration_seconds`,
    help: 'HTTP requests by method, route pattern and status code, and how long they took (its _count is the request rate).',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  app.addHook('onResponse', (request, reply, done) => {
    // The route's pattern (/api/calendar/:token.ics), or "unmatched" for a 404: a label never holds a raw URL.
    const route = request.routeOptions.url ?? 'unmatched';
    requests.observe(
      { method: request.method, route, status_code: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
    done();
  });

  new Gauge({
    name: `${PREFIX}db_pool_connections`,
    help: "The request pool's connections: total open, idle, and requests waiting for one.",
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.set({ state: 'total' }, pool.totalCount);
      this.set({ state: 'idle' }, pool.idleCount);
      this.set({ state: 'waiting' }, pool.waitingCount);
    },
  });
  const jobs = new Gauge({
    name: `${PREFIX}job_queue_jobs`,
    help: 'Jobs of the queue: pending (not the audit sealer), running, overdue, retrying after a failure, failed (given up).',
    labelNames: ['state'] as const,
    registers: [registry],
  });
  const mail = new Gauge({
    name: `${PREFIX}mail_undelivered`,
    help: 'Mails of the outbox not delivered: waiting, failed (given up), kept (no mail server).',
    labelNames: ['state'] as const,
    registers: [registry],
  });
  const sealerLag = new Gauge({
    name: `${PREFIX}audit_sealer_lag_seconds`,
    help: 'How long the oldest audit entry not yet sealed into the chain has waited (0 when none waits).',
    registers: [registry],
  });
  const unsealed = new Gauge({
    name: `${PREFIX}audit_unsealed_entries`,
    help: 'Audit entries not yet sealed into the chain (counted up to 10,000).',
    registers: [registry],
  });
  const head = new Gauge({
    name: `${PREFIX}audit_chain_head_position`,
    help: "The audit chain's newest sealed position.",
    registers: [registry],
  });
  const scrapeErrors = new Gauge({
    name: `${PREFIX}metrics_collect_errors`,
    help: 'Figures that could not be read at this scrape (the database, the queue or the sealer); see the log.',
    registers: [registry],
  });

  /** The figures that need the database, read once per scrape (three small statements). */
  async function refresh(request: FastifyRequest): Promise<void> {
    const [jobFigures, mailFigures, sealer] = await Promise.allSettled([
      readJobQueueFigures(db),
      readUndeliveredMail(db),
      readSealerFigures(db, auditAnchorsPath(config.dataDir)),
    ]);
    let errors = 0;
    if (jobFigures.status === 'fulfilled') {
      // The counts only: the newest given-up job is for the health screen.
      const { lastGivenUp: _lastGivenUp, ...counts } = jobFigures.value;
      for (const [state, value] of Object.entries(counts)) jobs.set({ state }, value);
    } else errors += 1;
    if (mailFigures.status === 'fulfilled') {
      const { waiting, failed, kept } = mailFigures.value;
      mail.set({ state: 'waiting' }, waiting);
      mail.set({ state: 'failed' }, failed);
      mail.set({ state: 'kept' }, kept);
    } else errors += 1;
    if (sealer.status === 'fulfilled') {
      sealerLag.set(sealer.value.lagSeconds);
      unsealed.set(sealer.value.unsealed);
      head.set(sealer.value.headPosition ?? 0);
    } else errors += 1;
    scrapeErrors.set(errors);
    if (errors > 0) request.log.warn({ errors }, 'metrics: some figures could not be read');
  }

  const allowed = allowList(config.metrics.allow);
  app.get('/metrics', async (request, reply) => {
    void reply.header('cache-control', 'no-store');
    const access = metricsAccess(request, config, allowed);
    if (access === 'unauthorized') {
      return reply
        .code(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send(requestErrorBody(new RequestError(401, ERROR_CODES.unauthenticated, 'metricsTokenRequired')));
    }
    if (access === 'forbidden') {
      return reply
        .code(403)
        .send(requestErrorBody(new RequestError(403, ERROR_CODES.forbidden, 'metricsAddressRefused')));
    }
    await refresh(request);
    return reply.type(registry.contentType).send(await registry.metrics());
  });
  return registry;
}

/**
 * Who may read the metrics: with a bearer token, only the right one (a wrong one is refused wherever it comes
 * from); without one, a client address in METRICS_ALLOW. A request that a proxy forwarded (X-Forwarded-For or
 * Forwarded) while TRUST_PROXY is off is never allowed by address: its address is the proxy's, perhaps this
 * machine's, not the client's.
 */
export function metricsAccess(
  request: Pick<FastifyRequest, 'headers' | 'ip'>,
  config: Pick<Config, 'metrics' | 'trustProxy'>,
  allowed: BlockList,
): 'ok' | 'unauthorized' | 'forbidden' {
  const authorization = request.headers.authorization;
  if (authorization !== undefined && config.metrics.token) {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    return match?.[1] && sameSecret(match[1], config.metrics.token) ? 'ok' : 'unauthorized';
  }
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  if (!(forwarded && config.trustProxy === false) && addressAllowed(allowed, request.ip)) return 'ok';
  return config.metrics.token ? 'unauthorized' : 'forbidden';
}

function sameSecret(given: string, expected: string): boolean {
  // Hashes of equal length, so the comparison takes the same time whatever the length of the guess.
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/** METRICS_ALLOW as a block list: `loopback` is 127.0.0.0/8 and ::1; other entries are addresses or ranges. */
export function allowList(entries: readonly string[]): BlockList {
  const list = new BlockList();
  for (const entry of entries) {
    if (entry === 'loopback') {
      list.addSubnet('127.0.0.0', 8, 'ipv4');
      list.addAddress('::1', 'ipv6');
      continue;
    }
    const [address = '', prefix] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (prefix === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(prefix), type);
  }
  return list;
}

function addressAllowed(list: BlockList, ip: string): boolean {
  // An IPv4 client of a dual-stack socket arrives as ::ffff:a.b.c.d.
  const address = ip.startsWith('::ffff:') && isIP(ip.slice(7)) === 4 ? ip.slice(7) : ip;
  const version = isIP(address);
  if (version === 0) return false;
  return list.check(address, version === 6 ? 'ipv6' : 'ipv4');
}
