/**
 * Writes packages/shared/src/clinical-codes/icd10cm-behavioral.json from an official CMS / CDC NCHS ICD-10-CM
 * code-descriptions file (codes file or order file): the billable codes of F01-F99 and of the Z codes a
 * behavioural-health practice uses, with their official long titles.
 *
 *   npx node scripts/icd10cm-behavioral.ts [input]            regenerate the JSON
 *   npx node scripts/icd10cm-behavioral.ts [input] --check    exit 1 when the committed JSON differs
 *
 * The input defaults to packages/shared/src/clinical-codes/icd10cm-source-excerpt.txt: the F and Z lines, unchanged, of the
 * FY2026 codes file (the whole file is 6.4 MB). A new fiscal year: run with the new full file as the input and
 * update SOURCE, FISCAL_YEAR and the excerpt together.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

import {
  buildIcd10BehavioralFile,
  serializeIcd10BehavioralFile,
} from '../packages/shared/src/clinical-codes/icd10cm-source.ts';

const ROOT = path.resolve(import.meta.dirname, '..');
const DEFAULT_INPUT = path.join(ROOT, 'packages/shared/src/clinical-codes/icd10cm-source-excerpt.txt');
const OUTPUT = path.join(ROOT, 'packages/shared/src/clinical-codes/icd10cm-behavioral.json');

const FISCAL_YEAR = 2026;
const SOURCE =
  'CDC NCHS / CMS ICD-10-CM FY2026 (effective 2025-10-01) code descriptions file icd10cm-codes-2026.txt from ' +
  "'icd10cm-Code Descriptions-2026.zip' (public domain), SHA-256 " +
  'a7e2a77e4627ed55c8afe2b8a7ae22efcbab6b6b162d96cf145213772c1246ba, taken verbatim from GitHub ' +
  'sandeepsms/SphereHealth-HIS-1.0 at commit 45e6201fb397b401d01cbedd7b06eef78cad8cb2, ' +
  'Backend/data/icd10cm-codes-2026.txt.gz; F and Z lines kept in packages/shared/src/clinical-codes/icd10cm-source-excerpt.txt';

function main(argv: readonly string[]): number {
  const check = argv.includes('--check');
  const inputs = argv.filter((arg) => arg !== '--check');
  if (inputs.length > 1) {
    console.error('Usage: npx node scripts/icd10cm-behavioral.ts [cms-codes-or-order-file] [--check]');
    return 2;
  }
  const input = inputs[0] ? path.resolve(inputs[0]) : DEFAULT_INPUT;
  const file = buildIcd10BehavioralFile(readFileSync(input, 'utf8'), { source: SOURCE, fiscalYear: FISCAL_YEAR });
  const text = serializeIcd10BehavioralFile(file);
  const counts = `${file.codes.length} codes (${file.codes.filter(([c]) => c.startsWith('F')).length} F, ${
    file.codes.filter(([c]) => c.startsWith('Z')).length
  } Z)`;

  if (check) {
    let committed = '';
    try {
      committed = readFileSync(OUTPUT, 'utf8');
    } catch {
      // A missing file differs like any other.
    }
    if (committed !== text) {
      console.error(`${path.relative(ROOT, OUTPUT)} is not what the script generates from ${input}: run it again.`);
      return 1;
    }
    console.log(`${path.relative(ROOT, OUTPUT)} is up to date: ${counts}.`);
    return 0;
  }
  writeFileSync(OUTPUT, text);
  console.log(`Wrote ${path.relative(ROOT, OUTPUT)}: ${counts}.`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
