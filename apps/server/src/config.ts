import { isIP } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import {
  DEFAULT_PRACTICE_TIME_ZONE,
  EmailSchema,
  isRole,
  isTimeZone,
  PhoneSchema,
  ROLES,
  VIDEO_JOIN_EARLY_MINUTES,
  VIDEO_JOIN_LATE_MINUTES,
  SAFETY_ALERT_ESCALATION_MINUTES,
  BULK_ACCESS_PATIENTS,
  BULK_ACCESS_MINUTES,
  APPOINTMENT_DURATIONS,
  APPOINTMENT_TYPES,
  BOOKING_MODES,
  DEFAULT_BOOKING_POLICY,
  DEFAULT_INTAKE_SECTIONS,
  DEFAULT_SLOT_STEP,
  DEFAULT_WORKING_HOURS,
  DEMO_CLINIC_PHONE,
  type BookingPolicy,
  MESSAGE_RESPONSE_BUSINESS_DAYS,
  EMERGENCY_ACCESS_MINUTES,
  PRACTICE_SETTING_KEYS,
  PRACTICE_SETTING_VARIABLES,
  type PracticeSettingKey,
  type PracticeSettings,
} from '@telehealth/shared';
import { parseDataKeys, type DataKey } from './keys/keyring.ts';
import type { LogFormat } from './http/request-log.ts';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
    error: 'must be one of true, false, 1, 0, yes, no, on, off',
  })
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

/** proxy-addr's names for address ranges, accepted in a TRUST_PROXY list. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

/**
 * Which proxies may say who the client is (X-Forwarded-For): `false` none; a list, the proxies' own addresses
 * or ranges (the client is the address the nearest untrusted hop saw); `true` every hop, so the left-most
 * address, which the client itself can write. Fastify 5 no longer takes a hop count (it cannot check the
 * nearest peer), so a number is refused with a hint rather than read as true.
 */
