// npm run bench:notes: how fast listNotes searches encrypted notes through the blind index (decision 027). One
// provider with 50,000 notes (each sealed with the data keys, like the server writes them) in the embedded
// PostgreSQL; the service's own list (reach, filters, search tokens, the audit entry, decrypting the page) is timed
// in-process for a rare word, a common word, a word beginning and a category filter, and the query plan is shown.
// Writes the "Clinical notes search" section of docs/performance.md. BENCH_SMOKE=1: 2,000 notes, nothing written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ensureDemoAccounts } from '../src/demo/demo-accounts.ts';
import { BlindIndex, NOTES_SEARCH_PURPOSE } from '../src/search/blind-index.ts';
import { insertNote } from '../src/notes/notes.repository.ts';
import { openRuntime } from '../src/runtime.ts';
import { findUserByEmail } from '../src/users/users.repository.ts';
import { BENCH_AUTH_SECRET, benchConfig, ROOT, silentLog, SMOKE, writeSection } from './bench-kit.ts';

const NOTES = Number(process.env.BENCH_NOTES ?? (SMOKE ? 2_000 : 50_000));
const RUNS = SMOKE ? 20 : 200;

const WORDS = ['sleep', 'mood', 'anxiety', 'appetite', 'energy', 'focus', 'panic', 'worry', 'stress', 'insomnia'];
const MEDICATIONS = ['sertraline', 'fluoxetine', 'bupropion', 'lithium', 'quetiapine', 'lamotrigine'];

function noteText(i: number) {
  const common = WORDS[i % WORDS.length]!;
  const medication = MEDICATIONS[i % MEDICATIONS.length]!;
  // One note in a thousand mentions clozapine: the rare word.
  const rare = i % 1000 === 0 ? ' Clozapine titration discussed.' : '';
  return {
    title: `Follow-up ${i}`,
    content: `## Subjective\nReports ${common} changes this week.\n\n## Plan\n- Continue ${medication} 50 mg.${rare}`,
    tags: JSON.stringify([common]),
  };
}

const { dataDir, config } = benchConfig('notes');
const runtime = await openRuntime(config, silentLog, { runJobs: false });
try {
  const db = runtime.database.db;
  await ensureDemoAccounts(runtime.auth, db);
  const provider = (await findUserByEmail(db, 'provider@demo.test'))!;
  const index = new BlindIndex(BENCH_AUTH_SECRET, NOTES_SEARCH_PURPOSE);
  console.log(`Writing ${NOTES} encrypted notes`);
  const started = performance.now();
  for (let from = 0; from < NOTES; from += 500) {
    await db.transaction(async (tx) => {
      for (let i = from; i < Math.min(from + 500, NOTES); i++) {
        const text = noteText(i);
        await insertNote(tx, runtime.keyring, {
          ...text,
          category: i % 3 === 0 ? 'medical' : 'general',
          priority: 'medium',
          patientId: null,
          appointmentId: null,
          isPrivate: false,
          templateId: null,
          searchTokens: index.tokensOf([text.title, text.content, 'x']),
          searchKeyId: index.keyId,
          authorId: provider.id,
        });
      }
    });
  }
  const writeSeconds = (performance.now() - started) / 1000;
  await db.execute(sql`ANALYZE notes`);
  const caller = {
    user: { id: provider.id, email: provider.email, name: provider.name, role: 'provider' as const },
    actor: { sessionId: null, userId: provider.id, userRole: 'provider', clientIp: null, userAgent: null },
    operation: 'bench',
  };

  const cases: [string, Record<string, unknown>][] = [
    ['rare word ("clozapine", 1 in 1,000 notes)', { search: 'clozapine' }],
    ['common word ("sleep", 1 in 10)', { search: 'sleep' }],
    ['word beginning ("sertra")', { search: 'sertra' }],
    ['a word in every note ("follow", the worst case)', { search: 'follow' }],
    ['two words ("panic quetiapine")', { search: 'panic quetiapine' }],
    ['category medical, no search', { category: 'medical' }],
    ['first page, no filter', {}],
  ];
  const rows: string[] = [];
  for (const [label, filter] of cases) {
    const times: number[] = [];
    let found = 0;
    for (let run = 0; run < RUNS; run++) {
      const t0 = performance.now();
      const page = await runtime.notes.list(caller as never, { limit: 24, filter });
      times.push(performance.now() - t0);
      found = page.items.length;
      // Reading what a card shows: the content is decrypted here.
      for (const item of page.items) void item.record.note.content;
    }
    times.sort((a, b) => a - b);
    const median = times[Math.floor(times.length / 2)]!;
    const p95 = times[Math.floor(times.length * 0.95)]!;
    rows.push(`| ${label} | ${found} | ${median.toFixed(1)} | ${p95.toFixed(1)} |`);
    console.log(`${label}: ${found} on the page, median ${median.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms`);
  }
  const tokens = index.queryTokens('clozapine');
  const plan = await db.execute<{ 'QUERY PLAN': string }>(sql`EXPLAIN SELECT id FROM notes
    WHERE author_id = ${provider.id} AND deleted_at IS NULL AND search_tokens @> ARRAY[${tokens[0]!}]::text[]
    ORDER BY updated_at DESC, id DESC LIMIT 25`);
  const planText = plan.rows.map((r) => r['QUERY PLAN']).join('\n');
  console.log(planText);
  const [size] = (
    await db.execute<{ table: string; index: string }>(sql`SELECT
      pg_size_pretty(pg_table_size('notes')) AS table, pg_size_pretty(pg_relation_size('notes_search_tokens_idx')) AS index`)
  ).rows;

  const section = `## Clinical notes search (\`npm run bench:notes\`)

${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, embedded PostgreSQL. One provider with ${NOTES.toLocaleString('en-US')}
notes, each title, content and tag list encrypted with the data keys, searched through the blind index of keyed word
and word-beginning tokens (decision 027). Each row is \`NotesService.list\` in-process, ${RUNS} runs: the reach,
the filters, the GIN index lookup, the page's audit entry in its transaction, and decrypting the page's 24 notes.
Writing the notes took ${writeSeconds.toFixed(0)} s (${((writeSeconds * 1000) / NOTES).toFixed(2)} ms a note, encryption and tokens included).
The table is ${size?.table}; the token index ${size?.index}.

| Search | Notes on the page | Median (ms) | p95 (ms) |
|---|---|---|---|
${rows.join('\n')}

The plan for the rare word (the GIN index finds the candidates, then the page is sorted):

\`\`\`
${planText}
\`\`\`
`;
  if (!SMOKE) writeSection(path.join(ROOT, 'docs/performance.md'), '## Clinical notes search', section);
  else console.log(section);
} finally {
  await runtime.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
