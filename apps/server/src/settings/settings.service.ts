import { asc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type pg from 'pg';
import {
  isPracticeSettingKey,
  PRACTICE_SETTING_KEYS,
  PRACTICE_SETTING_SCHEMAS,
  PRACTICE_SETTING_VARIABLES,
  UpdatePracticeSettingsInputSchema,
  type PracticeSettingKey,
  type PracticeSettings,
  type PracticeSettingSource,
} from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf } from '../access/scope.ts';
import { appendAuditEntries } from '../audit/audit.repository.ts';
import { endSessionsWithoutTwoFactor } from '../auth/sessions.repository.ts';
import type { Config, PracticeSettingsSource } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { NotificationListener } from '../db/notification-listener.ts';
import { badUserInput, parseInput } from '../errors.ts';
import { practiceSettings } from './settings.table.ts';
import { ADVISORY_LOCKS } from '../db/advisory-locks.ts';
import { userNameOrNullOf } from '../users/users.repository.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** Every instance LISTENs here; a change NOTIFYs it in the changing transaction, so others read it after commit. */
export const PRACTICE_SETTINGS_CHANNEL = 'practice_settings';

/** Changes take turns (the old value of an audit entry is the one really replaced). */
const SETTINGS_LOCK_KEY = ADVISORY_LOCKS.settings;

/** One setting as the settings screen shows it: where its value comes from, and who changed it when. */
export interface PracticeSettingSourceView {
  key: PracticeSettingKey;
  source: PracticeSettingSource;
  /** The environment variables of its default (none: built in). */
  variables: readonly string[];
  updatedAt: Date | null;
  updatedByName: string | null;
}

export interface PracticeSettingsView {
  /** The values in use now. */
  values: PracticeSettings;
  /** What "reset to default" brings back. */
  defaults: PracticeSettings;
  sources: PracticeSettingSourceView[];
}

interface StoredSetting {
  value: unknown;
  updatedAt: Date;
  updatedByName: string | null;
}

/** JSON with object keys sorted, so two equal values compare equal whatever order jsonb kept them in. */
function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/**
 * The practice's settings (decision 032). `current()` answers, synchronously, a snapshot kept in memory: the
 * stored value of each setting an administrator changed, else its default (the environment's, else built in). A
 * change is written, audited with the old and new value, and NOTIFYed in one transaction; every instance LISTENs
 * and reads the table again, so the next call anywhere uses the new value. No restart.
 */
export class SettingsService implements PracticeSettingsSource {
  readonly #db: Database;
  readonly #defaults: Config['practiceDefaults'];
  readonly #log: Log;
  #snapshot: PracticeSettings;
  #stored = new Map<PracticeSettingKey, StoredSetting>();
  #listener: NotificationListener | undefined;
  /** Reads run one after another: a slow read must never bring back an older value after a newer one. */
  #reads: Promise<void> = Promise.resolve();

  constructor(options: { db: Database; defaults: Config['practiceDefaults']; log: Log }) {
    this.#db = options.db;
    this.#defaults = options.defaults;
    this.#log = options.log;
    this.#snapshot = structuredClone(options.defaults.values);
  }

  /** Reads the stored settings, then LISTENs for changes made by any instance. */
  static async open(options: {
    db: Database;
    defaults: Config['practiceDefaults'];
    log: Log;
    connection: pg.ClientConfig;
  }): Promise<SettingsService> {
    const service = new SettingsService(options);
    await service.reload();
    const listener = new NotificationListener({
      connection: options.connection,
      channels: [PRACTICE_SETTINGS_CHANNEL],
      name: 'settings',
      log: options.log,
      onNotification: () => service.#reloadInBackground(),
      // A change made while the connection was down sent its notice to nobody: read again.
      onReconnected: () => service.#reloadInBackground(),
    });
    await listener.start();
    service.#listener = listener;
    return service;
  }

  /** The settings in use now. Read it at call time; never keep a value. */
  current(): PracticeSettings {
    return this.#snapshot;
  }

