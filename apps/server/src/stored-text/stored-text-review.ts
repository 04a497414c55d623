import { randomUUID } from 'node:crypto';
import { desc, eq, isNull, sql } from 'drizzle-orm';
import { RecordIdSchema, startsWithDangerousUrl, textProblem, type TextProblem } from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf, systemScope } from '../access/scope.ts';
import type { Database, Executor } from '../db/client.ts';
import { notFound, parseInput } from '../errors.ts';
import { storedTextFindings, textRuleReviews } from './stored-text.table.ts';
import { storedTextFindingsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { storedTextRows, textsOf, type StoredTextRow } from './stored-text.ts';
import { isUuid } from '../db/ids.ts';
import { ADVISORY_LOCKS } from '../db/advisory-locks.ts';

/**
 * The version of the text rule (packages/shared/src/text.ts) that the stored data has been checked against.
 * Raise it when the rule refuses something it accepted before: the next start checks the stored data again.
 */
export const TEXT_RULE_VERSION = 2;

/** Serialises the review between instances starting at once. */
const REVIEW_LOCK_KEY = ADVISORY_LOCKS.storedTextReview;

// Control characters (line breaks and tabs of free text aside), lone surrogates, bidirectional controls.
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const INERT_IN_FREE_TEXT = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|\p{Cs}/gu;
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const INERT_IN_SHORT_TEXT = /[\u0000-\u001F\u007F-\u009F\u2028\u2029\u202A-\u202E\u2066-\u2069]|\p{Cs}/gu;

/**
 * A stored value the rule refuses, made harmless while what was typed stays readable: `<` and `>` become the
 * look-alike angle quotation marks ‹ ›, each character no rule accepts becomes the replacement character �, and
 * a short value that starts with a link such as `javascript:` gets the look-alike colon ꞉ (U+A789) after its
 * scheme, so it no longer is one.
 */
export function inertText(value: string, kind: 'short' | 'free'): string {
  const replaced = value.replace(kind === 'free' ? INERT_IN_FREE_TEXT : INERT_IN_SHORT_TEXT, '\uFFFD');
  if (kind === 'free') return replaced;
  const inert = replaced.replaceAll('<', '\u2039').replaceAll('>', '\u203A');
  // The scheme holds no colon, so the first colon is the one that ends it.
  return startsWithDangerousUrl(inert) ? inert.replace(':', '\uA789') : inert;
}

interface Finding {
  table: string;
  id: string;
  field: string;
  problem: Exclude<TextProblem, 'tooLong'>;
  original: string;
}

/**
 * Checks every stored text against the current text rule, once per rule version (decision 022). Each value the
 * rule refuses is made inert in place (`inertText`) and kept as it was, encrypted, in a finding for the
 * administrators. All in one transaction with the marker and one audit entry of counts per field: a review is
 * done whole or not at all. The log names table, record and field, never the value.
 */
export async function reviewStoredText(
  db: Database,
  keyring: Keyring,
  log: { warn(obj: object, msg: string): void },
): Promise<number> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`SELECT pg_advisory_xact_lock(${REVIEW_LOCK_KEY})`);
    const [done] = await tx
      .select({ version: textRuleReviews.ruleVersion })
      .from(textRuleReviews)
      .where(eq(textRuleReviews.ruleVersion, TEXT_RULE_VERSION));
    if (done) return 0;

    const findings: Finding[] = [];
    for await (const row of storedTextRows(tx, keyring)) {
      const found = await makeRowInert(tx, keyring, row);
      findings.push(...found);
    }
    for (const finding of findings) {
      const id = randomUUID();
      await tx.insert(storedTextFindings).values(
        storedTextFindingsEncrypted.seal(keyring, id, {
          id,
          tableName: finding.table,
          recordId: finding.id,
          field: finding.field,
          problem: finding.problem,
          originalValue: finding.original,
          ruleVersion: TEXT_RULE_VERSION,
        }),
      );
      log.warn(
        { table: finding.table, recordId: finding.id, field: finding.field, problem: finding.problem },
        'stored text made inert under the text rule (the value is kept in stored_text_findings)',
      );
    }
    await tx.insert(textRuleReviews).values({ ruleVersion: TEXT_RULE_VERSION, findings: findings.length });
    const counts: Record<string, number> = {};
    for (const { table, field } of findings) counts[`${table}.${field}`] = (counts[`${table}.${field}`] ?? 0) + 1;
    // Like DATA_REENCRYPTED: an entry when the server changed stored data (the marker records every review).
    if (findings.length > 0) {
      await systemScope().audit(
        tx,
        'STORED_TEXT_REVIEWED',
        { ruleVersion: TEXT_RULE_VERSION, findings: findings.length, byField: counts },
        { level: 'WARNING' },
      );
    }
    return findings.length;
  });
}

