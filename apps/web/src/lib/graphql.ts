import { ERROR_CODES, formatIdempotencyKey, IDEMPOTENCY_KEY_HEADER } from '@telehealth/shared';
import type { z } from 'zod';

/** Where the browser sends GraphQL: the same origin, so the httpOnly session cookie goes with it. */
export const GRAPHQL_ENDPOINT = '/graphql';

export interface GraphQLErrorEntry {
  message: string;
  path?: readonly (string | number)[];
  extensions?: { code?: string; [key: string]: unknown };
}

type FailureKind = 'graphql' | 'http' | 'network';

/**
 * A failed GraphQL request. `message` follows the error catalogue ('API Error: ' and the messages joined by
 * commas) for logs; what a person sees comes from `describeError` in lib/errors.
 */
export class GraphQLRequestError extends Error {
  override readonly name = 'GraphQLRequestError';
  readonly kind: FailureKind;
  /** The first `extensions.code` the server sent, if any. */
  readonly code: string | undefined;
  readonly errors: readonly GraphQLErrorEntry[];
  readonly status: number | undefined;

  constructor(kind: FailureKind, errors: readonly GraphQLErrorEntry[], status?: number, options?: ErrorOptions) {
    const joined = errors.map((error) => error.message).join(', ');
    super(kind === 'graphql' ? `API Error: ${joined}` : joined || 'GraphQL operation failed', options);
    this.kind = kind;
    this.errors = errors;
    this.status = status;
    this.code = errors.find((error) => typeof error.extensions?.code === 'string')?.extensions?.code;
  }

  get isUnauthenticated(): boolean {
    return this.errors.some((error) => error.extensions?.code === ERROR_CODES.unauthenticated);
  }
}

export function isGraphQLRequestError(error: unknown): error is GraphQLRequestError {
  return error instanceof GraphQLRequestError;
}

export interface GraphQLRequestOptions {
  signal?: AbortSignal;
  /**
   * Whether a success counts as activity that extends the server session (default true). Public operations
   * that the server does not treat as session activity (appConfig, signOut) pass false, so the idle timer
   * never believes the session lasts longer than it does.
   */
  extendsSession?: boolean;
  /**
   * Sent as the Idempotency-Key header (decision 044): a create mutation sent again with the same key answers
   * its first result instead of writing twice. Forms take it from `useSubmissionKey`.
   */
  idempotencyKey?: string;
}

// ---------------------------------------------------------------------------------------------------------
// Session signals: the time of the last successful request, and "the server says there is no session".
// Kept outside React so every caller (queries, mutations, the idle timer) shares one clock.

type Listener = () => void;

let lastSuccessfulRequestAt = 0;
const activityListeners = new Set<Listener>();
const unauthenticatedListeners = new Set<Listener>();

/** Epoch milliseconds at which the last successful request was sent (0 before the first). */
export function getLastSuccessfulRequestAt(): number {
  return lastSuccessfulRequestAt;
}

/** Records that the server saw an authenticated request at `at` (used also for activity seen in other tabs). */
export function recordSuccessfulRequest(at: number): void {
  if (at <= lastSuccessfulRequestAt) return;
  lastSuccessfulRequestAt = at;
  for (const listener of activityListeners) listener();
}

export function subscribeToRequestActivity(listener: Listener): () => void {
  activityListeners.add(listener);
  return () => {
    activityListeners.delete(listener);
  };
}

/** Called whenever a response says UNAUTHENTICATED: the server has no session for this browser. */
export function onUnauthenticated(listener: Listener): () => void {
  unauthenticatedListeners.add(listener);
  return () => {
    unauthenticatedListeners.delete(listener);
  };
}

// ---------------------------------------------------------------------------------------------------------

interface GraphQLResponseBody<TData> {
  data?: TData | null;
  errors?: GraphQLErrorEntry[];
}

function isResponseBody(value: unknown): value is GraphQLResponseBody<unknown> {
  return value !== null && typeof value === 'object' && ('data' in value || 'errors' in value);
}

/**
 * Sends one GraphQL operation to the server and returns its `data` checked against `schema` (a ZodError
 * when the server answers in a shape this browser does not expect), or throws a GraphQLRequestError.
 */
export async function graphqlRequest<TSchema extends z.ZodType>(
  query: string,
  schema: TSchema,
  variables?: Record<string, unknown>,
  options: GraphQLRequestOptions = {},
): Promise<z.output<TSchema>> {
  // The send time, not the answer time: the server extends the session when it receives the request, so
  // a deadline counted from here is never later than the server's.
  const sentAt = Date.now();
  let response: Response;
  try {
    response = await fetch(GRAPHQL_ENDPOINT, {
      method: 'POST',
      credentials: 'same-origin',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(options.idempotencyKey === undefined
          ? {}
          : { [IDEMPOTENCY_KEY_HEADER]: formatIdempotencyKey(options.idempotencyKey) }),
      },
      body: JSON.stringify({ query, variables: variables ?? {} }),
      signal: options.signal ?? null,
    });
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new GraphQLRequestError('network', [], undefined, { cause });
  }

  let body: unknown;
  try {
    body = await response.json();
  } catch {
    body = null;
  }

  if (!isResponseBody(body)) {
    throw new GraphQLRequestError('http', [{ message: `API request failed: ${response.status}` }], response.status);
  }

  if (body.errors && body.errors.length > 0) {
    const error = new GraphQLRequestError('graphql', body.errors, response.status);
    if (error.isUnauthenticated) {
      for (const listener of unauthenticatedListeners) listener();
    }
    throw error;
  }

  if (!response.ok || body.data == null) {
    throw new GraphQLRequestError('http', [{ message: `API request failed: ${response.status}` }], response.status);
  }

  if (options.extendsSession !== false) recordSuccessfulRequest(sentAt);
  return schema.parse(body.data);
}
