import { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import pretty from 'pino-pretty';

/**
 * How the server's log reads (decision 051). JSON lines, one object per event, are for a log collector
 * (production). A person watching `npm start` reads one short line per request instead:
 *
 *     [16:42:07] INFO: POST /graphql getPatients 200 12 ms
 *
 * Both carry the same redacted facts: the path without its query string, never a body or a cookie.
 */
export type LogFormat = 'pretty' | 'json';

/**
 * Logger options for the chosen format: JSON goes to standard output as pino writes it; the readable lines to
 * `destination` (standard output unless a test reads them).
 */
export function loggerOptions(
  format: LogFormat,
  destination?: NodeJS.WritableStream,
): Pick<FastifyServerOptions, 'logController'> & { stream?: NodeJS.WritableStream } {
  if (format === 'json') return {};
  return {
    // pino-pretty in the server's own thread (no worker): the lines stay in order with console output.
    stream: pretty({
      colorize: process.stdout.isTTY === true,
      translateTime: 'SYS:HH:MM:ss',
      ignore: 'pid,hostname,reqId,req,res,responseTime',
      singleLine: true,
      sync: true,
      ...(destination ? { destination, colorize: false } : {}),
    }),
    // Fastify's own pair of lines per request ("incoming request", "request completed") gives way to one.
    logController: new LogController({ disableRequestLogging: true }),
  };
}

/** In the readable format, one line per answered request: method, path, status and time taken. */
export function registerReadableRequestLog(app: FastifyInstance, format: LogFormat): void {
  if (format !== 'pretty') return;
  app.addHook('onResponse', (request, reply, done) => {
    const path = request.url.split('?')[0] ?? '';
    const operation = operationName(request.body);
    const what = operation ? `${path} ${operation}` : path;
    const line = `${request.method} ${what} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`;
    if (reply.statusCode >= 500) request.log.error(line);
    else request.log.info(line);
    done();
  });
}

/** A GraphQL request's operation name (the specification's names, never data), when it is a plain name. */
function operationName(body: unknown): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const name = (body as { operationName?: unknown }).operationName;
  return typeof name === 'string' && /^[A-Za-z_]\w{0,63}$/.test(name) ? name : undefined;
}
