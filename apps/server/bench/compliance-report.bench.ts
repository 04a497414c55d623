// Part of npm run bench: how long the compliance report of one month takes over a large audit trail (decision
// 035). BENCH_AUDIT_ENTRIES entries (5,000,000 by default) spread over the last 365 days are written into the
// embedded PostgreSQL with generate_series (the indexes built after the load, as a restore would), then
// ReportsService.complianceReport (its checkpoint, the period, every aggregate and risk indicator in one snapshot,
// the DATA_EXPORT entry) is timed in-process for the last full month, beside a floor: one count(*) over the same
// month's range, the least any report over that month has to read. Writes the "Compliance report" section of
// docs/performance.md. BENCH_SMOKE=1: 20,000 entries, nothing written.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { ensureDemoAccounts } from '../src/demo/demo-accounts.ts';
import { openRuntime } from '../src/runtime.ts';
import { findUserByEmail } from '../src/users/users.repository.ts';
import { benchConfig, ROOT, silentLog, SMOKE, writeSection } from './bench-kit.ts';

const ENTRIES = Number(process.env.BENCH_AUDIT_ENTRIES ?? (SMOKE ? 20_000 : 5_000_000));
const RUNS = SMOKE ? 3 : 15;
const BATCH = 250_000;

const { dataDir, config } = benchConfig('compliance');

/**
 * One batch of invented entries, in the order of their times (an audit trail is appended as it happens, so a
 * month's entries lie together in the table): 200 staff and 2,000 patients' accounts, 20,000 patients; about half the entries
 * open one patient's record, a tenth read a list naming five, the rest sign-ins, sign-outs, failures, refusals,
 * messages and an emergency access now and then. Times spread evenly over the last 365 days.
 */
function insertBatch(from: number, to: number) {
  return sql`
    INSERT INTO audit_entries (timestamp, session_id, event, level, user_id, user_role, client_ip, user_agent, url,
      referrer, details, hipaa_required, retention_years)
    SELECT at, NULL, event, CASE WHEN event IN ('FAILED_LOGIN', 'UNAUTHORIZED_ACCESS') THEN 'WARNING' ELSE 'INFO' END,
      CASE WHEN event = 'FAILED_LOGIN' AND k % 3 = 0 THEN 'anonymous' ELSE user_id END, role, '10.0.0.1', 'bench',
      'bench', NULL,
      CASE
        WHEN event IN ('PATIENT_VIEW', 'MEDICAL_RECORD_ACCESS') THEN jsonb_build_object('patientIds', jsonb_build_array(patient))
        WHEN event = 'APPOINTMENT_VIEW' THEN jsonb_build_object('patientIds', jsonb_build_array(patient, patient2, patient3, patient4, patient5))
        WHEN event = 'FAILED_LOGIN' THEN jsonb_build_object('email', 'someone' || (k % 500) || '@example.test', 'reason', 'invalid credentials')
        ELSE '{}'::jsonb
      END,
      event IN ('PATIENT_VIEW', 'APPOINTMENT_VIEW', 'MEDICAL_RECORD_ACCESS', 'UNAUTHORIZED_ACCESS'),
      CASE WHEN event IN ('PATIENT_VIEW', 'APPOINTMENT_VIEW', 'MEDICAL_RECORD_ACCESS', 'UNAUTHORIZED_ACCESS') THEN 6 ELSE 3 END
    FROM (
      SELECT i AS k, now() - interval '365 days' + (i::float8 / ${ENTRIES}) * interval '365 days' + random() * interval '1 second' AS at,
        CASE
          WHEN i % 100 < 45 THEN 'PATIENT_VIEW'
          WHEN i % 100 < 55 THEN 'MEDICAL_RECORD_ACCESS'
          WHEN i % 100 < 65 THEN 'APPOINTMENT_VIEW'
          WHEN i % 100 < 75 THEN 'LOGIN'
          WHEN i % 100 < 82 THEN 'LOGOUT'
          WHEN i % 100 < 85 THEN 'FAILED_LOGIN'
          WHEN i % 100 < 86 THEN 'UNAUTHORIZED_ACCESS'
          WHEN i % 100 < 95 THEN 'MESSAGE_SEND'
          WHEN i % 10000 = 95 THEN 'EMERGENCY_ACCESS_GRANTED'
          ELSE 'QUESTIONNAIRE_VIEW'
        END AS event,
        CASE WHEN i % 10 = 9 THEN md5('patient-account' || (i % 2000))::uuid::text ELSE md5('staff' || (i % 200))::uuid::text END AS user_id,
        CASE WHEN i % 10 = 9 THEN 'patient' WHEN i % 200 = 0 THEN 'admin' ELSE 'provider' END AS role,
        md5('patient' || ((i * 7919) % 20000))::uuid::text AS patient,
        md5('patient' || ((i * 7919 + 1) % 20000))::uuid::text AS patient2,
        md5('patient' || ((i * 7919 + 2) % 20000))::uuid::text AS patient3,
        md5('patient' || ((i * 7919 + 3) % 20000))::uuid::text AS patient4,
        md5('patient' || ((i * 7919 + 4) % 20000))::uuid::text AS patient5
      FROM generate_series(${from}::bigint, ${to - 1}::bigint) AS i
    ) AS generated`;
}

