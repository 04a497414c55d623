import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import Fastify, { type FastifyInstance } from 'fastify';
import { graphqlPlugin } from './graphql/plugin.ts';
import { registerHealthRoutes } from './http/health.ts';
import { registerJsonBodyParser } from './http/json-body.ts';
import { loggerOptions, registerReadableRequestLog } from './http/request-log.ts';
import { answerFrameworkError, registerErrorHandler } from './http/request-errors.ts';
import { registerMetrics } from './admin-console/metrics.ts';
import type { AppDependencies } from './modules/domain-module.ts';
import { serializeError } from './log-redaction.ts';
import { sameOriginPlugin } from './plugins/same-origin.ts';
import { sessionPlugin } from './plugins/session.ts';
import { scopePlugin } from './access/scope-plugin.ts';
import { websocketPlugin } from './plugins/websocket.ts';
import { registerWebApp } from './web/web-app.ts';

export type { AppDependencies };

/** Paths whose text must never reach a log line: request bodies and cookies carry health data and secrets. */
const REDACT = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'];

export interface BuildOptions {
  /** Where log lines go instead of standard output (tests read them from here). */
  logStream?: { write(line: string): void };
}

export async function buildApp(deps: AppDependencies, options: BuildOptions = {}): Promise<FastifyInstance> {
  const { config } = deps;
  // A test's log stream reads JSON lines, whatever the configured format.
  const logFormat = options.logStream ? 'json' : config.logFormat;
  const { stream: formatStream, ...formatOptions } = loggerOptions(logFormat);
  const app = Fastify({
    ...formatOptions,
    logger: {
      level: config.logLevel,
      ...(options.logStream ? { stream: options.logStream } : formatStream ? { stream: formatStream } : {}),
      redact: { paths: REDACT, censor: '[redacted]' },
      serializers: {
        err: serializeError,
        // Only the path: query strings could carry search terms (names) in later screens.
        req: (req: { method: string; url: string; id: string }) => ({
          method: req.method,
          path: req.url.split('?')[0],
          id: req.id,
        }),
      },
    },
    genReqId: () => crypto.randomUUID(),
    requestIdHeader: false,
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
    // A URL Fastify cannot decode (`/%zz`, `/%c0%ae`) is answered like every other refusal, not echoed.
    frameworkErrors: answerFrameworkError,
  });

  // Before any route: a bad request gets its 4xx and a clear message on every route, never a 500.
  registerErrorHandler(app);
  registerJsonBodyParser(app);
  registerReadableRequestLog(app, logFormat);
  // Request timings for every route registered after it, and GET /metrics (decision 038).
  registerMetrics(app, { config, db: deps.db, pool: deps.pool });

  app.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes its CSS variables in style elements.
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        mediaSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        ...(config.secureCookies ? { upgradeInsecureRequests: [] } : {}),
      },
    },
    hsts: config.secureCookies ? { maxAge: 31_536_000, includeSubDomains: true } : false,
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    crossOriginEmbedderPolicy: false,
  });
  await app.register(cookie);
  // Cross-cutting set-up before any route (decision 017): state-changing requests from our own origin only
  // (decision 018), WebSocket upgrades (origin check, sockets that close when their session ends), then the
  // session, resolved once per request for the routes that ask.
  await app.register(sameOriginPlugin, { publicUrl: config.publicUrl });
  await app.register(websocketPlugin, { config, sessions: deps.sessionLifetime, pool: deps.pool });
  await app.register(sessionPlugin, { sessions: deps.sessionLifetime });
  // The caller's scope, once per request, from that session (decision 054).
  await app.register(scopePlugin, { db: deps.db });

  // /api/health, and /api/health/live and /api/health/ready for load balancers (decision 072).
  registerHealthRoutes(app, deps);

  await app.register(graphqlPlugin, deps);
  // Each domain's routes (decision 053), in the modules' order.
  for (const module of deps.modules) await module.routes?.(app, deps);

  await registerWebApp(app, deps);
  return app;
}
