import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { GraphQLError, Kind, Location, type DocumentNode } from 'graphql';
import mercurius from 'mercurius';
import { ERROR_CODES, MESSAGES } from '@telehealth/shared';
import { badRequest, isAppError, unauthenticated } from '../errors.ts';
import { logRefusal, requestErrorBody, requestErrorFrom, UNEXPECTED_EXTENSIONS } from '../http/request-errors.ts';
import type { GraphQLContext, Services } from './context.ts';
import { checkGraphQLBody, checkGraphQLMethodAndType } from './http.ts';
import { idempotencyKeyProblem } from './idempotent.ts';
import { GRAPHQL_PARSE_OPTIONS, graphqlValidationRules } from './limits.ts';
import { PUBLIC_ROOT_FIELDS, schema } from './schema.ts';
import { refuseUnacceptableText } from './text-guard.ts';

/** GraphQL at /graphql: Mercurius with JIT, the Pothos schema, one authentication checkpoint, masked errors. */
export const graphqlPlugin = fp<Services>(async (app: FastifyInstance, services) => {
  const bodyLimit = app.initialConfig.bodyLimit ?? 1_048_576;
  const formatErrors = (errors: readonly Error[], hasData: boolean, log: FastifyBaseLogger) => {
    const formatted = errors.flatMap(unwrapErrors).map((error) => formatError(error, log));
    const failedWith = (code: string) => !hasData && formatted.some((e) => e.extensions?.code === code);
    const statusCode = failedWith(ERROR_CODES.internal)
      ? 500
      : failedWith(ERROR_CODES.graphqlValidationFailed)
        ? 400
        : 200;
    return { statusCode, errors: formatted };
  };

  await app.register(mercurius, {
    schema,
    path: '/graphql',
    jit: 1,
    graphiql: false,
    // Depth, aliases, cost and directives are graphql-armor's validation rules; tokens are graphql-js's limit.
    validationRules: graphqlValidationRules({ production: services.config.nodeEnv === 'production' }),
    graphql: {
      parseOptions: GRAPHQL_PARSE_OPTIONS,
      // "Did you mean ...?" would tell anyone the names of fields they may not see (graphql-js 16.10+; the
      // option is missing from Mercurius's types).
      validateOptions: { hideSuggestions: true } as { maxErrors?: number },
    },
    context: (request, reply): GraphQLContext => ({
      ...services,
      request,
      reply,
      meta: request.requestMeta,
      session: request.session,
      actor: request.actor,
      scope: request.scope,
    }),
    errorFormatter: (execution, context) => {
      const { statusCode, errors } = formatErrors(
        execution.errors ?? [],
        execution.data != null,
        // The request's logger (with its id); the app's for an error raised before the context existed.
        (context as Partial<GraphQLContext> | undefined)?.request?.log ?? app.log,
      );
      return { statusCode, response: { data: execution.data ?? null, errors } };
    },
    // Errors thrown before or outside the execution (an unreadable body, a document that does not parse or
    // validate) come to this route's own handler rather than Mercurius's, which would first build the context
    // for a request that is refused anyway. (A body refused before the handler costs no session query either:
    // the session plugin resolves an optional session in preHandler.)
    errorHandler: false,
    additionalRouteOptions: {
      // The session plugin resolves the cookie once the body has passed these checks; public operations need none.
      config: { session: 'optional' },
      preValidation: checkGraphQLBody,
      errorHandler: (error, request, reply) => {
        const refused = requestErrorFrom(error, bodyLimit);
        if (refused) {
          logRefusal(request.log, refused);
          void reply.code(refused.statusCode).send(requestErrorBody(refused));
          return;
        }
        const { statusCode, errors } = formatErrors([error], false, request.log);
        void reply.code(statusCode).send({ data: null, errors });
      },
    },
  });

  // Mercurius reads a query that is not GraphQL as JSON (`"null"`, `"42"`, `"{}"`, ...) and passes on whatever
  // value that gives, null included; we only take GraphQL text, which the parser marks with its Location. So the
  // check holds for any JSON value, not only for objects.
  app.graphql.addHook('preValidation', (_schema, document: unknown) =>
    isParsedDocument(document) ? Promise.resolve() : Promise.reject(badRequest('queryNotText')),
  );

  // The single checkpoint: an operation that touches any non-public root field needs a session. Introspection
  // (`__schema`, `__type`) is not public, so anonymous callers cannot read the schema.
  app.graphql.addHook('preExecution', (_schema, document, context) => {
    const ctx = context as unknown as GraphQLContext;
    if (ctx.session || rootFieldNames(document).every((name) => PUBLIC_ROOT_FIELDS.has(name))) {
      return Promise.resolve();
    }
    return Promise.reject(unauthenticated());
  });

  // Then the net under the shared text rule: no string with a character no rule accepts reaches a resolver.
  app.graphql.addHook('preExecution', (_schema, document, _context, variables) => {
    refuseUnacceptableText(document, variables);
    return Promise.resolve();
  });

  app.addHook('onRequest', async (request, reply) => {
    if (request.url.split('?', 1)[0] !== '/graphql') return;
    await checkGraphQLMethodAndType(request, reply);
    if (reply.sent) return;
    // An Idempotency-Key that is not one is refused whole (decision 044), whatever the operation.
    const refused = idempotencyKeyProblem(request);
    if (refused) {
      logRefusal(request.log, refused);
      await reply.code(refused.statusCode).send(requestErrorBody(refused));
    }
  });
});

/** A document graphql-js parsed from text (never one Mercurius read as JSON, which has no Location). */
function isParsedDocument(document: unknown): document is DocumentNode {
  return typeof document === 'object' && document !== null && (document as DocumentNode).loc instanceof Location;
}

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

interface FormattedError {
  message: string;
  locations?: readonly { line: number; column: number }[];
  path?: readonly (string | number)[];
  extensions?: Record<string, unknown>;
}

function formatError(error: GraphQLError | Error, log: FastifyBaseLogger): FormattedError {
  const graphqlError =
    error instanceof GraphQLError ? error : new GraphQLError(error.message, { originalError: error });
  const original = findOriginal(graphqlError);
  const base = {
    ...(graphqlError.locations ? { locations: graphqlError.locations } : {}),
    ...(graphqlError.path ? { path: graphqlError.path } : {}),
  };
  if (original && isAppError(original)) {
    logRefusal(log, original);
    const { code, messageId, params, publicExtensions } = original;
    return { message: original.message, ...base, extensions: { code, messageId, params, ...publicExtensions } };
  }
  if (!original) {
    // Parse and validation errors describe the request, not the server: safe to show. Variable values are
    // checked by Mercurius without graphql's hideSuggestions, so their suggestions are removed here.
    // The log gets the code and the variable, never the message: graphql-js quotes the value it refused.
    const variable = /^Variable "\$(\w+)"/.exec(graphqlError.message)?.[1];
    log.info({ refused: { code: ERROR_CODES.graphqlValidationFailed, variable } }, 'request refused');
    return {
      message: graphqlError.message.replace(DID_YOU_MEAN, ''),
      ...base,
      extensions: { ...graphqlError.extensions, code: ERROR_CODES.graphqlValidationFailed },
    };
  }
  log.error({ err: original }, 'unexpected error in a GraphQL operation');
  return { message: MESSAGES.unexpected, ...base, extensions: UNEXPECTED_EXTENSIONS };
}

/** graphql-js's suggestion, always the end of a message: ` Did you mean "name"?` or `... "a", or "b"?`. */
const DID_YOU_MEAN = / ?Did you mean .*\?$/s;

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