  /** Reads the table again (after any read under way) and replaces the snapshot. */
  reload(): Promise<void> {
    const read = this.#reads.then(() => this.#read());
    this.#reads = read.catch(() => undefined);
    return read;
  }

  async #read(): Promise<void> {
    const rows = await this.#db
      .select({
        key: practiceSettings.key,
        value: practiceSettings.value,
        updatedAt: practiceSettings.updatedAt,
        updatedByName: userNameOrNullOf(practiceSettings.updatedBy),
      })
      .from(practiceSettings)
      .orderBy(asc(practiceSettings.key));
    const stored = new Map<PracticeSettingKey, StoredSetting>();
    const snapshot = structuredClone(this.#defaults.values) as Record<PracticeSettingKey, unknown>;
    for (const row of rows) {
      if (!isPracticeSettingKey(row.key)) continue;
      const parsed = PRACTICE_SETTING_SCHEMAS[row.key].safeParse(row.value);
      if (!parsed.success) {
        // A value a newer rule refuses (or written by hand): the default applies until an administrator sets it.
        this.#log.warn({ setting: row.key }, 'a stored practice setting is not valid; its default applies');
        continue;
      }
      snapshot[row.key] = parsed.data;
      stored.set(row.key, { value: parsed.data, updatedAt: row.updatedAt, updatedByName: row.updatedByName });
    }
    this.#stored = stored;
    this.#snapshot = Object.freeze(snapshot) as PracticeSettings;
  }

