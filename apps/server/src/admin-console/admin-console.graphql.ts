import type { AccountCount, ActivityItem, BackupState, ChainVerification } from './console-stats.repository.ts';
import type { ConsoleStatsAnswer, SystemHealth } from './admin-console.service.ts';
import type {
  BackupFigures,
  DatabaseFigures,
  DiskFigures,
  GivenUpJob,
  JobQueueFigures,
  MailFigures,
  SealerFigures,
} from './system-health.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

const iso = (date: Date | null) => date?.toISOString() ?? null;

const AccountCountRef = builder.objectRef<AccountCount>('ConsoleAccountCount').implement({
  description: 'Accounts of one role (null: an account without a role) that are active or not.',
  fields: (t) => ({
    role: t.exposeString('role', { nullable: true }),
    active: t.exposeBoolean('active'),
    count: t.exposeInt('count'),
  }),
});

const UndeliveredMailRef = builder.objectRef<MailFigures>('UndeliveredMail').implement({
  description: 'The outbox: mails not delivered.',
  fields: (t) => ({
    waiting: t.exposeInt('waiting', { description: 'Queued or being sent.' }),
    failed: t.exposeInt('failed', { description: 'Given up after their retries.' }),
    kept: t.exposeInt('kept', { description: 'Kept without a mail server (SMTP_URL unset).' }),
    oldestWaitingAt: t.string({ nullable: true, resolve: (m) => iso(m.oldestWaitingAt) }),
  }),
});

const ChainVerificationRef = builder.objectRef<ChainVerification>('ChainVerification').implement({
  description: "The newest verification of the audit chain, from the trail's AUDIT_CHAIN_VERIFIED/BROKEN entries.",
  fields: (t) => ({
    ok: t.exposeBoolean('ok'),
    checkedAt: t.string({ resolve: (v) => v.checkedAt.toISOString() }),
    entriesChecked: t.exposeInt('entriesChecked', { nullable: true }),
  }),
});

const BackupStateRef = builder.objectRef<BackupState>('ConsoleBackupState').implement({
  description: "The backups: the newest run's status, and when the newest successful one finished.",
  fields: (t) => ({
    lastStatus: t.string({
      nullable: true,
      description: 'The run running now, else the last to finish: succeeded, failed or skipped; null before any.',
      resolve: (b) => b.lastStatus,
    }),
    lastSucceededAt: t.string({ nullable: true, resolve: (b) => b.lastSucceededAt?.toISOString() ?? null }),
  }),
});

const ActivityItemRef = builder.objectRef<ActivityItem>('ConsoleActivity').implement({
  description: 'What happened, who did it and when: never details, patients or health information.',
  fields: (t) => ({
    event: t.exposeString('event'),
    at: t.string({ resolve: (a) => a.at.toISOString() }),
    actorRole: t.exposeString('actorRole', { description: 'admin, provider, patient, system or unknown.' }),
    actorName: t.exposeString('actorName', {
      nullable: true,
      description: "A staff member's name; null for patients, the system and visitors.",
    }),
  }),
});

const ConsoleStatsRef = builder.objectRef<ConsoleStatsAnswer>('AdminConsoleStats').implement({
  description: "The administrator console's figures, computed when asked.",
  fields: (t) => ({
    accounts: t.field({ type: [AccountCountRef], resolve: (s) => s.accounts }),
    activePatients: t.exposeInt('activePatients'),
    appointmentsToday: t.exposeInt('appointmentsToday', { description: 'Not cancelled, starting today.' }),
    appointmentsThisWeek: t.exposeInt('appointmentsThisWeek', {
      description: "Not cancelled, starting this week (Monday to Sunday) in the practice's time zone.",
    }),
    openAccessRequests: t.exposeInt('openAccessRequests'),
    undeliveredMail: t.field({ type: UndeliveredMailRef, resolve: (s) => s.undeliveredMail }),
    chainVerification: t.field({
      type: ChainVerificationRef,
      nullable: true,
      description: 'Null until the chain was verified once.',
      resolve: (s) => s.chainVerification,
    }),
    backup: t.field({ type: BackupStateRef, resolve: (s) => s.backup }),
    recentActivity: t.field({ type: [ActivityItemRef], resolve: (s) => s.recentActivity }),
    timeZone: t.exposeString('timeZone'),
    today: t.exposeString('today', { description: "Today's date in the practice's time zone." }),
    weekStart: t.exposeString('weekStart', { description: "This week's Monday in the practice's time zone." }),
  }),
});

