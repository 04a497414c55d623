import { Kind, type DocumentNode, type ValueNode } from 'graphql';
import { textProblem } from '@telehealth/shared';
import { fieldProblem, validationFailed } from '../errors.ts';

/**
 * The characters no text rule accepts anywhere (NUL and the other control characters but line breaks and tabs,
 * lone surrogates), looked for in every string an operation carries, in its variables and in its literals,
 * before any resolver runs. Every field's own schema refuses them already with the field's message (text.ts);
 * this is the net under those schemas, so that an argument a schema forgot can still never bring a NUL to
 * PostgreSQL (SQLSTATE 22021) or half a character into an audit entry's JSON (22P02).
 */
export function refuseUnacceptableText(document: DocumentNode, variables: Record<string, unknown> | undefined): void {
  const path = findUnacceptableText(document, variables ?? {});
  if (path === null) return;
  throw validationFailed([fieldProblem(path, 'fieldMessages.invalidCharacters', { label: path })]);
}

const unacceptable = (value: string) => textProblem(value, 'free', Number.POSITIVE_INFINITY) === 'invalidCharacters';

/** The path (`input.firstName`, `ids.2`) of the first unacceptable string, or null. */
export function findUnacceptableText(document: DocumentNode, variables: Record<string, unknown>): string | null {
  const stack: [path: string, value: unknown][] = Object.entries(variables);
  for (const definition of document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION && definition.kind !== Kind.FRAGMENT_DEFINITION) continue;
    collectArguments(definition.selectionSet.selections, stack);
  }
  while (stack.length > 0) {
    const [path, value] = stack.pop()!;
    if (typeof value === 'string') {
      if (unacceptable(value) || unacceptable(path)) return printablePath(path);
    } else if (Array.isArray(value)) {
      value.forEach((item, index) => stack.push([`${path}.${index}`, item]));
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) stack.push([`${path}.${key}`, child]);
    }
  }
  return null;
}

type Selections = Extract<
  DocumentNode['definitions'][number],
  { kind: Kind.OPERATION_DEFINITION }
>['selectionSet']['selections'];

/** Every literal argument of every field, as plain values keyed by `argument.field` paths. */
function collectArguments(selections: Selections, into: [string, unknown][]): void {
  for (const selection of selections) {
    if (selection.kind === Kind.FIELD) {
      for (const argument of selection.arguments ?? []) into.push([argument.name.value, literalValue(argument.value)]);
    }
    if (selection.kind !== Kind.FRAGMENT_SPREAD && selection.selectionSet) {
      collectArguments(selection.selectionSet.selections, into);
    }
  }
}

function literalValue(node: ValueNode): unknown {
  switch (node.kind) {
    case Kind.STRING:
      return node.value;
    case Kind.LIST:
      return node.values.map(literalValue);
    case Kind.OBJECT:
      return Object.fromEntries(node.fields.map((field) => [field.name.value, literalValue(field.value)]));
    default:
      // Numbers, booleans, enums, null and variables (checked among the variables) hold no free text.
      return null;
  }
}

/** A key may itself be hostile (a variable named with a control character): the path is shown escaped. */
function printablePath(path: string): string {
  // JSON.stringify writes control characters and lone surrogates as \u escapes.
  return unacceptable(path) ? JSON.stringify(path).slice(1, -1) : path;
}
