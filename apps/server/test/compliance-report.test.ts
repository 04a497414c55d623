/**
 * The compliance report and the practice reports (decision 035): who may read them, the figures against a
 * seeded audit trail (each risk indicator at its edge), the CSV with its formula guard, and the audit of each.
 */
import { randomUUID } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  COMPLIANCE_REPORT_CSV_PATH,
  DEMO_PASSWORD,
  messageText,
  type AppointmentStatus,
  type AuditEvent,
  type CancellationKind,
} from '@telehealth/shared';
import { appendAuditEntries, type AuditRecord } from '../src/audit/audit.repository.ts';
import { appointments } from '../src/appointments/appointments.table.ts';
import { auditEntries } from '../src/audit/audit.table.ts';
import { measures } from '../src/measures/measures.table.ts';
import { patients } from '../src/patients/patients.table.ts';
import { appointmentsEncrypted, measuresEncrypted } from '../src/keys/encrypted-columns.ts';
import { demoClients } from './factories/accounts.ts';
import { createTestAccount, createTestApp, TestClient, type TestApp } from './helpers.ts';

const GENERATE = `mutation ($input: ReportPeriodInput!, $format: ComplianceReportFormat) {
  generateComplianceReport(input: $input, format: $format) {
    period { startDate endDate timeZone }
    totalEvents hipaaEvents securityViolations uniqueUsers
    eventBreakdown { event count }
    riskIndicators { type severity count peopleCount people { userId name email role event count firstAt lastAt } }
    generatedAt generatedBy { userId name email }
  }
}`;
const PRACTICE = `query ($input: ReportPeriodInput!) {
  practiceReport(input: $input) {
    appointmentsTotal byStatus { status count } byProvider { providerId name total byStatus { status count } }
    noShows dueAppointments noShowRate lateCancellations lateCancellationRate
    measures { instrument month count mean }
  }
}`;

interface Person {
  userId: string | null;
  name: string | null;
  email: string | null;
  role: string | null;
  event: string | null;
  count: number;
  firstAt: string;
  lastAt: string;
}
interface Indicator {
  type: string;
  severity: string;
  count: number;
  peopleCount: number;
  people: Person[];
}
interface Report {
  period: { startDate: string; endDate: string; timeZone: string };
  totalEvents: number;
  hipaaEvents: number;
  securityViolations: number;
  uniqueUsers: number;
  eventBreakdown: { event: string; count: number }[];
  riskIndicators: Indicator[];
  generatedAt: string;
  generatedBy: { userId: string; name: string; email: string };
}

let t: TestApp;
const clients = {} as Record<'admin' | 'provider' | 'patient', TestClient>;
let adminId: string;
/** Staff whose entries are seeded (the practice's time zone is America/New_York, UTC-5 in January). */
const people = {} as Record<
  'nightOwl' | 'earlyBird' | 'bulkReader' | 'steadyReader' | 'rereader' | 'locked' | 'portal',
  string
>;

async function account(key: keyof typeof people, role: 'admin' | 'provider' | 'patient', first: string, last: string) {
  people[key] = await createTestAccount(t.runtime, {
    email: `${key.toLowerCase()}.${randomUUID().slice(0, 6)}@report.example`,
    firstName: first,
    lastName: last,
    role,
    password: DEMO_PASSWORD,
  });
}

function entry(
  event: string,
  userId: string,
  role: string,
  at: string,
  details: Record<string, unknown> = {},
): AuditRecord {
  return {
    // Emergency access events belong to another part of the product; the report only needs their prefix.
    event: event as AuditEvent,
    level: event === 'FAILED_LOGIN' || event === 'UNAUTHORIZED_ACCESS' ? 'WARNING' : 'INFO',
    actor: { sessionId: null, userId, userRole: role, clientIp: null, userAgent: null },
    details,
    timestamp: new Date(at),
  };
}

/** `minutes` after an instant, as ISO. */
const plus = (at: string, minutes: number) => new Date(Date.parse(at) + minutes * 60_000).toISOString();

async function generate(client: TestClient, startDate: string, endDate: string, format?: string) {
  return client.gql<{ generateComplianceReport: Report }>(GENERATE, { input: { startDate, endDate }, format });
}

