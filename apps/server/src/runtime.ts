import fs from 'node:fs';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { AccessRequestsService } from './access-requests/access-requests.service.ts';
import { appendAuditEntry, SYSTEM_ACTOR } from './audit/audit.repository.ts';
import { createAuth, type Auth } from './auth/auth.ts';
import { AuthService } from './auth/auth.service.ts';
import { InvitationsService } from './auth/invitations.service.ts';
import { PasswordResetService } from './auth/password-reset.service.ts';
import { auditAnchorsPath } from './audit/audit-anchors.ts';
import { addJob } from './jobs/add-job.ts';
import { JobQueue, type ExtraTask } from './jobs/queue.ts';
import { AUDIT_SEAL_JOB_KEY, backupCrontab, crontab, taskHandlers } from './jobs/tasks.ts';
import { BackupService } from './practice-data/backup.service.ts';
import { DataExportService } from './practice-data/data-export.service.ts';
import { TwoFactorService } from './auth/two-factor.service.ts';
import { MailService } from './mail/mail.service.ts';
import { AuditTrailService } from './audit-trail/audit-trail.service.ts';
import { RateLimiter } from './rate-limit/rate-limiter.ts';
import { PatientsService } from './patients/patients.service.ts';
import { AppointmentNotifications } from './appointments/appointment-notifications.ts';
import { AppointmentLiveUpdates } from './appointments/appointment-live.ts';
import { AppointmentsService } from './appointments/appointments.service.ts';
import { WaitlistService } from './appointments/waitlist.service.ts';
import { CalendarFeedService } from './appointments/calendar-feed.service.ts';
import { MeasuresService } from './measures/measures.service.ts';
import { MessagesService } from './messages/messages.service.ts';
import { NotesService } from './notes/notes.service.ts';
import { RecordingsService } from './video/recordings.service.ts';
import { VideoService } from './video/video.service.ts';
import { ProvidersService } from './providers/providers.service.ts';
import type { AppDependencies } from './app.ts';
import type { Config } from './config.ts';
import {
  applyMigrations,
  connectDatabase,
  takeStartUpLock,
  type DatabaseHandle,
  type StartUpLock,
} from './db/client.ts';
import { ensureDemoAccounts } from './demo/demo-accounts.ts';
import { ensureDemoPractice } from './demo/demo-practice.ts';
import { ensureDemoClinicalHistory } from './demo/demo-clinical.ts';
import { ensureDemoSchedule } from './demo/demo-schedule.ts';
import { generateDataKeyEntry, Keyring, parseDataKeys } from './keys/keyring.ts';
import { encryptPlaintextAtStart } from './keys/reencrypt.ts';
import { reviewStoredText, StoredTextService } from './stored-text/stored-text-review.ts';
import { AccountService } from './auth/account.service.ts';
import { PortalRecordsService } from './portal-records/portal-records.service.ts';
import { ReportsService } from './reports/reports.service.ts';
import { AdminUsersService } from './users/admin-users.service.ts';
import { EmergencyAccessService } from './emergency-access/emergency-access.service.ts';
import { AdminConsoleService } from './admin-console/admin-console.service.ts';
import { SettingsService } from './settings/settings.service.ts';
import { IdempotencyKeys } from './idempotency/idempotency-keys.ts';
import {
  readOrCreateSecret,
  runningEmbeddedDatabaseUrl,
  startEmbeddedDatabase,
  type EmbeddedDatabase,
} from './db/embedded.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface Runtime {
  config: Config;
  database: DatabaseHandle;
  auth: Auth;
  authService: AuthService;
  patients: PatientsService;
  appointments: AppointmentsService;
  waitlist: WaitlistService;
  calendarFeeds: CalendarFeedService;
  video: VideoService;
  recordings: RecordingsService;
  notes: NotesService;
  measures: MeasuresService;
  messages: MessagesService;
  providers: ProvidersService;
  mail: MailService;
  rateLimiter: RateLimiter;
  invitations: InvitationsService;
  passwordReset: PasswordResetService;
  accessRequests: AccessRequestsService;
  /** The job queue; its worker runs unless the runtime was opened with `runJobs: false`. */
  jobs: JobQueue;
  twoFactor: TwoFactorService;
  storedText: StoredTextService;
  portalRecords: PortalRecordsService;
  account: AccountService;
  reports: ReportsService;
  adminUsers: AdminUsersService;
  emergencyAccess: EmergencyAccessService;
  auditTrail: AuditTrailService;
  /** FHIR exports and backups (decision 037). */
  dataExport: DataExportService;
  backups: BackupService;
  adminConsole: AdminConsoleService;
  /** The practice's settings (decision 032); `config.settings` is this service. */
  settings: SettingsService;
  /** Idempotency-Keys of create mutations (decision 044). */
  idempotency: IdempotencyKeys;
  secret: string;
  /** The data keys that encrypt clinical text (decision 016). */
  keyring: Keyring;
  /**
   * Stops the job queue (running jobs finish or are released), closes the pool, then stops the embedded
   * PostgreSQL if this runtime started one. Safe to call twice.
   */
  close(): Promise<void>;
}