/** The row's texts the rule refuses, each replaced in the row by its inert form. */
async function makeRowInert(tx: Executor, keyring: Keyring, row: StoredTextRow): Promise<Finding[]> {
  const findings: Finding[] = [];
  const changed: Record<string, string> = {};
  let form: Record<string, unknown> | null = null;
  for (const text of textsOf(row)) {
    const problem = textProblem(text.value, text.kind, Number.POSITIVE_INFINITY);
    if (problem === null || problem === 'tooLong') continue;
    const inert = inertText(text.value, text.kind);
    findings.push({ table: text.table, id: text.id, field: text.field, problem, original: text.value });
    const formField = row.source.form?.field;
    if (formField && text.field.startsWith(`${formField}.`)) {
      form ??= JSON.parse(row.values[formField] ?? '{}') as Record<string, unknown>;
      const [, name, index] = text.field.split('.') as [string, string, string | undefined];
      const entry = form[name];
      form[name] =
        index === undefined || !Array.isArray(entry)
          ? inert
          : (entry as unknown[]).map((v, i) => (i === Number(index) ? inert : v));
    } else {
      changed[text.field] = inert;
    }
  }
  if (form && row.source.form) changed[row.source.form.field] = JSON.stringify(form);
  if (Object.keys(changed).length === 0) return findings;
  const sealed = row.source.encrypted ? row.source.encrypted.seal(keyring, row.id, changed) : changed;
  const values = Object.fromEntries(
    Object.entries(sealed).map(([field, value]) => [row.source.columns[field]!.column.name, value]),
  );
  const assignments = sql.join(
    Object.entries(values).map(([column, value]) => sql`${sql.identifier(column)} = ${value}`),
    sql`, `,
  );
  await tx.execute(sql`UPDATE ${row.source.table} SET ${assignments} WHERE ${row.source.id} = ${row.id}`);
  return findings;
}

/** One finding as administrators see it: where, what kind of problem, when; never the value. */
export interface StoredTextFindingView {
  id: string;
  tableName: string;
  recordId: string;
  field: string;
  problem: string;
  foundAt: Date;
  resolvedAt: Date | null;
}

export async function listStoredTextFindings(db: Executor, includeResolved: boolean): Promise<StoredTextFindingView[]> {
  return db
    .select({
      id: storedTextFindings.id,
      tableName: storedTextFindings.tableName,
      recordId: storedTextFindings.recordId,
      field: storedTextFindings.field,
      problem: storedTextFindings.problem,
      foundAt: storedTextFindings.foundAt,
      resolvedAt: storedTextFindings.resolvedAt,
    })
    .from(storedTextFindings)
    .where(includeResolved ? undefined : isNull(storedTextFindings.resolvedAt))
    .orderBy(desc(storedTextFindings.foundAt), desc(storedTextFindings.id))
    .limit(500);
}

/** What administrators do with the findings: read the list, and mark one resolved once its record is checked. */
export class StoredTextService {
  readonly #db: Database;

  constructor(options: { db: Database }) {
    this.#db = options.db;
  }

  /** The findings, newest first (unresolved only unless asked); the read is audited with the findings' ids. */
  async list(caller: Caller, args: { includeResolved?: boolean | null }): Promise<StoredTextFindingView[]> {
    await authorize(this.#db, caller, 'stored-text:review');
    return this.#db.transaction(async (tx) => {
      const findings = await listStoredTextFindings(tx, args.includeResolved === true);
      await scopeOf(this.#db, caller).audit(tx, 'STORED_TEXT_FINDINGS_VIEW', {
        findingIds: findings.map((finding) => finding.id),
      });
      return findings;
    });
  }

  /** Marks a finding resolved (a person has checked the record); audited. An unknown id is NOT_FOUND. */
  async resolve(caller: Caller, id: string): Promise<StoredTextFindingView> {
    await authorize(this.#db, caller, 'stored-text:review');
    const findingId = parseInput(RecordIdSchema, id);
    if (!isUuid(findingId)) throw notFound('storedTextMessages.notFound');
    return this.#db.transaction(async (tx) => {
      const [row] = await tx
        .update(storedTextFindings)
        .set({ resolvedAt: sql`coalesce(${storedTextFindings.resolvedAt}, now())`, resolvedBy: caller.user.id })
        .where(eq(storedTextFindings.id, findingId))
        .returning();
      if (!row) throw notFound('storedTextMessages.notFound');
      await scopeOf(this.#db, caller).audit(tx, 'STORED_TEXT_RESOLVED', {
        findingId,
        table: row.tableName,
        recordId: row.recordId,
        field: row.field,
      });
      const { originalValue: _kept, resolvedBy: _by, ruleVersion: _version, ...view } = row;
      return view;
    });
  }
}
