import path from 'node:path';
import { z } from 'zod';

const booleanFromEnv = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off'], {
    error: 'must be one of true, false, 1, 0, yes, no, on, off',
  })
  .transform((v) => ['true', '1', 'yes', 'on'].includes(v));

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
  SESSION_IDLE_MINUTES: z.coerce.number().positive().max(24 * 60).default(15),
  SESSION_MAX_HOURS: z.coerce.number().positive().max(24 * 30).default(12),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  AUTH_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  PRACTICE_NAME: z.string().min(1).default('Meridian Precision Psychiatry'),
  EMBEDDED_PG_PORT: z.coerce.number().int().min(1024).max(65535).optional(),
  WEB_DIST_DIR: z.string().optional(),
});

export interface Config {
  nodeEnv: 'development' | 'production' | 'test';
  port: number;
  host: string;
  publicUrl: string;
  secureCookies: boolean;
  databaseUrl: string | undefined;
  dataDir: string;
  demoMode: boolean;
  sessionIdleMinutes: number;
  sessionMaxHours: number;
  logLevel: string;
  authSecret: string | undefined;
  practiceName: string;
  embeddedPgPort: number | undefined;
  webDistDir: string;
  version: string;
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
  if (e.NODE_ENV === 'production' && !e.AUTH_SECRET) {
    problems.push('AUTH_SECRET: required when NODE_ENV=production (at least 32 random characters)');
  }
  if (problems.length > 0) throw new ConfigError(problems);

  const port = e.PORT;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${port}`).replace(/\/$/, '');
  // Demo mode is on for the local demo (embedded database) and off in production unless set.
  const demoMode = e.DEMO_MODE ?? (e.NODE_ENV !== 'production' && e.DATABASE_URL === undefined);
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
    sessionIdleMinutes: e.SESSION_IDLE_MINUTES,
    sessionMaxHours: e.SESSION_MAX_HOURS,
    logLevel: e.LOG_LEVEL,
    authSecret: e.AUTH_SECRET,
    practiceName: e.PRACTICE_NAME,
    embeddedPgPort: e.EMBEDDED_PG_PORT,
    webDistDir: e.WEB_DIST_DIR ?? path.resolve(serverRoot, '../web/dist'),
    version: process.env.npm_package_version ?? '0.1.0',
  };
}
