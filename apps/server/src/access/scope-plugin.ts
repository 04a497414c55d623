import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Database } from '../db/client.ts';
import { RequestScope } from './scope.ts';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * The signed-in caller's scope (decision 054), built once per request from its session; null when signed out.
     * Like `session`, only on a route with `config.session`.
     */
    readonly scope: RequestScope | null;
  }
}

/** Decorates every request with its caller's scope, built on first use from the session the session plugin resolved. */
export const scopePlugin = fp<{ db: Database }>(
  (app: FastifyInstance, { db }, done) => {
    const built = new WeakMap<FastifyRequest, RequestScope | null>();
    app.decorateRequest('scope', {
      getter(this: FastifyRequest): RequestScope | null {
        if (built.has(this)) return built.get(this)!;
        const { session } = this;
        const scope = session ? new RequestScope(db, session.user, this.actor) : null;
        built.set(this, scope);
        return scope;
      },
    });
    done();
  },
  { name: 'scope', dependencies: ['session'] },
);
