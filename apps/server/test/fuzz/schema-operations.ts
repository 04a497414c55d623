import fc from 'fast-check';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLOutputType,
  type GraphQLSchema,
} from 'graphql';

/** One root field of the schema, as a document that declares each argument as a variable of its exact type. */
export interface FuzzOperation {
  kind: 'query' | 'mutation';
  field: string;
  document: string;
  /** An arbitrary of the variables: plausible values, hostile ones, wrong types, nulls, unknown fields. */
  variables: fc.Arbitrary<Record<string, unknown>>;
  /** Plausible variables (every argument its sample or a harmless value), the base of `targeted`. */
  plausible: fc.Arbitrary<Record<string, unknown>>;
}

/**
 * The values every text argument and input field is tried with, one at a time, besides the random runs: NUL, a
 * lone surrogate, markup, a `javascript:` link, and a line break with a right-to-left override (a display name's).
 */
export const TARGETED_STRINGS: readonly string[] = [
  'a\u0000b',
  'x\ud800',
  '<img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  'Ann\u202e\nLee',
];

/**
 * Variables that differ from `base` in one string only, for every string in it (at any depth) and every value of
 * TARGETED_STRINGS: so that each field meets each kind of breaking value at least once, whatever the seed.
 */
export function targetedVariables(base: Record<string, unknown>): Record<string, unknown>[] {
  const variants: Record<string, unknown>[] = [];
  const visit = (value: unknown, replace: (next: unknown) => Record<string, unknown>): void => {
    if (typeof value === 'string') {
      for (const bad of TARGETED_STRINGS) variants.push(replace(bad));
    } else if (Array.isArray(value)) {
      const items = value as unknown[];
      items.forEach((item, index) =>
        visit(item, (next) => replace(items.map((other, i) => (i === index ? next : other)))),
      );
    } else if (value !== null && typeof value === 'object') {
      for (const [key, child] of Object.entries(value)) {
        visit(child, (next) => replace({ ...(value as Record<string, unknown>), [key]: next }));
      }
    }
  };
  visit(base, (next) => next as Record<string, unknown>);
  return variants;
}

/** Characters that break databases and encoders: NUL (PostgreSQL refuses it in text), controls, lone surrogates. */
export const BREAKING_STRINGS: readonly string[] = [
  '\u0000',
  'a\u0000b',
  '\u0001\u001b[2J\u007f\u0085\u009f',
  '\ud800',
  'x\udfff',
  '\udc00\ud800',
];

/** Markup a browser would run, also the kinds that survive one pass of a filter. */
export const MARKUP_STRINGS: readonly string[] = [
  '<script>alert(1)</script>',
  '<scr<script>x</script>ipt>',
  '<script src=//evil.example/x.js>',
  '<img src=x onerror=alert(1)>',
  '<svg/onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  'javascript:alert(1)',
  ' JavaScript :alert(1)',
  'java\u200bscript:alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html;base64,PHNjcmlwdD4=',
  'file:///etc/passwd',
  'javajavascript:script:alert(1)',
];

/**
 * Everything else that has broken servers like ours: sizes, right-to-left overrides and text, SQL, template
 * syntax, malformed ids, cursors and dates.
 */
export const OTHER_HOSTILE_STRINGS: readonly string[] = [
  '',
  ' ',
  '\t\n',
  'x'.repeat(10_000),
  '\u202egnp.exe',
  '\u2066isolate\u2069',
  'مريم حداد',
  'שלום',
  "' OR 1=1 --",
  "'; DROP TABLE patients; --",
  '%00',
  '../../etc/passwd',
  '{{7*7}}',
  '${7*7}',
  '__proto__',
  'not-a-uuid',
  '00000000-0000-0000-0000-000000000000',
  'eyJsYXN0IjpbImEiLCJiIl19',
  'eyJ.broken.cursor',
  '2026-02-30',
  '0000-00-00',
  '9999-99-99',
  '1990-13-45',
  '-1',
  '1e309',
  'NaN',
];

/** Plausible values by argument or input field name, so that the hostile ones meet deeper code. */
export type Samples = Record<string, fc.Arbitrary<unknown>>;

const anyJson = fc.jsonValue({ maxDepth: 2 });