  /** Administrators: every setting, its default, and where the value in use comes from. */
  async view(caller: Caller): Promise<PracticeSettingsView> {
    await authorize(this.#db, caller, 'settings:manage');
    return this.#view();
  }

  /**
   * Administrators: changes the settings given (the others stay). Every value is checked first; one refused
   * value changes nothing. Each setting whose value changes gets a SETTING_UPDATE entry with the old and the new
   * value; all are written, audited and announced in one transaction.
   */
  async update(caller: Caller, input: unknown): Promise<PracticeSettingsView> {
    await authorize(this.#db, caller, 'settings:manage');
    const change = parseInput(UpdatePracticeSettingsInputSchema, input) as Partial<Record<PracticeSettingKey, unknown>>;
    await this.#db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${SETTINGS_LOCK_KEY})`);
      const inUse = await this.#valuesIn(tx);
      let changed = 0;
      for (const key of PRACTICE_SETTING_KEYS) {
        const next = change[key];
        if (next === undefined) continue;
        const old = inUse.values[key];
        if (stableJson(old) === stableJson(next)) continue;
        // As JSON text: a null (no clinic phone) is the JSON null, not SQL NULL.
        const value = sql`${JSON.stringify(next)}::jsonb`;
        await tx
          .insert(practiceSettings)
          .values({ key, value, updatedBy: caller.user.id, updatedAt: sql`now()` })
          .onConflictDoUpdate({
            target: practiceSettings.key,
            set: { value, updatedBy: caller.user.id, updatedAt: sql`now()` },
          });
        await scopeOf(this.#db, caller).audit(tx, 'SETTING_UPDATE', {
          setting: key,
          oldValue: old,
          newValue: next,
          oldSource: inUse.sources[key],
        });
        changed++;
        if (key === 'twoFactorRequiredRoles') await this.#applyTwoFactorRule(tx, caller, next);
      }
      if (changed > 0) await tx.execute(sql`SELECT pg_notify(${PRACTICE_SETTINGS_CHANNEL}, 'changed')`);
    });
    await this.reload();
    return this.#view();
  }

  /** Administrators: a setting goes back to its default (SETTING_RESET with the old and new value). */
  async reset(caller: Caller, key: string): Promise<PracticeSettingsView> {
    await authorize(this.#db, caller, 'settings:manage');
    if (!isPracticeSettingKey(key)) throw badUserInput('settingsMessages.unknownSetting');
    await this.#db.transaction(async (tx) => {
      await tx.execute(sql`SELECT pg_advisory_xact_lock(${SETTINGS_LOCK_KEY})`);
      const inUse = await this.#valuesIn(tx);
      const removed = await tx
        .delete(practiceSettings)
        .where(eq(practiceSettings.key, key))
        .returning({ key: practiceSettings.key });
      if (removed.length === 0) return;
      await scopeOf(this.#db, caller).audit(tx, 'SETTING_RESET', {
        setting: key,
        oldValue: inUse.values[key],
        newValue: this.#defaults.values[key],
        newSource: this.#defaultSource(key),
      });
      if (key === 'twoFactorRequiredRoles') {
        await this.#applyTwoFactorRule(tx, caller, this.#defaults.values.twoFactorRequiredRoles);
      }
      await tx.execute(sql`SELECT pg_notify(${PRACTICE_SETTINGS_CHANNEL}, 'changed')`);
    });
    await this.reload();
    return this.#view();
  }

  /**
   * Two-factor now required for these roles: their sessions of accounts without two-factor end in the change's
   * transaction (every instance closes their sockets on the notice), each recorded as SESSION_REVOKED by the
   * administrator; the next request is unauthenticated and the sign-in leads to the set-up (decision 019). The
   * administrator's own session is no exception.
   */
  async #applyTwoFactorRule(tx: Executor, caller: Caller, roles: unknown): Promise<void> {
    const required = Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : [];
    const ended = await endSessionsWithoutTwoFactor(tx, required);
    const scope = scopeOf(this.#db, caller);
    await appendAuditEntries(
      tx,
      ended.map((session) =>
        scope.auditRecord(
          'SESSION_REVOKED',
          {
            reason: 'two-factor required for the role',
            setting: 'twoFactorRequiredRoles',
            sessionId: session.id,
            accountId: session.userId,
            role: session.role,
          },
          { level: 'WARNING' },
        ),
      ),
    );
  }

  async close(): Promise<void> {
    await this.#listener?.stop();
  }

  #reloadInBackground(): void {
    this.reload().catch((error: unknown) => {
      this.#log.error({ err: error }, 'practice settings could not be read again after a change');
    });
  }

  #defaultSource(key: PracticeSettingKey): PracticeSettingSource {
    return this.#defaults.fromEnvironment.includes(key) ? 'environment' : 'builtIn';
  }

  /** The values in use as the transaction sees them (under the lock), and where each comes from. */
  async #valuesIn(tx: Executor): Promise<{
    values: Record<PracticeSettingKey, unknown>;
    sources: Record<PracticeSettingKey, PracticeSettingSource>;
  }> {
    const rows = await tx.select({ key: practiceSettings.key, value: practiceSettings.value }).from(practiceSettings);
    const values = structuredClone(this.#defaults.values) as Record<PracticeSettingKey, unknown>;
    const sources = Object.fromEntries(PRACTICE_SETTING_KEYS.map((key) => [key, this.#defaultSource(key)])) as Record<
      PracticeSettingKey,
      PracticeSettingSource
    >;
    for (const row of rows) {
      if (!isPracticeSettingKey(row.key)) continue;
      const parsed = PRACTICE_SETTING_SCHEMAS[row.key].safeParse(row.value);
      if (!parsed.success) continue;
      values[row.key] = parsed.data;
      sources[row.key] = 'changed';
    }
    return { values, sources };
  }

  #view(): PracticeSettingsView {
    return {
      values: this.#snapshot,
      defaults: this.#defaults.values,
      sources: PRACTICE_SETTING_KEYS.map((key) => {
        const stored = this.#stored.get(key);
        return {
          key,
          source: stored ? 'changed' : this.#defaultSource(key),
          variables: PRACTICE_SETTING_VARIABLES[key],
          updatedAt: stored?.updatedAt ?? null,
          updatedByName: stored?.updatedByName ?? null,
        };
      }),
    };
  }
}
