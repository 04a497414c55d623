/**
 * Turns a CMS / CDC NCHS ICD-10-CM code-descriptions file into the behavioural-health code list shipped in
 * icd10cm-behavioral.json. Pure functions only (no file system), so that scripts/icd10cm-behavioral.ts writes the
 * JSON with them and a unit test regenerates it with them.
 *
 * Two official layouts are read:
 * - the codes file (icd10cm-codes-YYYY.txt / icd10cm_codes_YYYY.txt): billable codes only, the code without its
 *   dot in columns 1-7, a space, then the long title;
 * - the order file (icd10cm-order-YYYY.txt / icd10cm_order_YYYY.txt): a 5-digit order number, the code in columns
 *   7-13, the billable flag (1) or header flag (0) in column 15, the short title in columns 17-76, the long title
 *   from column 78. Only billable lines are kept.
 */

export interface Icd10SourceEntry {
  /** Without the dot, as CMS writes it (F329). */
  readonly rawCode: string;
  /** The official long title. */
  readonly title: string;
}

export interface Icd10BehavioralFile {
  readonly source: string;
  readonly fiscalYear: number;
  readonly generatedBy: string;
  readonly codes: readonly (readonly [code: string, title: string])[];
}

export const ICD10CM_GENERATED_BY = 'scripts/icd10cm-behavioral.ts';

const ORDER_LINE = /^(\d{5}) ([A-Z0-9 ]{7}) ([01]) (.*)$/;
// The second character is a digit but in the congenital chapter's QA0 category (FY2026).
const CODES_LINE = /^([A-Z][0-9A-Z][0-9A-Z]{1,5}) +(\S.*)$/;

/** Reads either official layout; billable codes only. Throws on a line it cannot read. */
export function parseCmsCodeFile(text: string): Icd10SourceEntry[] {
  const entries: Icd10SourceEntry[] = [];
  const lines = text.split(/\r?\n/);
  lines.forEach((rawLine, index) => {
    const line = rawLine.trimEnd();
    if (line === '') return;
    const order = ORDER_LINE.exec(line);
    if (order) {
      const [, , code = '', billable, rest = ''] = order;
      if (billable !== '1') return;
      // Short title in the first 60 columns of the rest, one space, then the long title.
      const title = rest.length > 61 ? rest.slice(61).trim() : rest.trim();
      entries.push({ rawCode: code.trim(), title });
      return;
    }
    const codes = CODES_LINE.exec(line);
    if (codes) {
      const [, code = '', title = ''] = codes;
      entries.push({ rawCode: code, title: title.trim() });
      return;
    }
    throw new Error(`Line ${index + 1} is neither a CMS codes-file nor an order-file line: ${JSON.stringify(line)}`);
  });
  return entries;
}

/** F329 -> F32.9, F32A -> F32.A, Z630 -> Z63.0; a 3-character code stays as it is. */
export function formatIcd10Code(rawCode: string): string {
  const code = rawCode.trim().toUpperCase().replace('.', '');
  return code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code;
}

/**
 * The Z codes a behavioural-health practice uses, as prefixes of the dotted code. Z55-Z65 (social determinants of
 * health) and Z69-Z76 are whole categories; the rest are subcategories or single codes. Of Z87.89x only Z87.891
 * (personal history of nicotine dependence) is behavioural health; its siblings are not.
 */
export const BEHAVIORAL_Z_PREFIXES: readonly string[] = [
  'Z03.89',
  'Z04.6',
  'Z13.3',
  'Z13.4',
  ...range(55, 65).map((n) => `Z${n}.`),
  ...range(69, 76).map((n) => `Z${n}.`),
  'Z81.8',
  'Z86.5',
  'Z87.891',
  'Z91.1',
  'Z91.4',
  'Z91.5',
  'Z91.8',
];

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** F01-F99 (the mental, behavioural and neurodevelopmental chapter) or one of the Z prefixes above. */
export function isBehavioralHealthCode(dottedCode: string): boolean {
  if (/^F(0[1-9]|[1-9][0-9])/.test(dottedCode)) return true;
  return BEHAVIORAL_Z_PREFIXES.some((prefix) => dottedCode === prefix || dottedCode.startsWith(prefix));
}

/** Keeps the behavioural-health codes, dotted, sorted by code, each once (a repeated code must repeat its title). */
export function selectBehavioralCodes(entries: readonly Icd10SourceEntry[]): [string, string][] {
  const byCode = new Map<string, string>();
  for (const entry of entries) {
    const code = formatIcd10Code(entry.rawCode);
    if (!isBehavioralHealthCode(code)) continue;
    const known = byCode.get(code);
    if (known !== undefined && known !== entry.title) {
      throw new Error(`${code} has two titles: ${JSON.stringify(known)} and ${JSON.stringify(entry.title)}`);
    }
    byCode.set(code, entry.title);
  }
  return [...byCode.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
}

export function buildIcd10BehavioralFile(
  text: string,
  meta: { source: string; fiscalYear: number },
): Icd10BehavioralFile {
  return {
    source: meta.source,
    fiscalYear: meta.fiscalYear,
    generatedBy: ICD10CM_GENERATED_BY,
    codes: selectBehavioralCodes(parseCmsCodeFile(text)),
  };
}

/** One code per line, so that a new fiscal year's diff shows the codes that changed. */
export function serializeIcd10BehavioralFile(file: Icd10BehavioralFile): string {
  const head = [
    `  "source": ${JSON.stringify(file.source)},`,
    `  "fiscalYear": ${JSON.stringify(file.fiscalYear)},`,
    `  "generatedBy": ${JSON.stringify(file.generatedBy)},`,
  ];
  const codes = file.codes.map(([code, title]) => `    [${JSON.stringify(code)}, ${JSON.stringify(title)}]`);
  return ['{', ...head, '  "codes": [', codes.join(',\n'), '  ]', '}', ''].join('\n');
}
