import { describe, expect, it } from 'vitest';
import excerpt from './icd10cm-source-excerpt.txt?raw';
import data from './icd10cm-behavioral.json' with { type: 'json' };
import { findIcd10Code, ICD10_CODE_PATTERN, ICD10CM_SOURCE, normalizeIcd10Code, searchIcd10Codes } from './icd10cm.ts';
import {
  buildIcd10BehavioralFile,
  formatIcd10Code,
  isBehavioralHealthCode,
  parseCmsCodeFile,
  serializeIcd10BehavioralFile,
} from './icd10cm-source.ts';

const codes = data.codes.map(([code]) => code!);

describe('the shipped ICD-10-CM list', () => {
  it('names its source and fiscal year', () => {
    expect(ICD10CM_SOURCE.fiscalYear).toBe(2026);
    expect(ICD10CM_SOURCE.source).toContain('icd10cm-codes-2026.txt');
    expect(data.generatedBy).toBe('scripts/icd10cm-behavioral.ts');
  });

  it('carries the official titles', () => {
    expect(findIcd10Code('F32.A')?.title).toBe('Depression, unspecified');
    expect(findIcd10Code('F43.10')?.title).toBe('Post-traumatic stress disorder, unspecified');
    expect(findIcd10Code('F41.1')?.title).toBe('Generalized anxiety disorder');
    expect(findIcd10Code('F90.2')?.title).toBe('Attention-deficit hyperactivity disorder, combined type');
    expect(findIcd10Code('Z63.0')?.title).toBe('Problems in relationship with spouse or partner');
  });

  it('is sorted by code, each code once', () => {
    expect(codes).toEqual([...codes].sort());
    expect(new Set(codes).size).toBe(codes.length);
  });

  it('holds only well-formed F01-F99 and behavioural-health Z codes', () => {
    for (const code of codes) {
      expect(code).toMatch(ICD10_CODE_PATTERN);
      expect(isBehavioralHealthCode(code), code).toBe(true);
    }
    expect(codes.filter((code) => code.startsWith('F')).length).toBeGreaterThan(800);
    expect(codes.some((code) => code.startsWith('Z'))).toBe(true);
    expect(codes.every((code) => /^[FZ]/.test(code))).toBe(true);
  });

  it('is billable codes only: no category that has codes below it', () => {
    for (const code of codes) expect(codes.some((other) => other !== code && other.startsWith(code))).toBe(false);
    expect(findIcd10Code('F32')).toBeNull();
    expect(findIcd10Code('F43.1')).toBeNull();
  });

  it('is what the script generates from the committed excerpt of the official file', () => {
    const regenerated = buildIcd10BehavioralFile(excerpt, { source: data.source, fiscalYear: data.fiscalYear });
    expect(regenerated).toEqual(data);
    expect(JSON.parse(serializeIcd10BehavioralFile(regenerated))).toEqual(data);
  });
});

describe('code shape', () => {
  it('accepts dotted codes and refuses other shapes', () => {
    for (const code of ['F32.9', 'F32.A', 'F10.20', 'Z63.0', 'F01.511', 'F99', 'QA0.0101']) {
      expect(code).toMatch(ICD10_CODE_PATTERN);
    }
    for (const code of ['f32.9', 'F329', 'F3', '32.9', 'F32.', 'F32.12345', 'F32 9', 'F32-9']) {
      expect(code).not.toMatch(ICD10_CODE_PATTERN);
    }
  });

  it('normalizes case, spaces and the missing dot', () => {
    expect(normalizeIcd10Code(' f329 ')).toBe('F32.9');
    expect(normalizeIcd10Code('f32a')).toBe('F32.A');
    expect(normalizeIcd10Code('F01.511')).toBe('F01.511');
    expect(normalizeIcd10Code('f99')).toBe('F99');
    expect(formatIcd10Code('F01511')).toBe('F01.511');
  });

  it('finds a code however it is typed, and nothing for an unknown code', () => {
    expect(findIcd10Code('f329')).toEqual({
      code: 'F32.9',
      title: 'Major depressive disorder, single episode, unspecified',
    });
    expect(findIcd10Code('F32.Z')).toBeNull();
    expect(findIcd10Code('J45.909')).toBeNull();
    expect(findIcd10Code('')).toBeNull();
  });
});