builder.queryField('adminConsoleStats', (t) =>
  t.field({
    type: ConsoleStatsRef,
    description: "Administrators: the console's figures (accounts, patients, appointments, requests, mail, audit).",
    resolve: (_root, _args, ctx) => ctx.adminConsole.consoleStats(callerOf(ctx, 'adminConsoleStats')),
  }),
);

const DatabaseHealthRef = builder.objectRef<DatabaseFigures>('DatabaseHealth').implement({
  fields: (t) => ({
    sizeBytes: t.exposeFloat('sizeBytes'),
    latencyMs: t.exposeInt('latencyMs'),
  }),
});
const GivenUpJobRef = builder.objectRef<GivenUpJob>('GivenUpJob').implement({
  description: 'A job that gave up after its last attempt (graphile-worker).',
  fields: (t) => ({
    task: t.exposeString('task'),
    lastError: t.exposeString('lastError', { nullable: true, description: 'The start of its last error.' }),
    at: t.string({ description: 'When it gave up (ISO 8601).', resolve: (j) => j.at.toISOString() }),
  }),
});
const JobQueueHealthRef = builder.objectRef<JobQueueFigures>('JobQueueHealth').implement({
  fields: (t) => ({
    lastGivenUp: t.field({ type: GivenUpJobRef, nullable: true, resolve: (j) => j.lastGivenUp }),
    pending: t.exposeInt('pending'),
    running: t.exposeInt('running'),
    overdue: t.exposeInt('overdue'),
    retrying: t.exposeInt('retrying'),
    failed: t.exposeInt('failed'),
  }),
});
const MailHealthRef = builder.objectRef<MailFigures & { smtpConfigured: boolean }>('MailHealth').implement({
  fields: (t) => ({
    waiting: t.exposeInt('waiting'),
    failed: t.exposeInt('failed'),
    kept: t.exposeInt('kept'),
    oldestWaitingAt: t.string({ nullable: true, resolve: (m) => iso(m.oldestWaitingAt) }),
    smtpConfigured: t.exposeBoolean('smtpConfigured'),
  }),
});
const SealerHealthRef = builder.objectRef<SealerFigures>('AuditSealerHealth').implement({
  fields: (t) => ({
    headPosition: t.exposeFloat('headPosition', { nullable: true }),
    lastSealedAt: t.string({ nullable: true, resolve: (s) => iso(s.lastSealedAt) }),
    unsealed: t.exposeInt('unsealed'),
    lagSeconds: t.exposeFloat('lagSeconds'),
    lastAnchorPosition: t.exposeFloat('lastAnchorPosition', { nullable: true }),
    lastAnchorAt: t.string({ nullable: true, resolve: (s) => iso(s.lastAnchorAt) }),
  }),
});
const BackupsHealthRef = builder.objectRef<BackupFigures>('BackupsHealth').implement({
  fields: (t) => ({
    schedule: t.exposeString('schedule', { nullable: true, description: 'BACKUP_SCHEDULE (UTC); null when off.' }),
    lastScheduledStatus: t.exposeString('lastScheduledStatus', {
      nullable: true,
      description: "The newest scheduled backup's status: running, succeeded, failed or skipped.",
    }),
    lastScheduledAt: t.string({ nullable: true, resolve: (b) => iso(b.lastScheduledAt) }),
    lastSucceededAt: t.string({ nullable: true, resolve: (b) => iso(b.lastSucceededAt) }),
  }),
});
const DiskHealthRef = builder.objectRef<DiskFigures>('DiskHealth').implement({
  fields: (t) => ({
    path: t.exposeString('path'),
    freeBytes: t.exposeFloat('freeBytes'),
    totalBytes: t.exposeFloat('totalBytes'),
  }),
});
const ServerHealthRef = builder
  .objectRef<{ version: string; uptimeSeconds: number; startedAt: Date; nodeVersion: string }>('ServerHealth')
  .implement({
    fields: (t) => ({
      version: t.exposeString('version'),
      uptimeSeconds: t.exposeInt('uptimeSeconds'),
      startedAt: t.string({ resolve: (s) => s.startedAt.toISOString() }),
      nodeVersion: t.exposeString('nodeVersion'),
    }),
  });

