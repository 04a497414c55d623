import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuditActor } from '../audit/audit.repository.ts';
import { actorFor, type ActiveSession, type RequestMeta, type SessionLifetime } from '../auth/session-lifetime.ts';
import { unauthenticated } from '../errors.ts';
import { logRefusal, requestErrorBody } from '../http/request-errors.ts';

/**
 * How a route uses the caller's session: 'optional' resolves it before the handler, once the body has been
 * accepted (preHandler: a request refused for its shape costs no session query), and it may be null;
 * 'required' resolves it first thing (onRequest) and answers 401 without a live session, before a body is read
 * or a WebSocket upgraded.
 */
export type SessionUse = 'optional' | 'required';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes without it never touch the session store (static files, health). */
    session?: SessionUse;
  }
  interface FastifyRequest {
    /**
     * The caller's live session, resolved once per request by the session plugin; null when signed out.
     * Reading it on a route without `config.session` is a programming error and throws.
     */
    readonly session: ActiveSession | null;
    /** Who the audit trail records for this request: the signed-in user, or anonymous with the address. */
    readonly actor: AuditActor;
    /** What the auth service and the audit trail know of this request (address, agent, the raw cookie). */
    readonly requestMeta: RequestMeta;
  }
  interface FastifyInstance {
    /**
     * Resolves the session where no route config can ask for it (the page fallback of the not-found
     * handler), with the same cookie refresh; at most once per request, like the route option.
     */
    loadSession(request: FastifyRequest, reply: FastifyReply): Promise<ActiveSession | null>;
  }
}

interface Resolved {
  session: ActiveSession | null;
  meta: RequestMeta;
}

/**
 * The session, once per request, for GraphQL, every `/api/*` route and WebSocket upgrades alike: verify the
 * signed cookie, slide the idle deadline and load the user and role (one statement, SessionLifetime.resolveSession),
 * then re-send the cookie with its new lifetime, or clear a cookie that no longer opens a session.
 * Registered before the routes; a route opts in with `config: { session: 'optional' | 'required' }`.
 */
export const sessionPlugin = fp<{ sessions: SessionLifetime }>(
  async (app: FastifyInstance, { sessions }) => {
    const cookieName = await sessions.sessionCookieName();
    // Keyed by the request object: nothing to clean up, and a request never sees another's session.
    const resolved = new WeakMap<FastifyRequest, Resolved>();
    const pending = new WeakMap<FastifyRequest, Promise<ActiveSession | null>>();

    const readMeta = (request: FastifyRequest): RequestMeta => {
      const header = (name: string) => {
        const value = request.headers[name];
        return typeof value === 'string' ? value.slice(0, 512) : null;
      };
      return {
        ip: request.ip,
        userAgent: header('user-agent'),
        url: request.url,
        referrer: header('referer'),
        sessionCookie: request.cookies[cookieName] ?? null,
        cookies: request.cookies,
      };
    };

    const resolve = async (request: FastifyRequest, reply: FastifyReply): Promise<ActiveSession | null> => {
      const meta = readMeta(request);
      const { session } = await sessions.resolveSession(meta);
      if (session && meta.sessionCookie) {
        void reply.header('set-cookie', await sessions.refreshCookieHeader(meta.sessionCookie, session));
      } else if (meta.sessionCookie) {
        void reply.header('set-cookie', await sessions.clearCookieHeader());
      }
      resolved.set(request, { session, meta });
      return session;
    };

    const loadSession = (request: FastifyRequest, reply: FastifyReply): Promise<ActiveSession | null> => {
      let promise = pending.get(request);
      if (!promise) {
        promise = resolve(request, reply);
        pending.set(request, promise);
      }
      return promise;
    };

    app.decorate('loadSession', loadSession);
    app.decorateRequest('session', {
      getter(this: FastifyRequest): ActiveSession | null {
        const state = resolved.get(this);
        if (!state) throw new Error(`request.session read on ${this.url} without config.session on its route`);
        return state.session;
      },
    });
    app.decorateRequest('requestMeta', {
      getter(this: FastifyRequest): RequestMeta {
        return resolved.get(this)?.meta ?? readMeta(this);
      },
    });
    app.decorateRequest('actor', {
      getter(this: FastifyRequest): AuditActor {
        return actorFor(this.session, this.requestMeta);
      },
    });

    app.addHook('onRequest', async (request, reply) => {
      if (request.routeOptions.config.session !== 'required') return;
      if (!(await loadSession(request, reply))) {
        const refused = unauthenticated();
        logRefusal(request.log, refused);
        return reply.code(401).header('cache-control', 'no-store').send(requestErrorBody(refused));
      }
    });
    app.addHook('preHandler', async (request, reply) => {
      if (request.routeOptions.config.session === 'optional') await loadSession(request, reply);
    });
  },
  { name: 'session', dependencies: ['@fastify/cookie'] },
);

/** The session of a route declared with `config: { session: 'required' }` (the plugin refused the others). */
export function requiredSession(request: FastifyRequest): ActiveSession {
  const { session } = request;
  if (!session) throw new Error(`${request.url}: no session on a route that requires one`);
  return session;
}
