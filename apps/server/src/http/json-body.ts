import type { FastifyInstance, FastifyRequest } from 'fastify';
import { badRequest } from '../errors.ts';

/** Keys that could reach an object's prototype through code that copies or merges what it was sent. */
const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor']);
// Only a text that names one of them, or escapes characters, can hold one: the rest skip the walk.
const MAY_HOLD_FORBIDDEN_KEY = /__proto__|constructor|\\u/;

function hasForbiddenKey(value: unknown): boolean {
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const current = stack.pop();
    if (current === null || typeof current !== 'object') continue;
    if (Array.isArray(current)) {
      stack.push(...(current as unknown[]));
      continue;
    }
    for (const [key, child] of Object.entries(current)) {
      if (FORBIDDEN_KEYS.has(key)) return true;
      stack.push(child);
    }
  }
  return false;
}

/**
 * Reads a JSON body, or refuses it with a 400 that says what is wrong: empty, not JSON, or holding a
 * `__proto__` or `constructor` key (refused rather than dropped, so nothing is silently changed).
 */
export function parseJsonBody(_request: FastifyRequest, body: string): unknown {
  if (body.trim().length === 0) throw badRequest('emptyBody');
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch {
    throw badRequest('notJson');
  }
  if (MAY_HOLD_FORBIDDEN_KEY.test(body) && hasForbiddenKey(value)) throw badRequest('forbiddenKey');
  return value;
}

/** Replaces Fastify's JSON parser with `parseJsonBody` for every route. */
export function registerJsonBodyParser(app: FastifyInstance): void {
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    try {
      done(null, parseJsonBody(request, body as string));
    } catch (error) {
      done(error as Error, undefined);
    }
  });
}
