import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { MAIL_KINDS } from '@telehealth/shared';

import { englishResources } from '../lib/i18n.ts';

// Every screen is in English and Spanish: each English namespace has its Spanish file with the same keys (plural
// variants by each language's own forms) and the same placeholders. English falls back silently, which is how
// whole screens once stayed English for Spanish readers.

const LOCALES_DIR = path.dirname(new URL(import.meta.url).pathname);
const OTHER_LANGUAGES = fs
  .readdirSync(LOCALES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory() && entry.name !== 'en')
  .map((entry) => entry.name);
const PLURAL = /^(.*)_(zero|one|two|few|many|other)$/;

type Tree = { [key: string]: unknown };

/** The English texts: the files of locales/en, and `shared`, which the app builds from the shared package. */
const english: Record<string, Tree> = { ...englishResources };
for (const file of fs.readdirSync(path.join(LOCALES_DIR, 'en'))) {
  const namespace = file.replace(/\.json$/, '');
  english[namespace] ??= JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, 'en', file), 'utf8')) as Tree;
}
const namespaces = Object.keys(english).sort();

function translation(language: string, namespace: string): Tree | undefined {
  const file = path.join(LOCALES_DIR, language, `${namespace}.json`);
  return fs.existsSync(file) ? (JSON.parse(fs.readFileSync(file, 'utf8')) as Tree) : undefined;
}

/** `a.b.c` → value (a list's items are `a.0`, `a.1`, …); a value that is not a text is kept for the test to name. */
function flatten(tree: Tree, prefix = '', into = new Map<string, unknown>()): Map<string, unknown> {
  for (const [key, value] of Object.entries(tree)) {
    if (value !== null && typeof value === 'object') flatten(value as Tree, `${prefix}${key}.`, into);
    else into.set(`${prefix}${key}`, value);
  }
  return into;
}

/** Plural variants by their base key: `a.count_one`, `a.count_other` → `a.count` → {one, other}. */
function pluralForms(keys: Iterable<string>): Map<string, Set<string>> {
  const forms = new Map<string, Set<string>>();
  for (const key of keys) {
    const match = PLURAL.exec(key);
    if (!match?.[1] || !match[2]) continue;
    forms.set(match[1], (forms.get(match[1]) ?? new Set()).add(match[2]));
  }
  return forms;
}

const baseKeys = (keys: Iterable<string>) => [...new Set([...keys].map((key) => PLURAL.exec(key)?.[1] ?? key))].sort();

/**
 * The plural forms a language needs for the counts a screen shows (0 to 1,000), by its own rules (Intl's, which
 * i18next uses too). Spanish has a third form, `many`, only for whole millions ("un millón de"); where it is
 * missing i18next takes `_other`, so it is allowed but not required.
 */
function requiredPluralForms(language: string): Set<string> {
  const rules = new Intl.PluralRules(language);
  return new Set(Array.from({ length: 1001 }, (_, count) => rules.select(count)));
}

/** `{{name}}`, `{{count, number}}`, `$t(other.key)` and `<tag>` (a component of <Trans>), sorted. */
function placeholders(text: unknown): string[] {
  return [...String(text).matchAll(/\{\{\s*([\w.]+)[^}]*\}\}|\$t\(([^),]+)|<\/?(\w+)\s*\/?>/g)]
    .map((match) => match[1] ?? match[2] ?? `<${match[3] ?? ''}>`)
    .sort();
}

describe.each(OTHER_LANGUAGES)('the %s translation', (language) => {
  const required = requiredPluralForms(language);
  const allowed = new Set<string>(new Intl.PluralRules(language).resolvedOptions().pluralCategories);

  it.each(namespaces)('has the %s namespace whole, with the same placeholders', (namespace) => {
    const tree = translation(language, namespace);
    expect(tree, `locales/${language}/${namespace}.json is missing`).toBeTypeOf('object');
    const source = flatten(english[namespace] ?? {});
    const target = flatten(tree ?? {});

    // The same texts, except that each plural text has the forms of its own language.
    const [have, need] = [baseKeys(target.keys()), baseKeys(source.keys())];
    expect({
      missing: need.filter((key) => !have.includes(key)),
      extra: have.filter((key) => !need.includes(key)),
    }).toEqual({ missing: [], extra: [] });
    const sourcePlurals = pluralForms(source.keys());
    for (const [key, forms] of pluralForms(target.keys())) {
      expect(sourcePlurals.has(key), `${key} is plural in ${language} only`).toBe(true);
      expect(
        [...forms].filter((form) => !allowed.has(form)),
        `${key}: forms ${language} does not have`,
      ).toEqual([]);
      expect(
        [...required].filter((form) => !forms.has(form)),
        `${key}: forms ${language} needs`,
      ).toEqual([]);
    }
    for (const key of sourcePlurals.keys()) {
      expect(target.has(key), `${key} is plural in English but not in ${language}`).toBe(false);
    }

    for (const [key, text] of target) {
      expect(typeof text === 'string' && text.trim() !== '', `${namespace}:${key} is not a text`).toBe(true);
      const plural = PLURAL.exec(key)?.[1];
      if (plural === undefined) {
        expect(placeholders(text), `${namespace}:${key}`).toEqual(placeholders(source.get(key)));
      } else {
        // A plural form may leave the number out ("one field"); every other placeholder stays.
        const englishText = source.get(source.has(key) ? key : `${plural}_other`);
        const withoutCount = (text: unknown) => placeholders(text).filter((name) => name !== 'count');
        expect(withoutCount(text), `${namespace}:${key}`).toEqual(withoutCount(englishText));
      }
    }
  });
});

describe('the English texts', () => {
  it.each(namespaces)('of %s have the plural forms of English', (namespace) => {
    for (const [key, forms] of pluralForms(flatten(english[namespace] ?? {}).keys())) {
      expect([...forms].sort(), key).toEqual(['one', 'other']);
    }
  });

  it('are all bundled by the app', () => {
    const files = fs.readdirSync(path.join(LOCALES_DIR, 'en')).map((file) => file.replace(/\.json$/, ''));
    expect(Object.keys(englishResources).sort()).toEqual([...files, 'shared'].sort());
  });

  it('name every kind of e-mail the server writes, for the outbox (Spanish by the key check above)', () => {
    const outbox = (english['access-review'] as { outbox: { kind: Record<string, string> } }).outbox;
    expect(Object.keys(outbox.kind).sort()).toEqual([...MAIL_KINDS].sort());
  });
});