/** What buildApp needs from a runtime. */
export function appDependencies(runtime: Runtime): AppDependencies {
  const {
    config,
    database,
    authService,
    patients,
    providers,
    mail,
    invitations,
    passwordReset,
    accessRequests,
    twoFactor,
    storedText,
    appointments,
    waitlist,
    calendarFeeds,
    video,
    recordings,
    notes,
    measures,
    portalRecords,
    account,
    messages,
    reports,
    adminUsers,
    emergencyAccess,
    auditTrail,
    dataExport,
    backups,
    adminConsole,
    settings,
    idempotency,
  } = runtime;
  return {
    config,
    db: database.db,
    pool: database.pool,
    authService,
    patients,
    providers,
    mail,
    invitations,
    passwordReset,
    accessRequests,
    twoFactor,
    storedText,
    appointments,
    waitlist,
    calendarFeeds,
    video,
    recordings,
    notes,
    measures,
    portalRecords,
    account,
    messages,
    reports,
    adminUsers,
    emergencyAccess,
    auditTrail,
    dataExport,
    backups,
    adminConsole,
    settings,
    idempotency,
  };
}

export interface RuntimeOptions {
  /** Use the embedded PostgreSQL a running server started (commands run beside the server). */
  shareRunningServer?: boolean;
  /** false: install the queue's schema (so jobs can be added) but run no jobs here. Default true. */
  runJobs?: boolean;
  /** Tasks beyond jobs/tasks.ts, for tests of the queue itself. */
  extraTasks?: Record<string, ExtraTask>;
  /**
   * Demo data written at start, under the start-up lock: the demo accounts, or the whole demo practice (the
   * accounts, about 40 patients, their schedule and clinical history; the server in demo mode). Default none.
   */
  seedDemo?: 'accounts' | 'practice';
}

/**
 * Opens the database the configuration names (DATABASE_URL, else the embedded server under DATA_DIR),
 * applies the migrations, builds the services that need it and starts the job queue.
 *
 * Every write of the start-up (migrations and the data work after them, the job queue's schema, the sealer's
 * first job, built-in note templates, search re-indexing, demo data) happens while this instance holds the
 * start-up lock, so instances started together on one database take turns and each finds the others' work
 * done (decision 014).
 */
