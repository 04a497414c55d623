/**
 * The administrator console (`/admin`) and the system's health (`/admin/health`): the words both sides share.
 * The server answers a verdict and a reason code for each check; the browser says the reason, and what to do,
 * in the reader's language (decision 038).
 */

/** A check's plain verdict, from good to bad. */
export const HEALTH_VERDICTS = ['OK', 'ATTENTION', 'PROBLEM'] as const;
export type HealthVerdict = (typeof HEALTH_VERDICTS)[number];

/** The checks of `/admin/health`, in the order the screen shows them. */
export const HEALTH_CHECKS = ['database', 'jobs', 'mail', 'auditSealer', 'backups', 'disk', 'server'] as const;
export type HealthCheckName = (typeof HEALTH_CHECKS)[number];

/**
 * Why a check has its verdict. Each has a text (and, unless the verdict is OK, what to do) in the browser's
 * `admin-console` namespace under `health.reason.<code>`.
 */
export const HEALTH_REASONS = [
  'ok',
  'checkFailed',
  'databaseSlow',
  'jobsFailed',
  'jobsOverdue',
  'jobsFailing',
  'mailFailed',
  'mailWaiting',
  'mailNotSent',
  'mailKeptDemo',
  'sealerLagging',
  'sealerStopped',
  'anchorMissing',
  'backupScheduledFailed',
  'backupScheduledSkipped',
  'diskLow',
  'diskCritical',
] as const;
export type HealthReason = (typeof HEALTH_REASONS)[number];

/** The worse of two verdicts. */
export function worseVerdict(a: HealthVerdict, b: HealthVerdict): HealthVerdict {
  return HEALTH_VERDICTS.indexOf(a) >= HEALTH_VERDICTS.indexOf(b) ? a : b;
}

/** Thresholds of the health verdicts (the decision record explains each). */
export const HEALTH_LIMITS = {
  /** A `SELECT 1` slower than this is worth a look. */
  databaseSlowMs: 500,
  /** A job due longer ago than this and not started: the workers are stuck or too few. */
  jobOverdueSeconds: 300,
  /** A mail waiting longer than this has not gone out in time. */
  mailWaitingSeconds: 1800,
  /** Entries written longer ago than this and not sealed into the chain: the sealer lags. */
  sealerAttentionSeconds: 30,
  /** ...and longer than this: the sealer has stopped. */
  sealerProblemSeconds: 600,
  /** Free space under DATA_DIR below this share of the disk, or below the bytes: attention. */
  diskAttentionRatio: 0.1,
  diskAttentionBytes: 2 * 1024 ** 3,
  /** ...and below these: a problem. */
  diskProblemRatio: 0.05,
  diskProblemBytes: 512 * 1024 ** 2,
} as const;

/** How many audit entries the console's recent activity shows. */
export const CONSOLE_RECENT_ACTIVITY = 10;