const trustProxyFromEnv = z.string().transform((raw, ctx): boolean | string[] => {
  const value = raw.trim().toLowerCase();
  if (['true', 'yes', 'on'].includes(value)) return true;
  if (['false', 'no', 'off'].includes(value)) return false;
  if (/^\d+$/.test(value)) {
    ctx.addIssue({
      code: 'custom',
      message:
        'a number of proxies is not supported: list the proxy addresses instead (loopback for a proxy on this machine)',
    });
    return z.NEVER;
  }
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  const bad = entries.filter((entry) => !isProxyAddress(entry));
  if (entries.length === 0 || bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must be true, false, or proxy addresses and ranges separated by commas (10.0.0.1, 10.0.0.0/8, loopback)${bad.length > 0 ? `; not understood: ${bad.join(', ')}` : ''}`,
    });
    return z.NEVER;
  }
  return entries;
});

/** METRICS_ALLOW: addresses and ranges (10.0.0.0/8, loopback) separated by commas; empty or none: none. */
const metricsAllowFromEnv = z.string().transform((raw, ctx): string[] => {
  const entries = raw
    .split(',')
    .map((entry) => entry.trim().toLowerCase())
    .filter((entry) => entry && entry !== 'none');
  const bad = entries.filter(
    (entry) => entry !== 'loopback' && (entry === 'linklocal' || entry === 'uniquelocal' || !isProxyAddress(entry)),
  );
  if (bad.length > 0) {
    ctx.addIssue({
      code: 'custom',
      message: `must be addresses and ranges separated by commas (127.0.0.1, 10.0.0.0/8, loopback), or none; not understood: ${bad.join(', ')}`,
    });
    return z.NEVER;
  }
  return entries;
});

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  DATA_DIR: z.string().min(1).default('./data'),
  DEMO_MODE: booleanFromEnv.optional(),
  // What demo mode writes at start: the accounts only, or (the default) the accounts and an invented practice.
  DEMO_DATA: z.enum(['accounts', 'practice'], { error: 'must be accounts or practice' }).default('practice'),
  SESSION_IDLE_MINUTES: z.coerce
    .number()
    .positive()
    .max(24 * 60)
    .default(15),
  SESSION_MAX_HOURS: z.coerce
    .number()
    .positive()
    .max(24 * 30)
    .default(12),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['pretty', 'json']).optional(),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  DATA_ENCRYPTION_KEY: z
    .string()
    .transform((text, ctx) => {
      const parsed = parseDataKeys(text);
      if ('keys' in parsed) return parsed.keys;
      for (const problem of parsed.problems) ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    })
    .optional(),
  PRACTICE_NAME: z.string().min(1).default('Meridian Precision Psychiatry'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).optional(),
  TRUST_PROXY: trustProxyFromEnv.optional(),
  // /metrics (decision 038): a bearer token, and the addresses allowed without one.
  METRICS_TOKEN: z.string().min(24, 'must be at least 24 characters (openssl rand -base64 32)').optional(),
  METRICS_ALLOW: metricsAllowFromEnv.optional(),
  WEB_DIST_DIR: z.string().optional(),
  ACCESS_REQUESTS_PER_HOUR: z.coerce.number().int().min(1).max(10_000).default(5),
  DATABASE_POOL_MAX: z.coerce.number().int().min(2).max(200).default(10),
  DATABASE_POOL_IDLE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
  // Unset: 5 with NODE_ENV=production (behind a load balancer), 0 otherwise (a developer's Ctrl-C stops at once).
  SHUTDOWN_DRAIN_SECONDS: z.coerce.number().min(0).max(300).optional(),
  SMTP_URL: z
    .string()
    .regex(
      /^smtps?:\/\/[^/?#]+/,
      'must be an smtp:// or smtps:// URL, for example smtps://user:password@mail.example:465',
    )
    .optional(),
  MAIL_FROM: z
    .string()
    .max(320)
    .regex(
      /^(?:[^<>]*<[^<>\s@]+@[^<>\s@]+>|[^<>\s@]+@[^<>\s@]+)$/,
      'must be an address, or a name and an address: Practice <no-reply@practice.example>',
    )
    .optional(),
  ADMIN_EMAIL: z
    .string()
    .transform((raw) =>
      raw
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .superRefine((list, ctx) => {
      const bad = list.filter((address) => !EmailSchema.safeParse(address).success);
      if (bad.length > 0)
        ctx.addIssue({
          code: 'custom',
          message: `not an e-mail address: ${bad.join(', ')} (separate several with commas)`,
        });
    })
    .transform((list) => list.map((address) => address.toLowerCase()))
    .optional(),
  MFA_REQUIRED_ROLES: z
    .string()
    .transform((raw) =>
      raw
        .split(',')
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean),
    )
    .superRefine((list, ctx) => {
      const bad = list.filter((role) => !isRole(role));
      if (bad.length > 0)
        ctx.addIssue({
          code: 'custom',
          message: `not a role: ${bad.join(', ')} (roles are ${ROLES.join(', ')}, separated by commas)`,
        });
    })
    .transform((list) => [...new Set(list.filter(isRole))])
    .optional(),
  CLINIC_PHONE: PhoneSchema.optional(),
  CONTACT_EMAIL: EmailSchema.optional(),
  BOOKING_URL: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
  EMERGENCY_BANNER: booleanFromEnv.optional(),
  PRACTICE_TIME_ZONE: z
    .string()
    .refine(isTimeZone, 'must be an IANA time zone name such as America/New_York')
    .default(DEFAULT_PRACTICE_TIME_ZONE),
  APPOINTMENT_REMINDER_HOURS: z
    .string()
    .transform((raw, ctx) => {
      const hours = raw.split(',').map((h) => Number(h.trim()));
      if (hours.some((h) => !Number.isFinite(h) || h <= 0 || h > 24 * 14)) {
        ctx.addIssue({ code: 'custom', message: 'must be hours before a visit, separated by commas, such as 24,1' });
        return z.NEVER;
      }
      return [...new Set(hours)].sort((a, b) => b - a);
    })
    .optional(),
  BOOKING_MAIL_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(30),
  VIDEO_JOIN_EARLY_MINUTES: z.coerce.number().int().min(0).max(240).default(VIDEO_JOIN_EARLY_MINUTES),
  VIDEO_JOIN_LATE_MINUTES: z.coerce.number().int().min(0).max(240).default(VIDEO_JOIN_LATE_MINUTES),
  VIDEO_ROOM_PREFIX: z
    .string()
    .regex(/^[a-z0-9-]{1,40}$/, 'must be 1 to 40 lower-case letters, digits or hyphens')
    .default('telehealth'),
  RECORDING_RETENTION_DAYS: z.coerce.number().int().min(1).max(36_500).default(2_190),
  SAFETY_ALERT_ESCALATION_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(SAFETY_ALERT_ESCALATION_MINUTES),
  EMERGENCY_ACCESS_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(24 * 60)
    .default(EMERGENCY_ACCESS_MINUTES),
  STUN_URLS: iceUrlList('stun:').optional(),
  TURN_URLS: iceUrlList('turn:').optional(),
  TURN_SECRET: z.string().min(16, 'must be at least 16 characters (the static-auth-secret of coturn)').optional(),
  EMERGENCY_BANNER_HEADING: z.string().max(200, 'must be at most 200 characters').optional(),
  EMERGENCY_BANNER_BODY: z.string().max(2000, 'must be at most 2000 characters').optional(),
  // The booking policy for patients (decision 030).
  PATIENT_CHANGE_WINDOW_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 14)
    .default(DEFAULT_BOOKING_POLICY.changeWindowHours),
  PATIENT_BOOKING_MIN_NOTICE_HOURS: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(DEFAULT_BOOKING_POLICY.minNoticeHours),
  PATIENT_BOOKING_HORIZON_DAYS: z.coerce.number().int().min(1).max(366).default(DEFAULT_BOOKING_POLICY.horizonDays),
  PATIENT_BOOKING_TYPES: z
    .string()
    .transform((raw, ctx) => {
      const list = raw
        .split(',')
        .map((part) => part.trim().toLowerCase())
        .filter(Boolean);
      const known: readonly string[] = APPOINTMENT_TYPES;
      if (list.some((type) => !known.includes(type))) {
        ctx.addIssue({
          code: 'custom',
          message: `must be ${APPOINTMENT_TYPES.join(', ')} or none, separated by commas`,
        });
        return z.NEVER;
      }
      return APPOINTMENT_TYPES.filter((type) => list.includes(type));
    })
    .optional(),
  PATIENT_BOOKING_MODE: z
    .enum(BOOKING_MODES, { error: `must be ${BOOKING_MODES.join(' or ')}` })
    .default(DEFAULT_BOOKING_POLICY.mode),
  PATIENT_BOOKING_DURATION_MINUTES: z.coerce
    .number()
    .refine((n) => (APPOINTMENT_DURATIONS as readonly number[]).includes(n), {
      message: `must be one of ${APPOINTMENT_DURATIONS.join(', ')}`,
    })
    .default(DEFAULT_BOOKING_POLICY.duration),
  MESSAGE_RESPONSE_BUSINESS_DAYS: z.coerce.number().int().min(1).max(30).default(MESSAGE_RESPONSE_BUSINESS_DAYS),
  MESSAGE_MAIL_DELAY_MINUTES: z.coerce
    .number()
    .int()
    .min(0)
    .max(24 * 60)
    .default(5),
  // The compliance report's BULK_RECORD_ACCESS: this many distinct patients opened by one person within the minutes.
  RISK_BULK_ACCESS_PATIENTS: z.coerce.number().int().min(2).max(100_000).default(BULK_ACCESS_PATIENTS),
  RISK_BULK_ACCESS_MINUTES: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 24 * 60)
    .default(BULK_ACCESS_MINUTES),
  // Backups (decision 037): the key (else derived from the data key), where, when (crontab, or off), how many kept.
  BACKUP_ENCRYPTION_KEY: z
    .string()
    .transform((text, ctx) => {
      const parsed = parseDataKeys(text);
      if ('keys' in parsed) return parsed.keys;
      for (const problem of parsed.problems) ctx.addIssue({ code: 'custom', message: problem });
      return z.NEVER;
    })
    .optional(),
  BACKUP_DIR: z.string().min(1).optional(),
  BACKUP_SCHEDULE: z
    .string()
    .trim()
    .regex(/^(off|(\S+\s+){4}\S+)$/, 'must be five crontab fields in UTC (minute hour day month weekday) or off')
    .default('17 2 * * *'),
  BACKUP_KEEP: z.coerce.number().int().min(1).max(10_000).default(14),
  // Files (decision 070): under DATA_DIR/blobs, or an S3-compatible store; the AWS SDK reads its own variables
  // (AWS_REGION, AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_PROFILE, ...) for the rest.
  BLOB_STORE_URL: z
    .string()
    .trim()
    .regex(
      /^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/([A-Za-z0-9_-][A-Za-z0-9._-]*)(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)*)?\/?$/,
      'must be s3://bucket or s3://bucket/prefix (a bucket name, then path segments of letters, digits, ".", "_", "-")',
    )
    .optional(),
  S3_ENDPOINT: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
  S3_FORCE_PATH_STYLE: booleanFromEnv.default(false),
});

/** A comma-separated list of STUN or TURN addresses (`stun:host:port`, `turn:host:port?transport=udp`, `turns:`). */
function iceUrlList(scheme: 'stun:' | 'turn:') {
  return z.string().transform((raw, ctx) => {
    const urls = raw
      .split(',')
      .map((u) => u.trim())
      .filter(Boolean);
    const bad = urls.filter((u) => !u.startsWith(scheme) && !u.startsWith(`${scheme.slice(0, -1)}s:`));
    if (bad.length > 0) {
      ctx.addIssue({
        code: 'custom',
        message: `must be ${scheme} addresses separated by commas, such as ${scheme}turn.example.org:3478`,
      });
      return z.NEVER;
    }
    return urls;
  });
}

/** The demo's address on a machine without a domain: in the demo accounts' made-up domain, like them. */
const DEMO_CONTACT_EMAIL = 'contact@demo.test';

/** contact@ the site's domain; null for a local name or an IP address, which no one can write to. */
function defaultContactEmail(publicUrl: string): string | null {
  const host = new URL(publicUrl).hostname;
  const isDomain = host.includes('.') && !/^[\d.]+$/.test(host) && !host.startsWith('[');
  return isDomain ? `contact@${host}` : null;
}

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  secureCookies: boolean;
  databaseUrl: string | undefined;
  dataDir: string;
  demoMode: boolean;
  /** DEMO_DATA: in demo mode, the demo accounts only, or with the invented practice and its history (the default). */
  demoData: 'accounts' | 'practice';
  sessionMaxHours: number;
  logLevel: string;
  /** LOG_FORMAT: one readable line per request in development, JSON lines elsewhere (decision 051). */
  logFormat: LogFormat;
  authSecret: string | undefined;
  /** DATA_ENCRYPTION_KEY, the current key first; unset outside production: generated into DATA_DIR/data-keys. */
  dataEncryptionKeys: DataKey[] | undefined;
  /**
   * The practice's settings in use now (decision 032): read `settings.current()` at call time, never keep a
   * value. At load, the environment's defaults; openRuntime puts the database's settings service here.
   */
  settings: PracticeSettingsSource;
  /** The defaults of the settings (the environment variables, else built in), and which the environment set. */
  practiceDefaults: { values: PracticeSettings; fromEnvironment: PracticeSettingKey[] };
  /** A safety alert nobody acknowledged in this many minutes goes to the administrators (decision 028). */
  safetyAlertEscalationMinutes: number;
  /** How long an emergency access ("break the glass") lasts (decision 036). */
  emergencyAccessMinutes: number;
  messages: {
    /** A new message is e-mailed about this long after it was sent, unless it was read by then. */
    mailDelayMinutes: number;
  };
  /** The compliance report's BULK_RECORD_ACCESS rule (decision 035). */
  riskBulkAccess: { patients: number; minutes: number };
  embeddedPgPort: number | undefined;
  /** Fastify's trustProxy: false, every hop (true), or the proxies' addresses and ranges. */
  trustProxy: boolean | string[];
  /** Who may read /metrics: a bearer token (METRICS_TOKEN) and addresses allowed without one (METRICS_ALLOW). */
  metrics: { token: string | null; allow: string[] };
  webDistDir: string;
  version: string;
  /** Unset: every mail is kept in the outbox and nothing is sent. */
  smtpUrl: string | undefined;
  /** Access requests one client address may submit in an hour. */
  accessRequestsPerHour: number;
  /** Connections each instance opens for requests (the job queue and the session listener add their own). */
  databasePoolMax: number;
  /**
   * How long a pooled connection (the requests' and the job queue's) may sit unused before it is closed. Connections
   * the instance holds for good (LISTEN, the workers' presence lock) are not pooled.
   */
  databasePoolIdleSeconds: number;
  /**
   * SHUTDOWN_DRAIN_SECONDS: on SIGTERM, how long the instance answers 503 on /api/health/ready while still serving
   * every request, so that a load balancer's health check sees it and sends new requests elsewhere, before it
   * stops accepting them and closes (decision 072).
   */
  shutdownDrainSeconds: number;
  /** MAIL_FROM; null: the practice's current name <no-reply@ the PUBLIC_URL host> (see mailFromOf). */
  mailFrom: string | null;
  /** Where notifications of new access requests go; empty means every active administrator account. */
  adminEmails: string[];
  /**
   * The public address for questions: CONTACT_EMAIL, else the first ADMIN_EMAIL, else contact@ the PUBLIC_URL
   * host when that is a domain name, else contact@demo.test in demo mode; null otherwise (the pages then show no
   * address).
   */
  contactEmail: string | null;
  bookingUrl: string | null;
  emergencyBanner: { enabled: boolean; heading: string | null; body: string | null };
  /** How long a booking's mail waits, so that an immediate undo sends nothing (BOOKING_MAIL_GRACE_SECONDS). */
  bookingMailGraceSeconds: number;
  /** Video visits (decision 026): who may join when, the room names, and the STUN/TURN servers handed out. */
  video: {
    joinEarlyMinutes: number;
    joinLateMinutes: number;
    roomPrefix: string;
    stunUrls: string[];
    /** With turnSecret: coturn's time-limited credentials (use-auth-secret) are issued per call. */
    turnUrls: string[];
    turnSecret: string | null;
  };
  /** Backups (decision 037). */
  backup: {
    /** BACKUP_ENCRYPTION_KEY, the first encrypts; unset: a key derived from the current data key. */
    keys: DataKey[] | undefined;
    /** BACKUP_DIR, default DATA_DIR/backups. */
    dir: string;
    /** Crontab fields (UTC) of the scheduled backup, or null when off. */
    schedule: string | null;
    /** How many backup files the folder keeps (the oldest go). */
    keep: number;
  };
  /** Where files are kept (decision 070): DATA_DIR/blobs, or an S3-compatible store (BLOB_STORE_URL). */
  blobStore: BlobStoreConfig;
}

/** The files' store: a folder, or a bucket (with a key prefix) of an S3-compatible store. */
export type BlobStoreConfig =
  | { kind: 'file'; dir: string }
  | { kind: 's3'; bucket: string; prefix: string; endpoint: string | undefined; forcePathStyle: boolean };

/** `s3://bucket/prefix` as its parts (the URL is checked by the schema). */
function blobStoreOf(url: string | undefined, dataDir: string, endpoint: string | undefined, forcePathStyle: boolean) {
  if (!url) return { kind: 'file' as const, dir: path.join(dataDir, 'blobs') };
  const [bucket = '', ...prefix] = url.slice('s3://'.length).split('/');
  return { kind: 's3' as const, bucket, prefix: prefix.filter(Boolean).join('/'), endpoint, forcePathStyle };
}

/** Where the practice's settings in use are read (the settings service, or the environment's defaults). */
export interface PracticeSettingsSource {
  current(): PracticeSettings;
}

/** The From of the practice's mail: MAIL_FROM, else its current name at no-reply@ the site's host. */
export function mailFromOf(config: Pick<Config, 'mailFrom' | 'publicUrl' | 'settings'>): string {
  if (config.mailFrom) return config.mailFrom;
  const name = config.settings
    .current()
    .practiceName.replaceAll('"', '')
    .replace(/[\r\n]/g, ' ');
  return `"${name}" <no-reply@${new URL(config.publicUrl).hostname}>`;
}

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

const serverRoot = path.resolve(import.meta.dirname, '..');

/** Reads the configuration from the environment; throws a ConfigError listing every bad variable. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in most deployment tools.
  const cleaned = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  const problems: string[] = [];
  if ((e.TURN_URLS?.length ?? 0) > 0 !== (e.TURN_SECRET !== undefined)) {
    problems.push('TURN_URLS and TURN_SECRET: set both (the TURN servers and their static-auth-secret) or neither');
  }
  if (e.NODE_ENV === 'production' && !e.AUTH_SECRET) {
    problems.push('AUTH_SECRET: required when NODE_ENV=production (at least 32 random characters)');
  }
  if (e.NODE_ENV === 'production' && !e.DATA_ENCRYPTION_KEY) {
    problems.push(
      'DATA_ENCRYPTION_KEY: required when NODE_ENV=production: id:key with 32 random bytes in base64, for example 2026-11:$(openssl rand -base64 32)',
    );
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const port = e.PORT;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  // Demo mode is on for the local demo (embedded database) and off in production unless set.
  const demoMode = e.DEMO_MODE ?? (e.NODE_ENV !== 'production' && e.DATABASE_URL === undefined);
  const defaults: PracticeSettings = {
    practiceName: e.PRACTICE_NAME,
    // The demo shows a fictional number so that every "call the clinic" has one; a real practice sets its own.
    clinicPhone: e.CLINIC_PHONE ?? (demoMode ? DEMO_CLINIC_PHONE : null),
    timeZone: e.PRACTICE_TIME_ZONE,
    defaultWorkingHours: DEFAULT_WORKING_HOURS.map((interval) => ({ ...interval })),
    bookingPolicy: {
      changeWindowHours: e.PATIENT_CHANGE_WINDOW_HOURS,
      minNoticeHours: e.PATIENT_BOOKING_MIN_NOTICE_HOURS,
      horizonDays: e.PATIENT_BOOKING_HORIZON_DAYS,
      appointmentTypes: e.PATIENT_BOOKING_TYPES ?? [...DEFAULT_BOOKING_POLICY.appointmentTypes],
      mode: e.PATIENT_BOOKING_MODE,
      duration: e.PATIENT_BOOKING_DURATION_MINUTES as BookingPolicy['duration'],
    },
    slotStepMinutes: DEFAULT_SLOT_STEP,
    reminderHours: e.APPOINTMENT_REMINDER_HOURS ?? [24, 1],
    messageResponseBusinessDays: e.MESSAGE_RESPONSE_BUSINESS_DAYS,
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    twoFactorRequiredRoles: e.MFA_REQUIRED_ROLES ?? [],
    recordingRetentionDays: e.RECORDING_RETENTION_DAYS,
    intakeSections: [...DEFAULT_INTAKE_SECTIONS],
    // Off: a practice that collects the consent on paper is not locked out until it turns this on (decision 069).
    videoConsentRequired: false,
    billingIdentity: null,
    visitCodingAfter: 'completed',
  };
  // A setting's default is the environment's when any of its variables is set.
  const fromEnvironment = PRACTICE_SETTING_KEYS.filter((key) =>
    PRACTICE_SETTING_VARIABLES[key].some((name) => cleaned[name] !== undefined),
  );
  return {
    nodeEnv: e.NODE_ENV,
    port,
    host: e.HOST,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    databaseUrl: e.DATABASE_URL,
    // Relative to where the command was typed (npm runs workspace scripts in the workspace folder).
    dataDir: path.resolve(env.INIT_CWD ?? process.cwd(), e.DATA_DIR),
    demoMode,
    demoData: e.DEMO_DATA,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === 'development' ? 'pretty' : 'json'),
    authSecret: e.AUTH_SECRET,
    dataEncryptionKeys: e.DATA_ENCRYPTION_KEY,
    settings: { current: () => defaults },
    practiceDefaults: { values: defaults, fromEnvironment },
    safetyAlertEscalationMinutes: e.SAFETY_ALERT_ESCALATION_MINUTES,
    emergencyAccessMinutes: e.EMERGENCY_ACCESS_MINUTES,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    trustProxy: e.TRUST_PROXY ?? false,
    metrics: { token: e.METRICS_TOKEN ?? null, allow: e.METRICS_ALLOW ?? ['loopback'] },
    webDistDir: e.WEB_DIST_DIR ?? path.resolve(serverRoot, '../web/dist'),
    version: process.env.npm_package_version ?? '0.1.0',
    smtpUrl: e.SMTP_URL,
    accessRequestsPerHour: e.ACCESS_REQUESTS_PER_HOUR,
    databasePoolMax: e.DATABASE_POOL_MAX,
    databasePoolIdleSeconds: e.DATABASE_POOL_IDLE_SECONDS,
    shutdownDrainSeconds: e.SHUTDOWN_DRAIN_SECONDS ?? (e.NODE_ENV === 'production' ? 5 : 0),
    mailFrom: e.MAIL_FROM ?? null,
    adminEmails: e.ADMIN_EMAIL ?? [],
    contactEmail:
      e.CONTACT_EMAIL ?? e.ADMIN_EMAIL?.[0] ?? defaultContactEmail(publicUrl) ?? (demoMode ? DEMO_CONTACT_EMAIL : null),
    bookingUrl: e.BOOKING_URL ?? null,
    // On for the demo so the banner can be seen; a real practice turns it on when an event calls for it.
    emergencyBanner: {
      enabled: e.EMERGENCY_BANNER ?? demoMode,
      heading: e.EMERGENCY_BANNER_HEADING?.trim() || null,
      body: e.EMERGENCY_BANNER_BODY?.trim() || null,
    },
    bookingMailGraceSeconds: e.BOOKING_MAIL_GRACE_SECONDS,
    video: {
      joinEarlyMinutes: e.VIDEO_JOIN_EARLY_MINUTES,
      joinLateMinutes: e.VIDEO_JOIN_LATE_MINUTES,
      roomPrefix: e.VIDEO_ROOM_PREFIX,
      stunUrls: e.STUN_URLS ?? [],
      turnUrls: e.TURN_URLS ?? [],
      turnSecret: e.TURN_SECRET ?? null,
    },
    messages: {
      mailDelayMinutes: e.MESSAGE_MAIL_DELAY_MINUTES,
    },
    riskBulkAccess: { patients: e.RISK_BULK_ACCESS_PATIENTS, minutes: e.RISK_BULK_ACCESS_MINUTES },
    backup: {
      keys: e.BACKUP_ENCRYPTION_KEY,
      dir: path.resolve(env.INIT_CWD ?? process.cwd(), e.BACKUP_DIR ?? path.join(e.DATA_DIR, 'backups')),
      schedule: e.BACKUP_SCHEDULE === 'off' ? null : e.BACKUP_SCHEDULE.split(/\s+/).join(' '),
      keep: e.BACKUP_KEEP,
    },
    blobStore: blobStoreOf(
      e.BLOB_STORE_URL,
      path.resolve(env.INIT_CWD ?? process.cwd(), e.DATA_DIR),
      e.S3_ENDPOINT,
      e.S3_FORCE_PATH_STYLE,
    ),
  };
}
