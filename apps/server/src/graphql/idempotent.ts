import type { FastifyRequest } from 'fastify';
import { ERROR_CODES, IDEMPOTENCY_KEY_MAX_LENGTH, parseIdempotencyKey } from '@telehealth/shared';
import type { Caller } from '../access/caller.ts';
import { RequestError } from '../errors.ts';
import {
  IdempotencyKeyTaken,
  idempotencyKeyReused,
  type IdempotencyRecord,
  type IdempotentRequest,
} from '../idempotency/idempotency-keys.ts';
import { callerOf, type GraphQLContext } from './context.ts';

/*
 * The one way a create mutation honours the Idempotency-Key header (decision 044): its resolver is
 * `idempotent(name, { run, replay })`, and its service calls `recordIdempotencyKey(tx, caller, id)` in the
 * transaction that writes. Mutations that honour it: IDEMPOTENT_MUTATIONS.
 */

/** Every mutation that honours the header (the web app sends it for these; decision 044 lists them). */
export const IDEMPOTENT_MUTATIONS = new Set<string>();

const HEADER = 'idempotency-key';

/** A 400 for a header that is not a key; checked for every GraphQL request before the body is read. */
export function idempotencyKeyProblem(request: FastifyRequest): RequestError | null {
  const value = request.headers[HEADER];
  if (value === undefined) return null;
  if (typeof value === 'string' && parseIdempotencyKey(value) !== null) return null;
  return new RequestError(400, ERROR_CODES.idempotencyKeyInvalid, 'idempotencyKeyInvalid', {
    limit: IDEMPOTENCY_KEY_MAX_LENGTH,
  });
}

function idempotencyKeyOf(request: FastifyRequest): string | null {
  const value = request.headers[HEADER];
  return typeof value === 'string' ? parseIdempotencyKey(value) : null;
}

export interface IdempotentHandlers<Args, Result> {
  /** The write: its service records `caller.idempotency` with the created record's id. */
  run: (caller: Caller, args: Args, ctx: GraphQLContext) => Promise<Result>;
  /** The first answer again, from the created record's id, through the normal read (authorised and audited). */
  replay: (caller: Caller, resultId: string, args: Args, ctx: GraphQLContext) => Promise<Result>;
}

/**
 * A resolver for a create mutation. Without the header it is `run`. With it: a key this account used in the last
 * 24 hours answers its first result when the operation and input are the same (without a second write) and is
 * refused as IDEMPOTENCY_KEY_REUSED otherwise; a key whose first request still runs is refused as
 * IDEMPOTENCY_KEY_IN_FLIGHT (by `recordIdempotencyKey`); a new key is recorded with the write.
 */
export function idempotent<Args, Result>(operation: string, handlers: IdempotentHandlers<Args, Result>) {
  IDEMPOTENT_MUTATIONS.add(operation);
  return async (_root: unknown, args: Args, ctx: GraphQLContext): Promise<Result> => {
    const caller = callerOf(ctx, operation);
    const key = idempotencyKeyOf(ctx.request);
    if (key === null) return handlers.run(caller, args, ctx);
    const request = ctx.idempotency.request(operation, args, key);
    const answer = (record: IdempotencyRecord) => replayOrRefuse(handlers, caller, request, record, args, ctx);
    const used = await ctx.idempotency.find(caller.user.id, key);
    if (used) return answer(used);
    try {
      return await handlers.run(caller.withIdempotency(request), args, ctx);
    } catch (error) {
      if (error instanceof IdempotencyKeyTaken) return answer(error.record);
      // A request with the key that committed while this one ran can make this one fail otherwise (its slot is
      // taken, its questionnaire already answered): the first one's answer is then this one's too.
      const meanwhile = await ctx.idempotency.find(caller.user.id, key).catch(() => undefined);
      if (meanwhile) return answer(meanwhile);
      throw error;
    }
  };
}

function replayOrRefuse<Args, Result>(
  handlers: IdempotentHandlers<Args, Result>,
  caller: Caller,
  request: IdempotentRequest,
  record: IdempotencyRecord,
  args: Args,
  ctx: GraphQLContext,
): Promise<Result> {
  if (record.operation !== request.operation || record.inputHash !== request.inputHash) {
    throw idempotencyKeyReused();
  }
  return handlers.replay(caller, record.resultId, args, ctx);
}
