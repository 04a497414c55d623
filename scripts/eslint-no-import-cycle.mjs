// @ts-check
// An ESLint rule: no import circle, type-only imports included (decision 053).
//
// import-x/no-cycle skips `import type` (and type-only specifiers) with no option to count them, yet a circle of
// types is still a circle of meaning: two files that cannot be understood, moved or split one without the
// other. This rule follows every relative import the TypeScript compiler sees in a file (values, types,
// `export ... from`, `import()`, `import('...').Type`, `declare module '...'` augmentations), reads each file
// once per run (again when it changed), and reports an import whose target leads back to the importing file,
// with the circle's route. It is cheap: a file's imports are read with `ts.preProcessFile`, not parsed for types.
import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/** @type {Map<string, { mtimeMs: number, imports: string[] }>} */
const cache = new Map();

/**
 * The file a relative specifier names, or null (a package, or no such file).
 * @param {string} from
 * @param {string} specifier
 * @returns {string | null}
 */
function resolveRelative(from, specifier) {
  if (!specifier.startsWith('./') && !specifier.startsWith('../')) return null;
  const base = path.resolve(path.dirname(from), specifier);
  for (const candidate of [base, `${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts')]) {
    try {
      if (fs.statSync(candidate).isFile()) return candidate;
    } catch {
      // not this one
    }
  }
  return null;
}

/**
 * The files a file imports (relative imports only), from its text.
 * @param {string} file
 * @param {string} text
 * @returns {string[]}
 */
function importsIn(file, text) {
  const { importedFiles } = ts.preProcessFile(text, true, true);
  const targets = new Set();
  for (const { fileName } of importedFiles) {
    const target = resolveRelative(file, fileName);
    if (target) targets.add(target);
  }
  return [...targets];
}

/**
 * @param {string} file
 * @returns {string[]}
 */
function importsOf(file) {
  let mtimeMs;
  try {
    mtimeMs = fs.statSync(file).mtimeMs;
  } catch {
    return [];
  }
  const cached = cache.get(file);
  if (cached && cached.mtimeMs === mtimeMs) return cached.imports;
  const imports = importsIn(file, fs.readFileSync(file, 'utf8'));
  cache.set(file, { mtimeMs, imports });
  return imports;
}

/**
 * The route from `start` back to `goal` through files under `root`, or null.
 * @param {string} start
 * @param {string} goal
 * @param {string} root
 * @returns {string[] | null}
 */
function routeBack(start, goal, root) {
  /** @type {Map<string, string | null>} */
  const cameFrom = new Map([[start, null]]);
  const queue = [start];
  while (queue.length > 0) {
    const file = /** @type {string} */ (queue.shift());
    for (const next of importsOf(file)) {
      if (next === goal) {
        const route = [file];
        for (let at = cameFrom.get(file); at; at = cameFrom.get(at)) route.unshift(at);
        return route;
      }
      if (cameFrom.has(next) || !next.startsWith(root)) continue;
      cameFrom.set(next, file);
      queue.push(next);
    }
  }
  return null;
}

/** @type {import('eslint').Rule.RuleModule} */
const noImportCycle = {
  meta: {
    type: 'problem',
    docs: { description: 'No import circle between the files under a root, type-only imports included.' },
    schema: [
      {
        type: 'object',
        properties: { root: { type: 'string' } },
        additionalProperties: false,
      },
    ],
    messages: {
      cycle: 'Import circle (type-only imports count): {{route}}. Move what both sides need to a third file.',
    },
  },
  create(context) {
    const file = context.physicalFilename;
    const options = /** @type {{ root?: string }} */ (context.options[0] ?? {});
    const root = path.resolve(context.cwd, options.root ?? '.') + path.sep;
    if (!file.startsWith(root)) return {};
    const relative = (/** @type {string} */ name) => path.relative(context.cwd, name);

    /** @param {import('estree').Node & { source?: unknown, argument?: unknown }} node */
    const check = (node) => {
      // The specifier's literal: `import ... from '...'`, `export ... from '...'`, `import('...')`,
      // `import('...').Type` (TSImportType's argument), `declare module '...'` (its id).
      const literal = /** @type {{ type?: string, value?: unknown, literal?: { value?: unknown } } | undefined} */ (
        node.source ?? node.argument
      );
      const specifier =
        literal?.type === 'Literal'
          ? literal.value
          : literal?.type === 'TSLiteralType'
            ? literal.literal?.value
            : undefined;
      if (typeof specifier !== 'string') return;
      const target = resolveRelative(file, specifier);
      if (!target || target === file || !target.startsWith(root)) return;
      const route = routeBack(target, file, root);
      if (route)
        context.report({
          node,
          messageId: 'cycle',
          data: { route: [file, ...route, file].map(relative).join(' -> ') },
        });
    };
    return {
      ImportDeclaration: check,
      ExportNamedDeclaration: check,
      ExportAllDeclaration: check,
      ImportExpression: check,
      TSImportType: check,
      /** @param {any} node */
      TSModuleDeclaration(node) {
        if (node.id?.type === 'Literal') check({ ...node, source: node.id });
      },
    };
  },
};

export default { meta: { name: 'telehealth-import-cycles' }, rules: { 'no-import-cycle': noImportCycle } };