export async function openRuntime(envConfig: Config, log: Log, options: RuntimeOptions = {}): Promise<Runtime> {
  let config = envConfig;
  let embedded: EmbeddedDatabase | undefined;
  let url = config.databaseUrl ?? (options.shareRunningServer ? runningEmbeddedDatabaseUrl(config.dataDir) : undefined);
  if (!url) {
    embedded = await startEmbeddedDatabase({ dataDir: config.dataDir, port: config.embeddedPgPort, log });
    url = embedded.url;
  }
  let database: DatabaseHandle | undefined;
  let jobs: JobQueue | undefined;
  let settings: SettingsService | undefined;
  let startUpLock: StartUpLock | undefined;
  try {
    const keyring = new Keyring(config.dataEncryptionKeys ?? localDataKeys(config.dataDir));
    startUpLock = await takeStartUpLock(url);
    await applyMigrations(startUpLock, {
      afterMigrations: async (db) => {
        const rows = await encryptPlaintextAtStart(db, keyring, log);
        if (Object.values(rows).some((n) => n > 0)) {
          await appendAuditEntry(db, {
            event: 'DATA_REENCRYPTED',
            level: 'INFO',
            actor: SYSTEM_ACTOR,
            details: { reason: 'plain text written before encryption', keyId: keyring.currentKeyId, rows },
          });
        }
        // Stored text the current text rule refuses, made inert once per version of the rule (decision 022).
        await reviewStoredText(db, keyring, log);
      },
    });
    database = connectDatabase(url, { max: config.databasePoolMax });
    // The practice's settings from the database, followed live: every service reads config.settings.current() at
    // call time, so an administrator's change applies at once (decision 032).
    settings = await SettingsService.open({
      db: database.db,
      defaults: config.practiceDefaults,
      log,
      connection: database.pool.options,
    });
    config = { ...config, settings };
    const secret = config.authSecret ?? localSecret(config.dataDir);
    const auth = createAuth({ db: database.db, config, secret });
    const rateLimiter = new RateLimiter(secret);
    const authService = new AuthService({ auth, db: database.db, config, secret, limiter: rateLimiter });
    const patients = new PatientsService({ db: database.db, secret, keyring });
    const idempotency = new IdempotencyKeys({ db: database.db, secret });
    const appointments = new AppointmentsService({
      db: database.db,
      secret,
      keyring,
      settings: config.settings,
    });
    const mail = new MailService({ db: database.db, config, log, secret });
    const appointmentNotifications = new AppointmentNotifications({ db: database.db, mail, config, log });
    appointments.addListener(appointmentNotifications);
    const waitlist = new WaitlistService({ db: database.db, keyring, mail, config, appointments, log });
    appointments.addListener(waitlist);
    const calendarFeeds = new CalendarFeedService({ db: database.db, config });
    const recordings = new RecordingsService({ db: database.db, keyring, config, log });
    const video = new VideoService({ db: database.db, keyring, config, secret, appointments, recordings, mail, log });
    appointments.addListener(video);
    // Providers see their patients' bookings and requests live.
    appointments.addListener(new AppointmentLiveUpdates());
    const invitations = new InvitationsService({ auth, db: database.db, config, mail, limiter: rateLimiter, secret });
    const providers = new ProvidersService({ db: database.db, secret, invitations });
    const passwordReset = new PasswordResetService({
      auth,
      db: database.db,
      config,
      mail,
      limiter: rateLimiter,
      secret,
    });
    const accessRequests = new AccessRequestsService({
      db: database.db,
      mail,
      invitations,
      limiter: rateLimiter,
      secret,
      keyring,
      maxPerHour: config.accessRequestsPerHour,
    });
    const measures = new MeasuresService({ db: database.db, keyring, mail, config });
    const messages = new MessagesService({ db: database.db, keyring, secret, mail, config });
    const backups = new BackupService({ db: database.db, config, keyring, url });
    const dataExport = new DataExportService({ db: database.db, pool: database.pool, keyring });
    jobs = new JobQueue({
      url,
      log,
      handlers: taskHandlers({
        db: database.db,
        authService,
        rateLimiter,
        mail,
        appointmentNotifications,
        waitlist,
        recordings,
        measures,
        messages,
        log,
        auditAnchorsFile: auditAnchorsPath(config.dataDir),
        backups,
        keyring,
      }),
      crontab: crontab + backupCrontab(config.backup.schedule),
      ...(options.extraTasks ? { extraTasks: options.extraTasks } : {}),
    });
    if (options.runJobs === false) {
      await jobs.installSchema();
    } else {
      await jobs.start();
      await mail.addMissingDeliveryJobs();
      // A backup whose process died while this server was down shows as failed, not as running.
      await backups.endDeadRuns();
      // The audit sealer runs from now on, rescheduling itself (one pending job whatever the instances).
      await addJob(database.db, 'audit:seal', {}, { jobKey: AUDIT_SEAL_JOB_KEY, jobKeyMode: 'preserve_run_at' });
    }
    const twoFactor = new TwoFactorService({ auth, db: database.db, config, authService, secret });
    const notes = new NotesService({
      db: database.db,
      keyring,
      secret,
      confirmIdentity: (caller, meta, proof) => twoFactor.confirmIdentity(caller, meta, proof),
    });
    await notes.seedTemplates();
    const reindexed = await notes.reindexSearch();
    if (reindexed > 0) log.info({ notes: reindexed }, 'notes re-indexed for search under the current key');
    const reindexedMessages = await messages.reindexSearch();
    if (reindexedMessages > 0)
      log.info({ rows: reindexedMessages }, 'messages re-indexed for search under the current key');
    const storedText = new StoredTextService({ db: database.db });
    const portalRecords = new PortalRecordsService({ db: database.db, keyring, secret, mail, patients });
    const account = new AccountService({ db: database.db, auth, authService });
    const reports = new ReportsService({
      db: database.db,
      timeZone: () => config.settings.current().timeZone,
      bulkAccess: config.riskBulkAccess,
    });
    const adminUsers = new AdminUsersService({
      db: database.db,
      secret,
      invitations,
      passwordReset,
      twoFactor,
      authService,
    });
    const emergencyAccess = new EmergencyAccessService({ db: database.db, keyring, config, mail, secret });
    const auditTrail = new AuditTrailService({ db: database.db, config, secret, limiter: rateLimiter, keyring });
    const adminConsole = new AdminConsoleService({ db: database.db, config, log });
    if (options.seedDemo) {
      await ensureDemoAccounts(auth, database.db);
      if (options.seedDemo === 'practice') {
        await ensureDemoPractice(database.db, keyring);
        await ensureDemoSchedule(database.db, keyring, config.settings.current().timeZone);
        await ensureDemoClinicalHistory(database.db, keyring, secret, config.settings.current().timeZone);
      }
    }
    await startUpLock.release();
    const opened = database;
    const openedSettings = settings;
    const queue = jobs;
    let closing: Promise<void> | undefined;
    return {
      config,
      database: opened,
      auth,
      authService,
      patients,
      appointments,
      waitlist,
      calendarFeeds,
      video,
      recordings,
      notes,
      measures,
      messages,
      providers,
      mail,
      rateLimiter,
      invitations,
      passwordReset,
      accessRequests,
      jobs: queue,
      twoFactor,
      storedText,
      portalRecords,
      account,
      reports,
      adminUsers,
      emergencyAccess,
      auditTrail,
      dataExport,
      backups,
      adminConsole,
      settings: openedSettings,
      idempotency,
      secret,
      keyring,
      close() {
        closing ??= (async () => {
          await queue.stop();
          mail.close();
          await openedSettings.close();
          await opened.close();
          await embedded?.stop();
        })();
        return closing;
      },
    };
  } catch (error) {
    await startUpLock?.release();
    await jobs?.stop();
    await settings?.close();
    await database?.close();
    await embedded?.stop();
    throw error;
  }
}

