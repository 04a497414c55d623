import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PublicCaller } from '../access/caller.ts';
import type { RequestScope, Scope } from '../access/scope.ts';
import type { AuditActor } from '../audit/audit.repository.ts';
import type { ActiveSession, RequestMeta, SessionUser } from '../auth/auth.service.ts';
import { unauthenticated } from '../errors.ts';
import type { Services } from '../modules/services.ts';

/** Every service, by name: each domain's module declares its own in `Services` (decision 053). */
export type { Services };

/** Taken from the request: the session plugin resolved the session once, before the body was read. */
export interface GraphQLContext extends Services {
  request: FastifyRequest;
  reply: FastifyReply;
  meta: RequestMeta;
  /** The request's session; an operation that ends it (signOut) sets it to null for the rest of the operation. */
  session: ActiveSession | null;
  /** The audit actor for this request: the signed-in user, or anonymous. */
  actor: AuditActor;
  /** The signed-in caller's scope, built once per request (decision 054); null when signed out. */
  scope: RequestScope | null;
}

/** The signed-in user; throws UNAUTHENTICATED otherwise. */
export function requireUser(ctx: GraphQLContext): SessionUser {
  if (!ctx.session) throw unauthenticated();
  return ctx.session.user;
}

/** The signed-in caller of an operation, for services that check permissions themselves. */
export function callerOf(ctx: GraphQLContext, operation: string): Scope {
  requireUser(ctx);
  if (!ctx.scope) throw unauthenticated();
  return ctx.scope.as(operation);
}

/** The caller of a public operation: whoever it is, from which address. */
export function publicCallerOf(ctx: GraphQLContext, operation: string): PublicCaller {
  return { actor: ctx.actor, ip: ctx.meta.ip, operation };
}
