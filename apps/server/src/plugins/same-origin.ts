import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { safeParse as parseContentType } from 'fast-content-type-parse';
import fp from 'fastify-plugin';
import { ERROR_CODES } from '@telehealth/shared';
import { RequestError } from '../errors.ts';
import { logRefusal, requestErrorBody } from '../http/request-errors.ts';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * An upload route's accepted `Content-Type`s (media types, lower case): any other is refused with 415 before
     * the body is read.
     */
    uploadTypes?: readonly string[];
  }
}

/** Methods that change nothing: served to any origin (a link, a bookmark, an image of another site). */
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Which origin a request comes from, as the browser says it: `Origin` when present (browsers send it on every
 * request but GET and HEAD), else `Sec-Fetch-Site`. Answers whether a state-changing request may be served.
 *
 * - `Origin` must be exactly PUBLIC_URL's origin (`null`, from a sandboxed frame or a redirect, is refused).
 * - Without `Origin`, `Sec-Fetch-Site: same-origin` is ours; `same-site` (a sibling subdomain), `cross-site` and
 *   `none` are refused. `none` means the user started the request themselves (the address bar, a bookmark) or an
 *   extension did: a navigation is a GET, which is never checked, and no page of ours sends a state-changing
 *   request without `Origin`, so for those `none` is never our page.
 * - Neither header: not a browser (the tests, a CLI, another server), which holds no one's cookie by accident.
 */
export function isOwnOrigin(request: FastifyRequest, ownOrigin: string): boolean {
  const origin = request.headers.origin;
  if (typeof origin === 'string') return safeOrigin(origin) === ownOrigin;
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string') return site === 'same-origin';
  return true;
}

/** An `Origin` header as a URL's origin (so its case does not matter), or null for `null` and anything not a URL. */
export function safeOrigin(value: string): string | null {
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/**
 * A request that carries an API token (`Authorization: Bearer`, the log collectors of decision 034) is not a
 * browser's cookie riding along: a page of another site cannot add that header without a CORS preflight, which
 * this server never grants.
 */
function carriesApiToken(request: FastifyRequest): boolean {
  const authorization = request.headers.authorization;
  return typeof authorization === 'string' && /^bearer\s/i.test(authorization);
}

async function refuse(request: FastifyRequest, reply: FastifyReply, refused: RequestError): Promise<void> {
  logRefusal(request.log, refused);
  await reply.code(refused.statusCode).header('cache-control', 'no-store').send(requestErrorBody(refused));
}

/**
 * Every state-changing request (GraphQL's POST, every non-GET `/api/*` route, any other method but GET, HEAD and
 * OPTIONS) from a browser must come from the product's own origin: 403 `CROSS_ORIGIN_REQUEST` otherwise, before
 * the session is resolved or the body read (decision 018). Until now a foreign page was held off only by
 * GraphQL's JSON-only rule, failing preflights and the SameSite=Lax cookie; an upload took `text/plain` from a
 * sibling subdomain. WebSocket upgrades (GET) are checked by the WebSocket plugin the same way. Then an upload
 * route's `config.uploadTypes` is enforced: 415 `UNSUPPORTED_MEDIA_TYPE` for any other `Content-Type`.
 * Registered before every route.
 */
export const sameOriginPlugin = fp<{ publicUrl: string }>((app: FastifyInstance, { publicUrl }, done) => {
  const ownOrigin = new URL(publicUrl).origin;
  app.addHook('onRequest', async (request, reply) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (!carriesApiToken(request) && !isOwnOrigin(request, ownOrigin)) {
      await refuse(request, reply, new RequestError(403, ERROR_CODES.crossOriginRequest, 'crossOrigin'));
    }
  });
  // After the session (a signed-out caller is told to sign in first), before the body is read.
  app.addHook('preParsing', async (request, reply, payload) => {
    const accepted = request.routeOptions.config.uploadTypes;
    if (!accepted) return payload;
    const { type } = parseContentType(request.headers['content-type'] ?? '');
    if (!accepted.includes(type)) {
      await refuse(
        request,
        reply,
        new RequestError(415, ERROR_CODES.unsupportedMediaType, 'uploadType', { types: accepted.join(', ') }),
      );
    }
    return payload;
  });
  done();
});