/** Without AUTH_SECRET (outside production) a random secret is kept in DATA_DIR, readable only by its owner. */
function localSecret(dataDir: string): string {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  return readOrCreateSecret(path.join(dataDir, 'auth-secret'));
}

/**
 * Without DATA_ENCRYPTION_KEY (outside production) the data keys are kept in DATA_DIR/data-keys, readable only by
 * its owner, in the variable's format (one `id:key` a line, the current key first), so an operator can rotate them
 * there. Losing the file loses the encrypted data: back it up with the database (decision 016).
 */
function localDataKeys(dataDir: string) {
  fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = path.join(dataDir, 'data-keys');
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    text = `${DATA_KEYS_FILE_HEADER}${generateDataKeyEntry('k1')}\n`;
    // 'wx': two instances starting at once must not each write a different key; the second reads the first's.
    try {
      fs.writeFileSync(file, text, { mode: 0o600, flag: 'wx' });
    } catch {
      text = fs.readFileSync(file, 'utf8');
    }
  }
  const parsed = parseDataKeys(text);
  if ('problems' in parsed) throw new Error(`${file}: ${parsed.problems.join('; ')}`);
  return parsed.keys;
}

const DATA_KEYS_FILE_HEADER = `# Data encryption keys (DATA_ENCRYPTION_KEY was not set). One id:key a line; the first encrypts, every one
# decrypts. Rotate: add a new line at the top (id:$(openssl rand -base64 32)), restart, run npm run keys:rotate.
# Losing this file loses the encrypted clinical text: back it up, apart from the database backups.
`;
