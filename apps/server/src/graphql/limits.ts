import { costLimitRule } from '@escape.tech/graphql-armor-cost-limit';
import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import { maxDepthRule } from '@escape.tech/graphql-armor-max-depth';
import { maxDirectivesRule } from '@escape.tech/graphql-armor-max-directives';
import {
  GraphQLError,
  Kind,
  NoSchemaIntrospectionCustomRule,
  type OperationDefinitionNode,
  type SelectionNode,
  type ParseOptions,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import { ERROR_CODES, formatMessage, REQUEST_MESSAGES } from '@telehealth/shared';

/**
 * What one GraphQL document may ask for (decision 018). The web app's largest operations today: depth 3, no
 * aliases or directives, cost 131, under 100 tokens; the limits leave room for later screens and stop a request
 * that asks for hundreds of lists or password checks at once.
 */
export const GRAPHQL_LIMITS = {
  /** Fields nested in fields (an inline fragment counts as a level). */
  depth: 8,
  /** Each alias is one more copy of a field: 200 aliased `listPatients` would be 200 audited reads. */
  aliases: 10,
  /** graphql-armor's cost: 1 per scalar, 2 per object, times 1.5 per level of nesting. */
  cost: 1000,
  directives: 20,
  /** Lexical tokens of the document (graphql-js stops parsing after this many). */
  tokens: 1000,
} as const;

/**
 * The operations that check a password or a code (or send a reset code). One request may run one of them, so
 * that one request cannot try many passwords, whatever the aliases limit allows (decision 022).
 */
export const CREDENTIAL_OPERATIONS: ReadonlySet<string> = new Set([
  'signIn',
  'confirmSignIn',
  'requestPasswordReset',
  'resetPassword',
  'acceptInvitation',
  'confirmTotpSetup',
  'disableTwoFactor',
]);

type LimitMessage = 'tooManyAliases' | 'tooDeep' | 'tooCostly' | 'tooManyDirectives' | 'oneCredentialOperation';

/**
 * graphql-armor's rules throw their error out of the validation by default; reported instead, the refusal is a
 * validation error like any other (HTTP 400, cached with the document), with our message, code and message id.
 */
function reportAs(messageKey: LimitMessage, limit: number) {
  return {
    n: limit,
    propagateOnRejection: false,
    onReject: [
      (context: ValidationContext | null) => {
        context?.reportError(
          new GraphQLError(formatMessage(REQUEST_MESSAGES[messageKey], { limit }), {
            extensions: {
              code: ERROR_CODES.graphqlValidationFailed,
              messageId: `requestMessages.${messageKey}`,
              params: { limit },
            },
          }),
        );
      },
    ],
  };
}

/** How many credential operations the root of an operation selects, through inline fragments and fragments. */
function countCredentialOperations(
  selections: readonly SelectionNode[],
  context: ValidationContext,
  seen: Set<string> = new Set(),
): number {
  let count = 0;
  for (const selection of selections) {
    if (selection.kind === Kind.FIELD) {
      if (CREDENTIAL_OPERATIONS.has(selection.name.value)) count += 1;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      count += countCredentialOperations(selection.selectionSet.selections, context, seen);
    } else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = context.getFragment(selection.name.value);
      if (fragment) count += countCredentialOperations(fragment.selectionSet.selections, context, seen);
    }
  }
  return count;
}

/** At most one credential operation in each operation of the document. */
function oneCredentialOperationRule(context: ValidationContext) {
  return {
    OperationDefinition(operation: OperationDefinitionNode) {
      if (countCredentialOperations(operation.selectionSet.selections, context) > 1) {
        reportAs('oneCredentialOperation', 1).onReject[0]?.(context);
      }
    },
  };
}

/** Validation rules added to GraphQL's own: the cost limits, and no introspection in production. */
export function graphqlValidationRules(options: { production: boolean }): ValidationRule[] {
  const rules: ValidationRule[] = [
    maxDepthRule(reportAs('tooDeep', GRAPHQL_LIMITS.depth)),
    maxAliasesRule(reportAs('tooManyAliases', GRAPHQL_LIMITS.aliases)),
    maxDirectivesRule(reportAs('tooManyDirectives', GRAPHQL_LIMITS.directives)),
    costLimitRule({ ...reportAs('tooCostly', GRAPHQL_LIMITS.cost), maxCost: GRAPHQL_LIMITS.cost }),
    oneCredentialOperationRule,
  ];
  // Anonymous callers never reach introspection (it is not a public root field, see plugin.ts); in production
  // nobody does.
  if (options.production) rules.push(NoSchemaIntrospectionCustomRule);
  return rules;
}

/**
 * graphql-armor's token limit replaces the parser, which Mercurius does not let us do; graphql-js has the same
 * limit built into its parser, and Mercurius passes it these options.
 */
export const GRAPHQL_PARSE_OPTIONS: ParseOptions = { maxTokens: GRAPHQL_LIMITS.tokens };