// Each check: its verdict (OK, ATTENTION, PROBLEM), the reason's code (HEALTH_REASONS, the screen explains it), and
// its figures (null when the check could not be made).
const DatabaseCheckRef = builder.objectRef<SystemHealth['database']>('DatabaseCheck').implement({
  fields: (t) => ({
    verdict: t.exposeString('verdict'),
    reason: t.exposeString('reason'),
    figures: t.field({ type: DatabaseHealthRef, nullable: true, resolve: (c) => c.figures }),
  }),
});
const JobQueueCheckRef = builder.objectRef<SystemHealth['jobs']>('JobQueueCheck').implement({
  fields: (t) => ({
    verdict: t.exposeString('verdict'),
    reason: t.exposeString('reason'),
    figures: t.field({ type: JobQueueHealthRef, nullable: true, resolve: (c) => c.figures }),
  }),
});
const MailCheckRef = builder.objectRef<SystemHealth['mail']>('MailCheck').implement({
  fields: (t) => ({
    verdict: t.exposeString('verdict'),
    reason: t.exposeString('reason'),
    figures: t.field({ type: MailHealthRef, nullable: true, resolve: (c) => c.figures }),
  }),
});
const AuditSealerCheckRef = builder.objectRef<SystemHealth['auditSealer']>('AuditSealerCheck').implement({
  fields: (t) => ({
    verdict: t.exposeString('verdict'),
    reason: t.exposeString('reason'),
    figures: t.field({ type: SealerHealthRef, nullable: true, resolve: (c) => c.figures }),
  }),
});
const BackupsCheckRef = builder.objectRef<SystemHealth['backups']>('BackupsCheck').implement({
  fields: (t) => ({
    verdict: t.exposeString('verdict'),
    reason: t.exposeString('reason'),
    figures: t.field({ type: BackupsHealthRef, nullable: true, resolve: (c) => c.figures }),
  }),
});
const DiskCheckRef = builder.objectRef<SystemHealth['disk']>('DiskCheck').implement({
  fields: (t) => ({
    verdict: t.exposeString('verdict'),
    reason: t.exposeString('reason'),
    figures: t.field({ type: DiskHealthRef, nullable: true, resolve: (c) => c.figures }),
  }),
});
const ServerCheckRef = builder.objectRef<SystemHealth['server']>('ServerCheck').implement({
  fields: (t) => ({
    verdict: t.exposeString('verdict'),
    reason: t.exposeString('reason'),
    figures: t.field({ type: ServerHealthRef, nullable: true, resolve: (c) => c.figures }),
  }),
});

const SystemHealthRef = builder.objectRef<SystemHealth>('SystemHealth').implement({
  description: 'Each check with a plain verdict; overall is the worst of them.',
  fields: (t) => ({
    overall: t.exposeString('overall'),
    checkedAt: t.string({ resolve: (h) => h.checkedAt.toISOString() }),
    database: t.field({ type: DatabaseCheckRef, resolve: (h) => h.database }),
    jobs: t.field({ type: JobQueueCheckRef, resolve: (h) => h.jobs }),
    mail: t.field({ type: MailCheckRef, resolve: (h) => h.mail }),
    auditSealer: t.field({ type: AuditSealerCheckRef, resolve: (h) => h.auditSealer }),
    backups: t.field({ type: BackupsCheckRef, resolve: (h) => h.backups }),
    disk: t.field({ type: DiskCheckRef, resolve: (h) => h.disk }),
    server: t.field({ type: ServerCheckRef, resolve: (h) => h.server }),
  }),
});

builder.queryField('systemHealth', (t) =>
  t.field({
    type: SystemHealthRef,
    description: "Administrators: the system's health (database, jobs, mail, audit sealer, backups, disk, server).",
    resolve: (_root, _args, ctx) => ctx.adminConsole.systemHealth(callerOf(ctx, 'systemHealth')),
  }),
);