const runtime = await openRuntime(config, silentLog, { runJobs: false });
try {
  const db = runtime.database.db;
  await ensureDemoAccounts(runtime.auth, db);
  const admin = (await findUserByEmail(db, 'admin@demo.test'))!;

  // Build the secondary indexes once after the load (a restore does the same), not row by row.
  const indexes = (
    await db.execute<{ name: string; definition: string }>(sql`
      SELECT indexname AS name, indexdef AS definition FROM pg_indexes
      WHERE tablename = 'audit_entries' AND indexname <> 'audit_entries_pkey'`)
  ).rows;
  for (const index of indexes) await db.execute(sql.raw(`DROP INDEX ${index.name}`));
  console.log(`Writing ${ENTRIES.toLocaleString('en-US')} audit entries`);
  const started = performance.now();
  for (let from = 0; from < ENTRIES; from += BATCH) {
    await db.execute(insertBatch(from, Math.min(from + BATCH, ENTRIES)));
    process.stdout.write('.');
  }
  for (const index of indexes) await db.execute(sql.raw(index.definition));
  await db.execute(sql`ANALYZE audit_entries`);
  const writeSeconds = (performance.now() - started) / 1000;
  console.log(`\nwritten and indexed in ${writeSeconds.toFixed(0)} s`);

  // The last full calendar month in the practice's time zone.
  const [month] = (
    await db.execute<{ start: string; end: string }>(sql`
      SELECT to_char(date_trunc('month', now() AT TIME ZONE ${config.settings.current().timeZone}) - interval '1 month', 'YYYY-MM-DD') AS start,
             to_char(date_trunc('month', now() AT TIME ZONE ${config.settings.current().timeZone}) - interval '1 day', 'YYYY-MM-DD') AS end`)
  ).rows;
  const period = { startDate: month!.start, endDate: month!.end };
  const caller = {
    user: {
      id: admin.id,
      email: admin.email,
      firstName: 'Ada',
      lastName: 'Admin',
      name: admin.name,
      role: 'admin' as const,
    },
    actor: { sessionId: null, userId: admin.id, userRole: 'admin', clientIp: null, userAgent: null },
    operation: 'bench',
  };

  const time = async (body: () => Promise<unknown>) => {
    const times: number[] = [];
    await body(); // warm-up
    for (let run = 0; run < RUNS; run++) {
      const t0 = performance.now();
      await body();
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    return {
      median: times[Math.floor(times.length / 2)]!,
      p95: times[Math.min(times.length - 1, Math.floor(times.length * 0.95))]!,
    };
  };
  const bounds = await db.execute<{ from: string; to: string }>(sql`
    SELECT (${period.startDate}::date::timestamp AT TIME ZONE ${config.settings.current().timeZone})::text AS "from",
           ((${period.endDate}::date + 1)::timestamp AT TIME ZONE ${config.settings.current().timeZone})::text AS "to"`);
  const { from, to } = bounds.rows[0]!;
  let inMonth = 0;
  const floor = await time(async () => {
    const result = await db.execute<{ n: number }>(sql`
      SELECT count(*)::int AS n FROM audit_entries WHERE timestamp >= ${from}::timestamptz AND timestamp < ${to}::timestamptz`);
    inMonth = result.rows[0]!.n;
  });
  let indicators = '';
  const report = await time(async () => {
    const r = await runtime.reports.complianceReport(caller, period);
    indicators = r.riskIndicators.map((i) => `${i.type} ${i.count} (${i.peopleCount} people)`).join(', ');
  });
  console.log(`month ${period.startDate}..${period.endDate}: ${inMonth} entries`);
  console.log(
    `floor median ${floor.median.toFixed(0)} ms, report median ${report.median.toFixed(0)} ms; ${indicators}`,
  );
  const [size] = (
    await db.execute<{ table: string }>(sql`SELECT pg_size_pretty(pg_total_relation_size('audit_entries')) AS table`)
  ).rows;

  const row = (label: string, r: { median: number; p95: number }) =>
    `| ${label} | ${r.median.toFixed(0)} | ${r.p95.toFixed(0)} | ${(r.median / floor.median).toFixed(1)} |`;
  const section = `## Compliance report (\`npm run bench\`)

${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, embedded PostgreSQL 18. ${ENTRIES.toLocaleString('en-US')} audit entries over the
last 365 days (${size?.table} with its indexes; written with generate_series and indexed in ${writeSeconds.toFixed(0)} s); the report of
${period.startDate} to ${period.endDate} (${inMonth.toLocaleString('en-US')} entries) in-process, ${RUNS} runs after a warm-up:
\`ReportsService.complianceReport\` (the checkpoint, every aggregate and risk indicator in one REPEATABLE READ
snapshot, its DATA_EXPORT entry). The floor counts the month's entries through the timestamp index: the least any
report of that month reads. Indicators found: ${indicators || 'none'}.

| Operation | Median (ms) | p95 (ms) | ratio to floor |
|---|---|---|---|
${row("floor: count(*) over the month's range", floor)}
${row('complianceReport, one month', report)}
`;
  if (!SMOKE) writeSection(path.join(ROOT, 'docs/performance.md'), '## Compliance report', section);
  else console.log(section);
} finally {
  await runtime.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