async function report(startDate: string, endDate: string): Promise<Report> {
  const response = await generate(clients.admin, startDate, endDate);
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.generateComplianceReport;
}

const indicatorOf = (r: Report, type: string) => r.riskIndicators.find((i) => i.type === type);

/** January 2025 (EST): the seeded trail. February 2025: the same failed sign-ins plus one. */
const seeded: AuditRecord[] = [];

beforeAll(async () => {
  t = await createTestApp();
  ({ admin: clients.admin, provider: clients.provider, patient: clients.patient } = await demoClients(t));
  adminId = (await clients.admin.me())!.userId;
  await account('nightOwl', 'provider', 'Nora', 'Night');
  await account('earlyBird', 'provider', 'Eli', 'Early');
  await account('bulkReader', 'provider', 'Bea', 'Bulk');
  await account('steadyReader', 'admin', 'Sam', 'Steady');
  await account('rereader', 'provider', 'Rae', 'Reread');
  await account('locked', 'provider', 'Lou', 'Locked');
  await account('portal', 'patient', 'Pat', 'Portal');

  // Ten failed sign-ins of one account in January (not more than ten: no indicator).
  for (let i = 0; i < 10; i++) {
    seeded.push(entry('FAILED_LOGIN', people.locked, 'provider', `2025-01-06T17:${String(i).padStart(2, '0')}:00Z`));
  }
  // After hours on the practice's clock: 05:59 and 22:01 count, 06:00 and 22:00 do not; a patient's never does.
  seeded.push(entry('LOGIN', people.nightOwl, 'provider', '2025-01-10T10:59:00Z')); // 05:59 EST
  seeded.push(entry('PATIENT_VIEW', people.nightOwl, 'provider', '2025-01-11T03:01:00Z')); // 22:01 EST
  seeded.push(entry('LOGIN', people.earlyBird, 'provider', '2025-01-10T11:00:00Z')); // 06:00 EST
  seeded.push(entry('LOGOUT', people.earlyBird, 'provider', '2025-01-11T03:00:00Z')); // 22:00 EST
  seeded.push(entry('LOGIN', people.portal, 'patient', '2025-01-11T04:00:00Z')); // 23:00 EST, a patient
  // Bulk access: 30 distinct patients within 29 minutes (flagged); 29 within the hour, the 30th an hour after
  // the first (not flagged); a list page naming 50 patients (not an opening).
  const start = '2025-01-15T19:00:00Z'; // 14:00 EST
  for (let i = 0; i < 30; i++) {
    seeded.push(entry('PATIENT_VIEW', people.bulkReader, 'provider', plus(start, i), { patientIds: [randomUUID()] }));
  }
  for (let i = 0; i < 29; i++) {
    seeded.push(
      entry('PATIENT_VIEW', people.steadyReader, 'admin', plus(start, 2 * i), { patientIds: [randomUUID()] }),
    );
  }
  seeded.push(entry('PATIENT_VIEW', people.steadyReader, 'admin', plus(start, 60), { patientIds: [randomUUID()] }));
  // One patient opened again and again is one patient: opened at 0, 50, 100 and 130 minutes (each within the hour
  // of the one before, so one span until 190), then 29 others from 120 to 148: 30 at once at 148 (not 31, as
  // counting each opening's hour apart would give; not 29, as counting only the first opening's hour would).
  const again = '2025-01-16T19:00:00Z';
  const regular = randomUUID();
  for (const minute of [0, 50, 100, 130]) {
    seeded.push(entry('PATIENT_VIEW', people.rereader, 'provider', plus(again, minute), { patientIds: [regular] }));
  }
  for (let i = 0; i < 29; i++) {
    seeded.push(
      entry('PATIENT_VIEW', people.rereader, 'provider', plus(again, 120 + i), { patientIds: [randomUUID()] }),
    );
  }
  seeded.push(
    entry('PATIENT_VIEW', people.earlyBird, 'provider', plus(start, 5), {
      patientIds: Array.from({ length: 50 }, () => randomUUID()),
    }),
  );
  // Emergency access, and a refusal (a security violation).
  seeded.push(entry('EMERGENCY_ACCESS_GRANTED', people.nightOwl, 'provider', '2025-01-20T15:00:00Z'));
  seeded.push(entry('EMERGENCY_ACCESS_REVIEWED', people.steadyReader, 'admin', '2025-01-21T15:00:00Z'));
  seeded.push(entry('UNAUTHORIZED_ACCESS', people.earlyBird, 'provider', '2025-01-22T15:00:00Z'));
  // Outside the period on both sides (the period's instants are the practice's midnights).
  const outside = [
    entry('LOGIN', people.nightOwl, 'provider', '2025-01-01T04:59:00Z'), // 2024-12-31 23:59 EST
    entry('LOGIN', people.nightOwl, 'provider', '2025-02-01T05:00:00Z'), // 2025-02-01 00:00 EST
  ];
  // February: eleven failed sign-ins, one of them for an address no account has (a formula, for the CSV).
  const february = [
    ...Array.from({ length: 10 }, (_, i) =>
      entry('FAILED_LOGIN', people.locked, 'provider', `2025-02-03T17:${String(i).padStart(2, '0')}:00Z`),
    ),
    entry('FAILED_LOGIN', 'anonymous', 'unknown', '2025-02-03T18:00:00Z', {
      email: '=HYPERLINK("http://x")@evil.test',
    }),
  ];
  await appendAuditEntries(t.runtime.database.db, [...seeded, ...outside, ...february]);
});

