// @ts-check
// Lint for the whole monorepo: one flat config, type information from each workspace's tsconfig.json.
// The import boundaries below are the architecture written down (see /work/shared/STYLE.md): the shared
// package imports no app, the apps never import each other, and a web feature never imports another feature.
import { readdirSync } from 'node:fs';
import path from 'node:path';

import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import { createNodeResolver, importX } from 'eslint-plugin-import-x';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import importCycles from './scripts/eslint-no-import-cycle.mjs';

const root = import.meta.dirname;

/**
 * Sub-folders of a directory, or none when it does not exist yet.
 * @param {string} relativeDir
 * @returns {string[]}
 */
function listFolders(relativeDir) {
  try {
    return readdirSync(path.join(root, relativeDir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

const WEB_SRC = 'apps/web/src';
// Folders of the web app that every feature may use but that may use no feature (bulletproof-react).
const WEB_SHARED_FOLDERS = ['components', 'hooks', 'lib', 'utils', 'types', 'config', 'stores', 'testing', 'i18n'];

// One zone per feature folder, read at each run so that a new feature is covered without editing this file.
const featureZones = listFolders(`${WEB_SRC}/features`).map((feature) => ({
  target: `./${WEB_SRC}/features/${feature}`,
  from: `./${WEB_SRC}/features`,
  except: [`./${feature}`],
  message:
    'A feature never imports another feature: compose features in src/app, share code through src/components, src/hooks or src/lib.',
}));

// Testing Library's queries (getByRole, findAllByText, queryByLabelText, ...), as an esquery regular expression.
const TESTING_QUERY = '/^(get|find|query)(All)?By/';

const boundaryZones = [
  {
    target: './packages/shared',
    from: ['./apps/server', './apps/web', './e2e'],
    message: 'packages/shared is imported by the apps; it never imports them.',
  },
  {
    target: './apps/server',
    from: './apps/web',
    message: 'The server never imports the web app: share through @telehealth/shared.',
  },
  {
    target: './apps/web',
    from: './apps/server',
    message: 'The web app never imports the server: share through @telehealth/shared.',
  },
  {
    // The shared package's messages module is what every domain file builds on; it imports none of them (the
    // message catalogue collects the domains' messages, and the import-cycle rule keeps that arrow one-way).
    target: './packages/shared/src/messages.ts',
    from: './packages/shared/src',
    message: "messages.ts is the shared package's base: it imports no other file of the package.",
  },
  ...featureZones,
  {
    target: `./${WEB_SRC}/features`,
    from: `./${WEB_SRC}/app`,
    message: 'Features are composed by src/app; a feature never imports src/app.',
  },
  {
    target: WEB_SHARED_FOLDERS.map((folder) => `./${WEB_SRC}/${folder}`),
    from: [`./${WEB_SRC}/features`, `./${WEB_SRC}/app`],
    message: 'Shared web code (components, hooks, lib, ...) is used by features and never uses them.',
  },
];

const SERVER_SRC = 'apps/server/src';
// Folders of the server that are not domains: cross-cutting set-up every domain uses (the caller's access, the
// audit trail's writer, the database, keys, jobs, HTTP and GraphQL plumbing, the module registry) and the
// composition roots that may reach any domain (commands, demo data, the web app's files). Every other folder
// is a domain (decision 053), so a new domain folder is covered without editing this file.
const SERVER_SHARED_FOLDERS = [
  'access',
  'audit',
  'cli',
  'db',
  'demo',
  'graphql',
  'http',
  'jobs',
  'keys',
  'modules',
  'plugins',
  'search',
  'web',
];
// Repositories every domain may use: the audit trail's writer, accounts and patients (users/ and patients/ are the
// one place for the queries on their tables, which every clinical domain hangs on: issue 26 point 2, decision 060),
// and providers (a provider record is the provider account's other half, with the account's id: decision 020;
// whether an id is an active provider is asked by every domain that names one).
const SERVER_SHARED_REPOSITORIES = ['audit', 'users', 'patients', 'providers'];
// Single repositories every domain may use: ending sessions (every path that ends one goes through it, and it tells
// every instance's sockets; decision 017).
const SERVER_SHARED_REPOSITORY_FILES = ['auth/sessions.repository.ts'];
// Imports of another domain's repository that were there when the rule came (decision 053). The list only
// shrinks: the caller-bound scope (issue 26, point 1) replaces them. A new file, or a new import, is refused.
/** @type {Record<string, string[]>} */
const KNOWN_FOREIGN_REPOSITORIES = {
  'notes/notes.service.ts': ['appointments/appointments.repository.ts'],
  'portal-records/portal-records.service.ts': ['notes/notes.repository.ts'],
};

// The tables whose every query lives in their owner's repositories (decision 060): `patients` (the repositories of
// patients/) and `users` (declared in auth/auth.table.ts beside better-auth's tables, queried in users/). Another file
// may name them only to declare a foreign key (*.table.ts); it composes the repositories' building blocks instead
// (`patientRecords`, `userAccounts`, `userNameOf`, ...).
const OWNED_TABLE_FOLDERS = ['users', 'patients'];
const OWNED_TABLE_PATTERNS = [
  {
    regex: '(^|/)patients/[^/]+\\.table\\.ts$',
    message:
      "The patients table is queried in patients/'s repositories only (patients.repository.ts, patient-accounts.repository.ts): compose their building blocks (patientRecords, patientIdsOfAccount, ...) or call them (decision 060).",
  },
  {
    regex: '(^|/)auth\\.table\\.ts$',
    importNames: ['users'],
    message:
      'The users table is queried in users/users.repository.ts only: compose its building blocks (userAccounts, userNameOf, isActiveUser, ...) or call it (decision 060).',
  },
];
// Files that still name `users` or `patients` outside their owners, and why (decision 060). The list only shrinks.
const KNOWN_OWNED_TABLE_IMPORTS = [
  // better-auth's adapter reads and writes its tables, `users` among them, through this schema.
  'auth/auth.ts',
  // The registries of every table's sealed columns and typed text: they name each table's columns, query none.
  'keys/encrypted-columns.ts',
  'stored-text/stored-text.ts',
];

// A caller's audit entries are written through its scope, always in the same shape (decision 054): only the audit
// trail itself, the scope and the checkpoint import appendAuditEntry.
const AUDIT_WRITER_PATTERN = {
  regex: '(^|/)audit/audit\\.repository\\.ts$',
  importNames: ['appendAuditEntry'],
  message:
    "A caller's audit entries are written through its scope: scopeOf(db, caller).audit, actorScope or systemScope (access/scope.ts, decision 054).",
};

/** @param {string} text */
const escapeRegex = (text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The server's import layers for the files of one domain (or one file of it): another domain's repository is
 * out of reach (but for `allowed`); GraphQL and route files also reach no repository, table, `db/` or query
 * builder (type-only imports of their own domain's row shapes are fine: they read no data); with `ownedTables`,
 * the `users` and `patients` tables are out of reach too; appendAuditEntry always is.
 * @param {string} domain
 * @param {string[]} allowed
 * @param {{ apiLayer?: boolean, ownedTables?: boolean }} options
 */
function serverLayerPatterns(domain, allowed, { apiLayer = false, ownedTables = false }) {
  const ownOrShared = [domain, ...SERVER_SHARED_REPOSITORIES].map(escapeRegex).join('|');
  const reachable = [...allowed, ...SERVER_SHARED_REPOSITORY_FILES];
  const known = `(?!(?:${reachable.map(escapeRegex).join('|')})$)`;
  /** @type {{ regex: string, message: string, allowTypeImports?: boolean, importNames?: string[] }[]} */
  const patterns = [
    {
      regex: `^\\.\\./(?!(?:${ownOrShared})/)${known}[^/]+/[^/]+\\.repository\\.ts$`,
      message:
        "A domain never imports another domain's repository: ask its service, or reach the record through the caller's scope (decision 053).",
    },
  ];
  if (apiLayer)
    patterns.push({
      regex: '(^\\./[^/]+\\.repository|\\.table)\\.ts$|(^|/)db/|^drizzle-orm|^pg$',
      allowTypeImports: true,
      message:
        'GraphQL and route files reach data through the services only: no repository, table, db/ or query builder import (decision 053).',
    });
  if (ownedTables && !OWNED_TABLE_FOLDERS.includes(domain)) patterns.push(...OWNED_TABLE_PATTERNS);
  patterns.push(AUDIT_WRITER_PATTERN);
  return patterns;
}

const serverDomains = listFolders(SERVER_SRC).filter((folder) => !SERVER_SHARED_FOLDERS.includes(folder));
const API_FILES = ['*.graphql.ts', '*.routes.ts'];
const serverLayerConfigs = serverDomains.flatMap((domain) => {
  const inDomain = (/** @type {string} */ file) => file.startsWith(`${domain}/`);
  const knownFiles = [
    ...new Set([...Object.keys(KNOWN_FOREIGN_REPOSITORIES), ...KNOWN_OWNED_TABLE_IMPORTS].filter(inDomain)),
  ];
  const rule = (
    /** @type {string[]} */ allowed,
    /** @type {{ apiLayer?: boolean, ownedTables?: boolean }} */ options,
  ) => ({
    '@typescript-eslint/no-restricted-imports': ['error', { patterns: serverLayerPatterns(domain, allowed, options) }],
  });
  return [
    {
      name: `telehealth/server-layers/${domain}`,
      files: [`${SERVER_SRC}/${domain}/**/*.ts`],
      rules: rule([], { ownedTables: true }),
    },
    {
      // A table may name `users` or `patients` to declare a foreign key.
      name: `telehealth/server-layers/${domain}/tables`,
      files: [`${SERVER_SRC}/${domain}/**/*.table.ts`],
      rules: rule([], {}),
    },
    ...knownFiles.map((file) => ({
      name: `telehealth/server-layers/${file}`,
      files: [`${SERVER_SRC}/${file}`],
      rules: rule(KNOWN_FOREIGN_REPOSITORIES[file] ?? [], { ownedTables: !KNOWN_OWNED_TABLE_IMPORTS.includes(file) }),
    })),
    {
      name: `telehealth/server-layers/${domain}/api`,
      files: API_FILES.map((pattern) => `${SERVER_SRC}/${domain}/${pattern}`),
      rules: rule([], { apiLayer: true, ownedTables: true }),
    },
  ];
});
// The folders that are not domains (and the files at the top of src/) name neither table either.
serverLayerConfigs.push({
  name: 'telehealth/server-layers/shared-folders',
  files: [`${SERVER_SRC}/*.ts`, ...SERVER_SHARED_FOLDERS.map((folder) => `${SERVER_SRC}/${folder}/**/*.ts`)],
  ignores: [`${SERVER_SRC}/**/*.table.ts`, ...KNOWN_OWNED_TABLE_IMPORTS.map((file) => `${SERVER_SRC}/${file}`)],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      { patterns: [...OWNED_TABLE_PATTERNS, AUDIT_WRITER_PATTERN] },
    ],
  },
});
// The audit trail's own files, the scope and the checkpoint write entries of any shape.
serverLayerConfigs.push({
  name: 'telehealth/server-layers/audit-writers',
  files: [`${SERVER_SRC}/audit/**/*.ts`, `${SERVER_SRC}/access/scope.ts`, `${SERVER_SRC}/access/authorize.ts`],
  ignores: [`${SERVER_SRC}/**/*.table.ts`],
  rules: { '@typescript-eslint/no-restricted-imports': ['error', { patterns: OWNED_TABLE_PATTERNS }] },
});

export default defineConfig(
  {
    name: 'telehealth/ignores',
    ignores: [
      '**/node_modules/',
      '**/dist/',
      '**/build/',
      '**/coverage/',
      '**/data/',
      '**/.data/',
      '**/*.tsbuildinfo',
      'apps/server/drizzle/',
      'e2e/playwright-report/',
      'e2e/test-results/',
      '**/playwright-report/',
      '**/test-results/',
      '**/.vite/',
      '**/tmp/',
    ],
  },

  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,

  {
    name: 'telehealth/typescript',
    languageOptions: {
      ecmaVersion: 2024,
      sourceType: 'module',
      globals: { ...globals.node },
      parserOptions: {
        projectService: {
          // Files that belong to no workspace tsconfig.json (this file, root scripts and tool configs). They
          // run in Node, so they get the server's compiler options (the base config plus Node's types; since
          // TypeScript 6 no @types package is included unless listed).
          allowDefaultProject: [
            '*.js',
            '*.mjs',
            '*.ts',
            'scripts/*.mjs',
            'scripts/*.ts',
            '{apps,packages}/*/*.config.{js,mjs,cjs}',
          ],
          defaultProject: 'apps/server/tsconfig.json',
        },
        tsconfigRootDir: root,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'separate-type-imports' },
      ],
      '@typescript-eslint/no-import-type-side-effects': 'error',
      // A domain adds its members to a registry interface by declaration merging (decision 053):
      // `interface TaskSchemas extends AppointmentTaskSchemas {}`.
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'with-single-extends' }],
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // JSX handlers such as onClick={async () => ...} are fine; a promise passed anywhere else is not.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }],
    },
  },

  {
    // Plain JavaScript (root scripts, tool configs) cannot state types without JSDoc casts, so values from
    // untyped APIs (JSON.parse, pg rows) are `any` there; the promise and import rules still apply.
    name: 'telehealth/plain-javascript',
    files: ['**/*.{js,mjs,cjs}'],
    rules: {
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
    },
  },

  {
    name: 'telehealth/import-boundaries',
    plugins: { 'import-x': importX },
    settings: {
      // TypeScript files are parsed (without type information) when import-x/no-cycle follows imports.
      'import-x/extensions': ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs'],
      'import-x/external-module-folders': ['node_modules', 'node_modules/@types'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts', '.tsx', '.mts', '.cts'] },
      'import-x/resolver-next': [
        createNodeResolver({
          extensions: ['.ts', '.tsx', '.mts', '.cts', '.js', '.jsx', '.mjs', '.cjs', '.json'],
          conditionNames: ['types', 'import', 'node', 'browser', 'default'],
          // Follows each file's tsconfig.json, so that path aliases (if any are added) resolve too.
          tsconfig: 'auto',
        }),
      ],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { basePath: root, zones: boundaryZones }],
      'import-x/no-self-import': 'error',
      'import-x/no-duplicates': 'error',
      // Circles in the web app (type-only imports do not count here; the server and the shared package have
      // the stricter rule below).
      'import-x/no-cycle': ['error', { ignoreExternal: true }],
    },
  },

  {
    // No import circle, type-only imports included (decision 053): import-x/no-cycle cannot count those.
    name: 'telehealth/import-cycles',
    files: ['apps/server/**/*.ts', 'packages/shared/**/*.ts'],
    plugins: { telehealth: importCycles },
    rules: {
      'import-x/no-cycle': 'off',
      'telehealth/no-import-cycle': ['error', { root: '.' }],
    },
  },

  ...serverLayerConfigs,

  {
    name: 'telehealth/shared-package',
    files: ['packages/shared/**/*.{ts,tsx,js,mjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['@telehealth/server', '@telehealth/server/*', '@telehealth/web', '@telehealth/web/*'],
              message: 'packages/shared is imported by the apps; it never imports them.',
            },
            {
              group: ['@telehealth/e2e', '@telehealth/e2e/*'],
              message: 'packages/shared never imports the browser tests.',
            },
          ],
        },
      ],
    },
  },

  {
    name: 'telehealth/server',
    files: ['apps/server/**/*.{ts,js,mjs}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@telehealth/web', '@telehealth/web/*'], message: 'The server never imports the web app.' },
          ],
        },
      ],
    },
  },

  {
    name: 'telehealth/web',
    files: ['apps/web/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: {
      globals: { ...globals.browser },
    },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { group: ['@telehealth/server', '@telehealth/server/*'], message: 'The web app never imports the server.' },
          ],
        },
      ],
    },
  },

  {
    // `expect(screen.getByText(…)).toBeDefined()` cannot fail: getBy and findBy throw when nothing matches, and
    // a query answers an element or null, never undefined. Assert what the user sees or can do instead
    // (jest-dom: toBeVisible, toHaveTextContent, toBeEnabled, toHaveAttribute, ...).
    name: 'telehealth/web-tests',
    files: ['apps/web/**/*.test.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        ...[
          "CallExpression[callee.property.name=/^(toBeDefined|toBeTruthy)$/][callee.object.callee.name='expect']",
          "CallExpression[callee.property.name=/^(toBeNull|toBeUndefined|toBeFalsy)$/][callee.object.property.name='not'][callee.object.object.callee.name='expect']",
        ].map((matcher) => ({
          selector: `${matcher}:has(CallExpression:matches([callee.property.name=${TESTING_QUERY}], [callee.name=${TESTING_QUERY}]))`,
          message:
            'This assertion cannot fail: a query throws or answers an element. Assert what the user sees or can do (toBeVisible, toHaveTextContent, toBeEnabled, toHaveAttribute, ...).',
        })),
      ],
    },
  },

  {
    // Vitest silently never runs an `afterAll` registered inside a hook, a test or a helper function: what it was to
    // close stays open (decision 055). Record the clean-up with `afterFile` (apps/server/test/file-cleanup.ts).
    name: 'telehealth/server-tests',
    files: ['apps/server/test/**/*.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: [
            "CallExpression[callee.name=/^(beforeAll|beforeEach|afterEach|it|test)$/] CallExpression[callee.name='afterAll']",
            ":matches(FunctionDeclaration, VariableDeclarator > :function) CallExpression[callee.name='afterAll']",
          ].join(', '),
          message:
            'This afterAll would never run (it is registered while the file runs, not while it is collected): use afterFile from test/file-cleanup.ts.',
        },
      ],
    },
  },

  {
    // Tool configs run in Node even inside the web app.
    name: 'telehealth/web-tool-configs',
    files: ['apps/web/*.config.{ts,js,mjs,cjs}'],
    languageOptions: { globals: { ...globals.node } },
  },
);
