import fs from 'node:fs';
import path from 'node:path';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import { isDatabaseReachable } from './db/client.ts';
import type { Services } from './graphql/context.ts';
import type pg from 'pg';
import { graphqlPlugin } from './graphql/plugin.ts';
import { serializeError } from './log-redaction.ts';

export interface AppDependencies extends Services {
  pool: pg.Pool;
}

/** Paths whose text must never reach a log line: request bodies and cookies carry health data and secrets. */
const REDACT = ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'];

export async function buildApp(deps: AppDependencies): Promise<FastifyInstance> {
  const { config } = deps;
  const app = Fastify({
    logger: {
      level: config.logLevel,
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
    trustProxy: process.env.TRUST_PROXY === 'true',
    bodyLimit: 1_048_576,
  });

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

  app.get('/api/health', async (_request, reply) => {
    const database = await isDatabaseReachable(deps.pool);
    return reply
      .code(database ? 200 : 503)
      .header('cache-control', 'no-store')
      .send({
        status: database ? 'ok' : 'degraded',
        database: database ? 'ok' : 'unreachable',
        version: config.version,
      });
  });

  await app.register(graphqlPlugin, deps);

  await registerWebApp(app, config.webDistDir);
  return app;
}

/** Serves the built single-page app, with every unknown non-API path answered by index.html. */
async function registerWebApp(app: FastifyInstance, distDir: string): Promise<void> {
  const indexFile = path.join(distDir, 'index.html');
  const hasBuild = fs.existsSync(indexFile);
  if (hasBuild) {
    await app.register(fastifyStatic, {
      root: distDir,
      // Looked up at request time, so a rebuild is served without a restart; misses fall to the handler below.
      wildcard: true,
      index: false,
      // Our own Cache-Control below; the plugin's would answer max-age=0 for everything.
      cacheControl: false,
      // The build writes .br and .gz beside each text file (apps/web/scripts/precompress.ts).
      preCompressed: true,
      setHeaders: (res, file) => {
        // Hashed asset names never change content; index.html must always be fresh.
        res.setHeader(
          'cache-control',
          file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  const sendApp = async (_request: unknown, reply: FastifyReply) => {
    if (!hasBuild)
      return reply.code(503).type('text/plain').send('The web app is not built. Run `npm run build` first.');
    return reply.header('cache-control', 'no-cache').sendFile('index.html');
  };
  app.get('/', sendApp);
  app.setNotFoundHandler(async (request, reply) => {
    const isApi = request.url.startsWith('/api/') || request.url.startsWith('/graphql');
    // A missing script must not be answered with HTML: a browser with an old page would fail obscurely.
    const isAsset = request.url.startsWith('/assets/');
    if (isApi || isAsset || (request.method !== 'GET' && request.method !== 'HEAD')) {
      return reply.code(404).send({ error: 'Not Found' });
    }
    return sendApp(request, reply);
  });
}