describe('who may read the reports', () => {
  it('refuses providers, patients and signed-out callers, and answers administrators', async () => {
    for (const role of ['provider', 'patient'] as const) {
      const compliance = await generate(clients[role], '2025-01-01', '2025-01-31');
      expect(compliance.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      expect(compliance.errors?.[0]?.message).toBe(messageText('messages.adminRequired'));
      const practice = await clients[role].gql(PRACTICE, { input: { startDate: '2025-01-01', endDate: '2025-01-31' } });
      expect(practice.errors?.[0]?.extensions?.code).toBe('FORBIDDEN');
      const csv = await t.app.inject({
        method: 'GET',
        url: `${COMPLIANCE_REPORT_CSV_PATH}?startDate=2025-01-01&endDate=2025-01-31`,
        headers: { cookie: clients[role].cookie! },
      });
      expect(csv.statusCode).toBe(403);
    }
    const anonymous = new TestClient(t.app);
    const signedOut = await generate(anonymous, '2025-01-01', '2025-01-31');
    expect(signedOut.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const practice = await anonymous.gql(PRACTICE, { input: { startDate: '2025-01-01', endDate: '2025-01-31' } });
    expect(practice.errors?.[0]?.extensions?.code).toBe('UNAUTHENTICATED');
    const csv = await t.app.inject({
      method: 'GET',
      url: `${COMPLIANCE_REPORT_CSV_PATH}?startDate=2025-01-01&endDate=2025-01-31`,
    });
    expect(csv.statusCode).toBe(401);
    // Nothing was exported for the refused callers.
    const exports = await t.runtime.database.db
      .select({ userId: auditEntries.userId })
      .from(auditEntries)
      .where(eq(auditEntries.event, 'DATA_EXPORT'));
    expect(exports).toEqual([]);
  });

  it('refuses a bad period with a clear message', async () => {
    const reversed = await generate(clients.admin, '2025-01-31', '2025-01-01');
    expect(reversed.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    expect(reversed.errors?.[0]?.message).toContain('The last day must be on or after the first day');
    const tooLong = await generate(clients.admin, '2024-01-01', '2025-12-31');
    expect(tooLong.errors?.[0]?.message).toContain('A report covers at most 366 days');
    const notADate = await generate(clients.admin, '2025-02-30', '2025-03-01');
    expect(notADate.errors?.[0]?.message).toContain('Please enter a date as YYYY-MM-DD');
  });
});

describe('the compliance report', () => {
  let january: Report;
  beforeAll(async () => {
    january = await report('2025-01-01', '2025-01-31');
  });

  it('counts the period’s entries: totals, HIPAA events, security violations, unique users, breakdown', () => {
    expect(january.period).toEqual({ startDate: '2025-01-01', endDate: '2025-01-31', timeZone: 'America/New_York' });
    expect(january.totalEvents).toBe(seeded.length);
    expect(january.hipaaEvents).toBe(
      seeded.filter((e) => e.event === 'PATIENT_VIEW' || e.event === 'UNAUTHORIZED_ACCESS').length,
    );
    expect(january.securityViolations).toBe(1);
    expect(january.uniqueUsers).toBe(new Set(seeded.map((e) => e.actor.userId)).size);
    const expected = new Map<string, number>();
    for (const e of seeded) expected.set(e.event, (expected.get(e.event) ?? 0) + 1);
    expect(new Map(january.eventBreakdown.map((e) => [e.event, e.count]))).toEqual(expected);
    expect(january.eventBreakdown[0]).toEqual({ event: 'PATIENT_VIEW', count: expected.get('PATIENT_VIEW') });
    expect(january.generatedBy).toMatchObject({ userId: adminId, email: 'admin@demo.test' });
    expect(Math.abs(Date.parse(january.generatedAt) - Date.now())).toBeLessThan(60_000);
  });

  it('ten failed sign-ins are no indicator; eleven are MULTIPLE_FAILED_LOGINS (HIGH), naming who', async () => {
    expect(indicatorOf(january, 'MULTIPLE_FAILED_LOGINS')).toBeUndefined();
    const february = await report('2025-02-01', '2025-02-28');
    const failed = indicatorOf(february, 'MULTIPLE_FAILED_LOGINS');
    expect(failed).toMatchObject({ severity: 'HIGH', count: 11, peopleCount: 2 });
    expect(failed!.people[0]).toMatchObject({ userId: people.locked, name: 'Lou Locked', role: 'provider', count: 10 });
    expect(failed!.people[1]).toMatchObject({ userId: null, email: '=HYPERLINK("http://x")@evil.test', count: 1 });
  });

  it('AFTER_HOURS_ACCESS (MEDIUM) names staff active before 06:00 or after 22:00 practice time', () => {
    const afterHours = indicatorOf(january, 'AFTER_HOURS_ACCESS');
    expect(afterHours).toMatchObject({ severity: 'MEDIUM', count: 2, peopleCount: 1 });
    expect(afterHours!.people[0]).toMatchObject({
      userId: people.nightOwl,
      name: 'Nora Night',
      count: 2,
      firstAt: '2025-01-10T10:59:00.000Z',
      lastAt: '2025-01-11T03:01:00.000Z',
    });
  });

  it('BULK_RECORD_ACCESS names whoever opened 30 distinct patients within an hour, not 29', () => {
    const bulk = indicatorOf(january, 'BULK_RECORD_ACCESS');
    expect(bulk).toMatchObject({ severity: 'HIGH', count: 30, peopleCount: 2 });
    expect(bulk!.people[0]).toMatchObject({ userId: people.bulkReader, name: 'Bea Bulk', count: 30 });
    expect(bulk!.people[0]!.lastAt).toBe('2025-01-15T19:29:00.000Z');
    // A patient opened again keeps counting once, for an hour after the latest opening.
    expect(bulk!.people[1]).toMatchObject({ userId: people.rereader, name: 'Rae Reread', count: 30 });
    expect(bulk!.people[1]!.lastAt).toBe(plus('2025-01-16T19:00:00Z', 148));
  });

  it('EMERGENCY_ACCESS lists every emergency access entry with its person and event', () => {
    const emergency = indicatorOf(january, 'EMERGENCY_ACCESS');
    expect(emergency).toMatchObject({ severity: 'HIGH', count: 2, peopleCount: 2 });
    expect(emergency!.people.map((p) => [p.name, p.event, p.count])).toEqual([
      ['Nora Night', 'EMERGENCY_ACCESS_GRANTED', 1],
      ['Sam Steady', 'EMERGENCY_ACCESS_REVIEWED', 1],
    ]);
  });

  it('the bulk rule follows RISK_BULK_ACCESS_PATIENTS and RISK_BULK_ACCESS_MINUTES', async () => {
    const strict = await createTestApp(
      { RISK_BULK_ACCESS_PATIENTS: '29', RISK_BULK_ACCESS_MINUTES: '61' },
      { databaseUrl: t.databaseUrl, demo: false },
    );
    const result = await strict.runtime.reports.complianceReport(
      {
        user: {
          id: adminId,
          email: 'admin@demo.test',
          firstName: 'Ada',
          lastName: 'Admin',
          name: 'Ada Admin',
          role: 'admin',
        },
        actor: { sessionId: null, userId: adminId, userRole: 'admin', clientIp: null, userAgent: null },
        operation: 'test',
      },
      { startDate: '2025-01-01', endDate: '2025-01-31' },
    );
    const bulk = result.riskIndicators.find((i) => i.type === 'BULK_RECORD_ACCESS');
    // Within 61 minutes the steady reader's 30 patients count too (the first at 14:00, the last at 15:00).
    expect(bulk!.people.map((p) => [p.userId, p.count])).toEqual([
      [people.bulkReader, 30],
      [people.steadyReader, 30],
      [people.rereader, 30],
    ]);
  });

  it('generating a report is a DATA_EXPORT entry naming the period and format', async () => {
    await generate(clients.admin, '2025-01-01', '2025-01-31', 'print');
    const rows = await t.runtime.database.db
      .select({ userId: auditEntries.userId, details: auditEntries.details, level: auditEntries.level })
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'DATA_EXPORT'), sql`${auditEntries.details} ->> 'format' = 'print'`));
    expect(rows).toEqual([
      {
        userId: adminId,
        level: 'INFO',
        details: {
          report: 'compliance',
          format: 'print',
          startDate: '2025-01-01',
          endDate: '2025-01-31',
          timeZone: 'America/New_York',
          totalEvents: seeded.length,
        },
      },
    ]);
  });
});

