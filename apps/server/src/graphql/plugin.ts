import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { GraphQLError, Kind, type DocumentNode } from 'graphql';
import mercurius from 'mercurius';
import { ERROR_CODES, MESSAGES } from '@telehealth/shared';
import { AppError, isAppError } from '../errors.ts';
import { requestMeta, withSession, type GraphQLContext, type Services } from './context.ts';
import { PUBLIC_ROOT_FIELDS, schema } from './schema.ts';

/** GraphQL at /graphql: Mercurius with JIT, the Pothos schema, one authentication checkpoint, masked errors. */
export const graphqlPlugin = fp<Services>(async (app: FastifyInstance, services) => {
  const cookieName = await services.authService.sessionCookieName();

  await app.register(mercurius, {
    schema,
    path: '/graphql',
    jit: 1,
    graphiql: false,
    queryDepth: 12,
    context: async (request, reply): Promise<GraphQLContext> => {
      const meta = requestMeta(request, cookieName);
      const { session } = await services.authService.resolveSession(meta);
      if (session && meta.sessionCookie) {
        void reply.header('set-cookie', await services.authService.refreshCookieHeader(meta.sessionCookie, session));
      } else if (meta.sessionCookie) {
        void reply.header('set-cookie', await services.authService.clearCookieHeader());
      }
      return withSession({ ...services, request, reply, meta, session });
    },
    errorFormatter: (execution) => {
      const errors = (execution.errors ?? []).flatMap(unwrapErrors).map((error) => formatError(error, app));
      const failedWith = (code: string) => execution.data == null && errors.some((e) => e.extensions?.code === code);
      return {
        statusCode: failedWith(ERROR_CODES.internal) ? 500 : failedWith(VALIDATION_FAILED) ? 400 : 200,
        response: { data: execution.data ?? null, errors },
      };
    },
  });

  // The single checkpoint: an operation that touches any non-public root field needs a session.
  app.graphql.addHook('preExecution', (_schema, document, context) => {
    const ctx = context as unknown as GraphQLContext;
    if (ctx.session || rootFieldNames(document).every((name) => PUBLIC_ROOT_FIELDS.has(name))) {
      return Promise.resolve();
    }
    return Promise.reject(new AppError(ERROR_CODES.unauthenticated, MESSAGES.authRequired));
  });

  // Queries over GET would let a cross-site link run operations with the user's cookie, and a form can post
  // text/plain across sites without a preflight: POST with a JSON body only.
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/graphql')) return;
    if (request.method === 'GET') {
      await reply
        .code(405)
        .header('allow', 'POST')
        .send({ errors: [{ message: 'Use POST for GraphQL requests.' }] });
    } else if (request.method === 'POST' && !/^application\/json\b/i.test(request.headers['content-type'] ?? '')) {
      await reply
        .code(415)
        .send({ errors: [{ message: 'GraphQL requests must have a JSON body (Content-Type: application/json).' }] });
    }
  });
});

/** Mercurius reports parse and validation failures as one error holding the GraphQL errors. */
function unwrapErrors(error: Error): Error[] {
  const holder = error instanceof GraphQLError && error.originalError ? error.originalError : error;
  const inner = (holder as { errors?: unknown }).errors;
  return Array.isArray(inner) && inner.every((e) => e instanceof GraphQLError) ? inner : [error];
}

function rootFieldNames(document: DocumentNode): string[] {
  const names: string[] = [];
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    for (const selection of definition.selectionSet.selections) {
      // Fragments on the root type are rare; counting them as non-public keeps the check safe.
      names.push(selection.kind === Kind.FIELD ? selection.name.value : '#fragment');
    }
  }
  return names;
}

const VALIDATION_FAILED = 'GRAPHQL_VALIDATION_FAILED';

interface FormattedError {
  message: string;
  locations?: readonly { line: number; column: number }[];
  path?: readonly (string | number)[];
  extensions?: Record<string, unknown>;
}

function formatError(error: GraphQLError | Error, app: FastifyInstance): FormattedError {
  const graphqlError =
    error instanceof GraphQLError ? error : new GraphQLError(error.message, { originalError: error });
  const original = findOriginal(graphqlError);
  const base = {
    ...(graphqlError.locations ? { locations: graphqlError.locations } : {}),
    ...(graphqlError.path ? { path: graphqlError.path } : {}),
  };
  if (original && isAppError(original)) {
    return { message: original.message, ...base, extensions: { ...original.publicExtensions, code: original.code } };
  }
  if (!original) {
    // Parse and validation errors describe the request, not the server: safe to show.
    return { message: graphqlError.message, ...base, extensions: { code: VALIDATION_FAILED } };
  }
  app.log.error({ err: original }, 'unexpected error in a GraphQL operation');
  return { message: MESSAGES.unexpected, ...base, extensions: { code: ERROR_CODES.internal } };
}

function findOriginal(error: GraphQLError): Error | undefined {
  // Mercurius and graphql-jit may wrap (or re-class) the thrown error, so it is followed by shape, not class.
  let current: unknown = error.originalError;
  while (current instanceof Error) {
    if (isAppError(current)) return current;
    const inner = (current as { originalError?: unknown }).originalError;
    if (!(inner instanceof Error)) break;
    current = inner;
  }
  if (!(current instanceof Error) || isGraphQLErrorShape(current)) return undefined;
  return current;
}

function isGraphQLErrorShape(error: Error): boolean {
  return error instanceof GraphQLError || (error.name === 'GraphQLError' && 'locations' in error);
}
