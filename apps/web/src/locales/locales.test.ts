import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

import { sharedTexts } from '../lib/shared-texts.ts';
import { DASHBOARD_HEADINGS, PATIENT_LABELS } from '@telehealth/shared';

// Every screen is in English and Spanish: each English namespace has its Spanish file with the same keys (plural
// variants by each language's own forms) and the same placeholders. English falls back silently, which is how
// whole screens once stayed English for Spanish readers.

const LOCALES_DIR = path.dirname(new URL(import.meta.url).pathname);
const PLURAL = /_(zero|one|two|few|many|other)$/;

type Tree = { [key: string]: string | Tree };

function read(language: string, namespace: string): Tree {
  return JSON.parse(fs.readFileSync(path.join(LOCALES_DIR, language, `${namespace}.json`), 'utf8')) as Tree;
}

/** `a.b.c` → text, with plural variants folded into their base key (English and Spanish share one and other). */
function flatten(tree: Tree, prefix = '', into = new Map<string, string>()): Map<string, string> {
  for (const [key, value] of Object.entries(tree)) {
    const name = `${prefix}${key}`;
    if (typeof value === 'string') into.set(name, value);
    else flatten(value, `${name}.`, into);
  }
  return into;
}

const placeholders = (text: string) =>
  [...text.matchAll(/\{\{\s*(\w+)\s*\}\}|<(\w+)>/g)].map((m) => m[1] ?? m[2]).sort();

const namespaces = fs
  .readdirSync(path.join(LOCALES_DIR, 'en'))
  .filter((file) => file.endsWith('.json'))
  .map((file) => file.replace(/\.json$/, ''));

describe('Spanish', () => {
  it.each(namespaces)('has every key of the %s namespace, with the same placeholders', (namespace) => {
    const english = flatten(read('en', namespace));
    const spanish = flatten(read('es', namespace));
    expect([...spanish.keys()].sort()).toEqual([...english.keys()].sort());
    for (const [key, text] of english) {
      expect(placeholders(spanish.get(key) ?? ''), `${namespace}:${key}`).toEqual(placeholders(text));
    }
    // Plural keys come in pairs in both languages.
    for (const key of english.keys()) {
      if (PLURAL.test(key)) expect(spanish.has(key.replace(PLURAL, '_other')), key).toBe(true);
    }
  });

  it('has every section the shared package gives the browser', () => {
    const english = flatten({
      ...sharedTexts,
      dashboardHeadings: DASHBOARD_HEADINGS,
      patientLabels: PATIENT_LABELS,
    });
    const spanish = flatten(read('es', 'shared'));
    expect([...english.keys()].filter((key) => !spanish.has(key))).toEqual([]);
  });
});