function hostileString(name: string, samples: Samples): fc.Arbitrary<unknown> {
  const sample = samples[name];
  const hostile = fc.oneof(
    fc.constantFrom(...BREAKING_STRINGS),
    fc.constantFrom(...MARKUP_STRINGS),
    fc.constantFrom(...OTHER_HOSTILE_STRINGS),
  );
  return fc.oneof(
    { weight: 3, arbitrary: hostile },
    // A plausible value with something hostile inside it.
    {
      weight: 2,
      arbitrary: fc
        .tuple(sample ?? fc.constant('Ann'), hostile)
        .map(([value, bad]) => `${typeof value === 'string' ? value : 'x'}${bad}`),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
    { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
    ...(sample ? [{ weight: 2, arbitrary: sample }] : []),
  );
}

interface Field {
  name: string;
  type: GraphQLInputType;
}

/**
 * The fields of an input object, or the arguments of an operation: usually every field plausible but one, which
 * is hostile, so that the hostile value meets the code beyond validation; otherwise each field anything.
 */
function recordOf(fields: readonly Field[], samples: Samples, depth: number): fc.Arbitrary<Record<string, unknown>> {
  if (fields.length === 0) return fc.constant({});
  const anything = fc.record(
    Object.fromEntries(fields.map((field) => [field.name, valueOf(field.type, field.name, samples, depth + 1)])),
    { requiredKeys: [] },
  );
  // Every field present with a value its schema accepts, so that one hostile field is the only problem.
  const plausible = plausibleRecordOf(fields, samples, depth);
  const oneHostile = fc.tuple(plausible, fc.constantFrom(...fields)).chain(([base, field]) =>
    // A nested input object picks its own hostile field; a scalar gets a hostile value.
    valueOf(field.type, field.name, isInputObjectType(getNamedType(field.type)) ? samples : {}, depth + 1).map(
      (value) => ({ ...base, [field.name]: value }),
    ),
  );
  return fc.oneof({ weight: 4, arbitrary: oneHostile }, { weight: 1, arbitrary: anything });
}

/** Every field with a value its schema accepts. */
function plausibleRecordOf(fields: readonly Field[], samples: Samples, depth: number) {
  return fc.record(
    Object.fromEntries(fields.map((field) => [field.name, plausibleOf(field.type, field.name, samples, depth + 1)])),
  );
}

/** A value of the type that its schema accepts: the field's sample, else a harmless value of the type. */
function plausibleOf(type: GraphQLInputType, name: string, samples: Samples, depth: number): fc.Arbitrary<unknown> {
  const sample = samples[name];
  if (sample) return sample;
  const named = getNamedType(type);
  if (isListType(isNonNullType(type) ? type.ofType : type)) return fc.constant([]);
  if (isEnumType(named)) return fc.constantFrom(...named.getValues().map((value) => value.name));
  if (isInputObjectType(named)) return plausibleRecordOf(Object.values(named.getFields()), samples, depth);
  switch (named.name) {
    case 'Int':
      return fc.constant(1);
    case 'Float':
      return fc.constant(1.5);
    case 'Boolean':
      return fc.boolean();
    default:
      return fc.constant('Some text');
  }
}

function valueOf(type: GraphQLInputType, name: string, samples: Samples, depth: number): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) {
    // Mostly a value; sometimes null or a wrong type, which GraphQL must refuse with a 400.
    return fc.oneof(
      { weight: 12, arbitrary: valueOf(type.ofType, name, samples, depth) },
      { weight: 1, arbitrary: fc.constant(null) },
      { weight: 1, arbitrary: anyJson },
    );
  }
  const inner = nullableValueOf(type, name, samples, depth);
  return fc.oneof(
    { weight: 10, arbitrary: inner },
    { weight: 1, arbitrary: fc.constant(null) },
    { weight: 1, arbitrary: anyJson },
  );
}

function nullableValueOf(
  type: Exclude<GraphQLInputType, { ofType: unknown }> | GraphQLInputType,
  name: string,
  samples: Samples,
  depth: number,
): fc.Arbitrary<unknown> {
  if (isNonNullType(type)) return valueOf(type, name, samples, depth);
  if (isListType(type)) return fc.array(valueOf(type.ofType, name, samples, depth), { maxLength: 3 });
  if (isEnumType(type)) {
    return fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...type.getValues().map((value) => value.name)) },
      { weight: 1, arbitrary: hostileString(name, {}) },
    );
  }
  if (isInputObjectType(type)) {
    const record = recordOf(Object.values(type.getFields()), samples, depth);
    // Now and then a field the type does not have.
    return fc.oneof(
      { weight: 8, arbitrary: record },
      { weight: 1, arbitrary: record.map((value) => ({ ...value, zzUnknownField: 'x' })) },
    );
  }
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
        return fc.oneof(
          samples[name] ?? fc.constantFrom(0, 1, 20, 100),
          fc.constantFrom(-1, 0, 2 ** 31 - 1, -(2 ** 31), 1_000_000),
          fc.integer(),
        );
      case 'Float':
        return fc.double({ noNaN: true, noDefaultInfinity: true });
      case 'Boolean':
        return samples[name] ? fc.oneof(samples[name], fc.boolean()) : fc.boolean();
      default:
        return hostileString(name, samples);
    }
  }
  return anyJson;
}

/** The smallest selection that still reads every scalar of the answer, two levels deep. */
function selectionOf(type: GraphQLOutputType, depth = 0): string {
  const named = getNamedType(type);
  if (!isObjectType(named)) return '';
  if (depth >= 2) return '{ __typename }';
  const parts = Object.values(named.getFields())
    .filter((field) => field.args.every((arg) => !isNonNullType(arg.type)))
    .map((field) => `${field.name} ${selectionOf(field.type, depth + 1)}`.trim());
  return `{ ${parts.join(' ')} }`;
}

function operationOf(
  kind: 'query' | 'mutation',
  field: GraphQLField<unknown, unknown>,
  samples: Samples,
): FuzzOperation {
  const declarations = field.args.map((arg) => `$${arg.name}: ${arg.type.toString()}`).join(', ');
  const argumentsText = field.args.map((arg) => `${arg.name}: $${arg.name}`).join(', ');
  const document =
    `${kind} Fuzz${declarations ? `(${declarations})` : ''} ` +
    `{ ${field.name}${argumentsText ? `(${argumentsText})` : ''} ${selectionOf(field.type)} }`;
  const variables = recordOf(field.args, samples, -1);
  const plausible = plausibleRecordOf(field.args, samples, -1);
  return { kind, field: field.name, document, variables, plausible };
}

/** Every query and mutation of the live schema (introspection aside), each with its document and arbitrary. */
export function schemaOperations(schema: GraphQLSchema, samples: Samples): FuzzOperation[] {
  const roots = [
    ['query', schema.getQueryType()],
    ['mutation', schema.getMutationType()],
  ] as const;
  return roots.flatMap(([kind, root]) =>
    root ? Object.values(root.getFields()).map((field) => operationOf(kind, field, samples)) : [],
  );
}