describe('search', () => {
  it('matches a code prefix with or without the dot, in code order', () => {
    const f32 = searchIcd10Codes('f32', 50).map((entry) => entry.code);
    expect(f32.length).toBeGreaterThan(5);
    expect(f32.every((code) => code.startsWith('F32.'))).toBe(true);
    expect(f32).toEqual([...f32].sort());
    expect(searchIcd10Codes('F43.1').map((entry) => entry.code)).toEqual(searchIcd10Codes('f431').map((e) => e.code));
    expect(searchIcd10Codes('F43.1').map((entry) => entry.code)).toContain('F43.10');
  });

  it('matches every word of the query within the title', () => {
    const results = searchIcd10Codes('major depress recur');
    expect(results.length).toBeGreaterThan(0);
    expect(results.every((entry) => entry.code.startsWith('F33.'))).toBe(true);
    expect(searchIcd10Codes('GENERALIZED anxiety')[0]).toEqual({
      code: 'F41.1',
      title: 'Generalized anxiety disorder',
    });
  });

  it('puts code-prefix matches before title matches', () => {
    // 'f4' is a code prefix of F40-F49 and no title word starts a match before them.
    const results = searchIcd10Codes('z63', 100);
    expect(results[0]?.code.startsWith('Z63.')).toBe(true);
    const mixed = searchIcd10Codes('z', 5);
    expect(mixed.every((entry) => entry.code.startsWith('Z'))).toBe(true);
  });

  it('honours the limit and returns nothing for an empty query', () => {
    expect(searchIcd10Codes('f', 7)).toHaveLength(7);
    expect(searchIcd10Codes('disorder')).toHaveLength(20);
    expect(searchIcd10Codes('   ')).toEqual([]);
    expect(searchIcd10Codes('no such words anywhere')).toEqual([]);
  });

  it('returns copies, so a caller cannot change the list', () => {
    const [first] = searchIcd10Codes('F32.A');
    first!.title = 'changed';
    expect(findIcd10Code('F32.A')?.title).toBe('Depression, unspecified');
  });
});

describe('reading the official layouts', () => {
  const codesFile = [
    'F0150   Vascular dementia, unspecified severity, without behavioral disturbance',
    'F329    Major depressive disorder, single episode, unspecified',
    'F32A    Depression, unspecified',
    'J45909  Unspecified asthma, uncomplicated',
    'Z87891  Personal history of nicotine dependence',
    'Z87892  Personal history of anaphylaxis',
    'Z9181   History of falling',
    'Z631    Problems in relationship with in-laws',
    '',
  ].join('\r\n');

  const orderLine = (order: number, code: string, billable: 0 | 1, title: string) =>
    `${String(order).padStart(5, '0')} ${code.padEnd(7)} ${billable} ${title.slice(0, 60).padEnd(60)} ${title}`;
  const orderFile = [
    orderLine(1, 'F32', 0, 'Depressive episode'),
    orderLine(2, 'F329', 1, 'Major depressive disorder, single episode, unspecified'),
    orderLine(3, 'F32A', 1, 'Depression, unspecified'),
    orderLine(4, 'Z63', 0, 'Other problems related to primary support group, including family circumstances'),
    orderLine(5, 'Z631', 1, 'Problems in relationship with in-laws'),
  ].join('\n');

  it('keeps F and the listed Z codes, dotted and sorted, from a codes file', () => {
    expect(buildIcd10BehavioralFile(codesFile, { source: 'fixture', fiscalYear: 2026 }).codes).toEqual([
      ['F01.50', 'Vascular dementia, unspecified severity, without behavioral disturbance'],
      ['F32.9', 'Major depressive disorder, single episode, unspecified'],
      ['F32.A', 'Depression, unspecified'],
      ['Z63.1', 'Problems in relationship with in-laws'],
      ['Z87.891', 'Personal history of nicotine dependence'],
      ['Z91.81', 'History of falling'],
    ]);
  });

  it('keeps only the billable lines of an order file, with their long titles', () => {
    expect(parseCmsCodeFile(orderFile)).toEqual([
      { rawCode: 'F329', title: 'Major depressive disorder, single episode, unspecified' },
      { rawCode: 'F32A', title: 'Depression, unspecified' },
      { rawCode: 'Z631', title: 'Problems in relationship with in-laws' },
    ]);
  });

  it('refuses a line of neither layout, and one code with two titles', () => {
    expect(() => parseCmsCodeFile('not an ICD-10-CM line')).toThrow(/Line 1/);
    expect(() =>
      buildIcd10BehavioralFile('F329    One title\nF329    Another title\n', { source: 'x', fiscalYear: 2026 }),
    ).toThrow(/two titles/);
  });
});