describe('the compliance report as CSV', () => {
  it('downloads the report with every cell safe from formula injection, and audits the export', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `${COMPLIANCE_REPORT_CSV_PATH}?startDate=2025-02-01&endDate=2025-02-28`,
      headers: { cookie: clients.admin.cookie! },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(
      'attachment; filename="compliance-report-2025-02-01-to-2025-02-28.csv"',
    );
    const lines = response.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('section,item,value,severity,userId,name,email,event,firstAt,lastAt');
    expect(lines).toContain('summary,startDate,2025-02-01,,,,,,,');
    // Eleven failed sign-ins and the sign-in at midnight on 1 February.
    expect(lines).toContain('summary,totalEvents,12,,,,,,,');
    expect(lines).toContain('eventBreakdown,FAILED_LOGIN,11,,,,,,,');
    expect(lines).toContain('riskIndicator,MULTIPLE_FAILED_LOGINS,11,HIGH,,,,,,');
    // The typed address starts with "=": written as text ('=...), quoted because of its quotes.
    expect(lines).toContain(
      `riskIndicatorPerson,MULTIPLE_FAILED_LOGINS,1,HIGH,,,"'=HYPERLINK(""http://x"")@evil.test",,2025-02-03T18:00:00.000Z,2025-02-03T18:00:00.000Z`,
    );
    expect(lines.some((line) => /(^|,)"?[=+@-]/.test(line))).toBe(false);
    const [audit] = await t.runtime.database.db
      .select({ details: auditEntries.details })
      .from(auditEntries)
      .where(and(eq(auditEntries.event, 'DATA_EXPORT'), sql`${auditEntries.details} ->> 'format' = 'csv'`));
    expect(audit?.details).toMatchObject({ report: 'compliance', format: 'csv', startDate: '2025-02-01' });
  });

  it('answers a bad period with 400 and its message', async () => {
    const response = await t.app.inject({
      method: 'GET',
      url: `${COMPLIANCE_REPORT_CSV_PATH}?startDate=2025-02-01`,
      headers: { cookie: clients.admin.cookie! },
    });
    expect(response.statusCode).toBe(400);
    expect(response.body).toContain('Please choose the last day of the period');
  });
});

describe('the practice reports', () => {
  const providerIds: string[] = [];
  beforeAll(async () => {
    const db = t.runtime.database.db;
    providerIds.push(people.nightOwl, people.earlyBird);
    const patientIds: string[] = [];
    for (let i = 0; i < 2; i++) {
      const [row] = await db
        .insert(patients)
        .values({
          firstName: 'Report',
          lastName: `Patient${i}`,
          email: `report.patient.${i}@report.example`,
          dateOfBirth: '1980-01-01',
          ownerId: providerIds[i]!,
        })
        .returning({ id: patients.id });
      patientIds.push(row!.id);
    }
    // Night: 4 completed, 1 no-show, 1 late cancellation, 1 patient cancellation. Early: 2 completed, 1 no-show.
    const plan: [number, AppointmentStatus, CancellationKind | null][] = [
      [0, 'completed', null],
      [0, 'completed', null],
      [0, 'completed', null],
      [0, 'completed', null],
      [0, 'no-show', null],
      [0, 'cancelled', 'late'],
      [0, 'cancelled', 'patient'],
      [1, 'completed', null],
      [1, 'completed', null],
      [1, 'no-show', null],
    ];
    let hour = 0;
    for (const [who, status, kind] of plan) {
      const id = randomUUID();
      const startsAt = new Date(Date.UTC(2025, 0, 6 + Math.floor(hour / 8), 14 + (hour % 8)));
      hour++;
      await db.insert(appointments).values({
        id,
        patientId: patientIds[who]!,
        providerId: providerIds[who]!,
        startsAt,
        endsAt: new Date(startsAt.getTime() + 30 * 60_000),
        timeZone: 'America/New_York',
        duration: 30,
        appointmentType: 'video',
        status,
        ...appointmentsEncrypted.seal(t.runtime.keyring, id, { reason: 'Follow-up' }),
        cancellationKind: kind,
      });
    }
    // PHQ-9 in January (5 and 10: mean 7.5) and February (3); GAD-7 in January (8).
    const scores: ['phq9' | 'gad7', string, number][] = [
      ['phq9', '2025-01-10T15:00:00Z', 5],
      ['phq9', '2025-01-20T15:00:00Z', 10],
      ['phq9', '2025-02-10T15:00:00Z', 3],
      ['gad7', '2025-01-12T15:00:00Z', 8],
      // Completed on 1 February 02:00 UTC: still January on the practice's clock.
      ['gad7', '2025-02-01T02:00:00Z', 10],
    ];
    for (const [instrument, at, total] of scores) {
      const id = randomUUID();
      await db.insert(measures).values({
        id,
        patientId: patientIds[0]!,
        instrument,
        status: 'completed',
        ...measuresEncrypted.seal(t.runtime.keyring, id, { answers: JSON.stringify({ items: [], difficulty: null }) }),
        total,
        band: 'mild',
        completedAt: new Date(at),
      });
    }
  });

  it('counts appointments by status and provider, the no-show and late-cancellation rates, and monthly scores', async () => {
    const response = await clients.admin.gql<{ practiceReport: Record<string, unknown> }>(PRACTICE, {
      input: { startDate: '2025-01-01', endDate: '2025-02-28' },
    });
    const r = response.data!.practiceReport as {
      appointmentsTotal: number;
      byStatus: { status: string; count: number }[];
      byProvider: { providerId: string; name: string; total: number; byStatus: { status: string; count: number }[] }[];
      noShows: number;
      dueAppointments: number;
      noShowRate: number;
      lateCancellations: number;
      lateCancellationRate: number;
      measures: unknown[];
    };
    expect(r.appointmentsTotal).toBe(10);
    const status = Object.fromEntries(r.byStatus.map((s) => [s.status, s.count]));
    expect(status).toMatchObject({ completed: 6, 'no-show': 2, cancelled: 2, scheduled: 0 });
    expect(r.byProvider.map((p) => [p.providerId, p.name, p.total])).toEqual([
      [people.nightOwl, 'Nora Night', 7],
      [people.earlyBird, 'Eli Early', 3],
    ]);
    expect(r.noShows).toBe(2);
    expect(r.dueAppointments).toBe(8);
    expect(r.noShowRate).toBe(0.25);
    expect(r.lateCancellations).toBe(1);
    expect(r.lateCancellationRate).toBe(0.1);
    expect(r.measures).toEqual([
      { instrument: 'gad7', month: '2025-01', count: 2, mean: 9 },
      { instrument: 'phq9', month: '2025-01', count: 2, mean: 7.5 },
      { instrument: 'phq9', month: '2025-02', count: 1, mean: 3 },
    ]);
    const [audit] = await t.runtime.database.db
      .select({ userId: auditEntries.userId, details: auditEntries.details })
      .from(auditEntries)
      .where(eq(auditEntries.event, 'PRACTICE_REPORT_VIEW'));
    expect(audit).toEqual({
      userId: adminId,
      details: { startDate: '2025-01-01', endDate: '2025-02-28', timeZone: 'America/New_York' },
    });
  });
});
