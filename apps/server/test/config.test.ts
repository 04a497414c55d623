import { describe, expect, it } from 'vitest';
import { DEMO_CLINIC_PHONE } from '@telehealth/shared';
import { ConfigError, loadConfig } from '../src/config.ts';
import { TEST_DATA_KEY } from './helpers.ts';

const PRODUCTION = { NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), DATA_ENCRYPTION_KEY: TEST_DATA_KEY };

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      sessionMaxHours: 12,
      demoMode: true,
      databaseUrl: undefined,
      secureCookies: false,
      databasePoolMax: 10,
      databasePoolIdleSeconds: 30,
    });
    expect(config.dataDir).toMatch(/data$/);
    expect(config.settings.current().sessionIdleMinutes).toBe(15);
  });

  it('logs readable lines in development and JSON elsewhere, unless LOG_FORMAT says', () => {
    expect(loadConfig({}).logFormat).toBe('pretty');
    expect(loadConfig(PRODUCTION).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'test' }).logFormat).toBe('json');
    expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    expect(() => loadConfig({ LOG_FORMAT: 'yaml' })).toThrow(ConfigError);
  });

  it('turns demo mode off in production and with an external database unless set', () => {
    expect(loadConfig(PRODUCTION).demoMode).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).demoMode).toBe(false);
    expect(loadConfig({ ...PRODUCTION, DEMO_MODE: 'true' }).demoMode).toBe(true);
  });

  it('gives the demo a fictional clinic number, and a real practice none unless CLINIC_PHONE is set', () => {
    const phone = (env: NodeJS.ProcessEnv) => loadConfig(env).settings.current().clinicPhone;
    expect(phone({})).toBe(DEMO_CLINIC_PHONE);
    expect(DEMO_CLINIC_PHONE).toMatch(/555-01\d\d$/);
    expect(phone({ CLINIC_PHONE: '(503) 555-0100' })).toBe('(503) 555-0100');
    expect(phone(PRODUCTION)).toBeNull();
    expect(phone({ DEMO_MODE: 'false' })).toBeNull();
    // Not from the environment: the settings screen calls it the built-in default.
    expect(loadConfig({}).practiceDefaults.fromEnvironment).not.toContain('clinicPhone');
  });

  it('lists every bad variable at once', () => {
    let error: unknown;
    try {
      loadConfig({
        PORT: 'eighty',
        DATABASE_URL: 'mysql://x',
        SESSION_IDLE_MINUTES: '-1',
        DEMO_MODE: 'maybe',
        LOG_LEVEL: 'loud',
      });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(problems).toEqual(
      expect.arrayContaining(['PORT', 'DATABASE_URL', 'SESSION_IDLE_MINUTES', 'DEMO_MODE', 'LOG_LEVEL']),
    );
  });

  it('has a public contact address: CONTACT_EMAIL, else the first administrator, else contact@ the site', () => {
    expect(loadConfig({ CONTACT_EMAIL: 'hello@practice.example' }).contactEmail).toBe('hello@practice.example');
    expect(loadConfig({ ADMIN_EMAIL: 'Ops@Practice.example, b@practice.example' }).contactEmail).toBe(
      'ops@practice.example',
    );
    expect(loadConfig({ PUBLIC_URL: 'https://care.practice.example' }).contactEmail).toBe(
      'contact@care.practice.example',
    );
    const local = { DEMO_MODE: 'false', PUBLIC_URL: 'http://localhost:3000' };
    expect(loadConfig(local).contactEmail).toBeNull();
    expect(loadConfig({ ...local, PUBLIC_URL: 'http://192.168.1.20:3000' }).contactEmail).toBeNull();
    expect(loadConfig({ ...local, DEMO_MODE: 'true' }).contactEmail).toBe('contact@demo.test');
    expect(() => loadConfig({ CONTACT_EMAIL: 'not an address' })).toThrow(/CONTACT_EMAIL/);
  });

  it("reads TRUST_PROXY as true, false, or the proxies' addresses and ranges, and refuses a hop count", () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(loadConfig({ TRUST_PROXY: 'off' }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,2001:db8::1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '2001:db8::1',
    ]);
    expect(() => loadConfig({ TRUST_PROXY: '1' })).toThrow(/TRUST_PROXY: a number of proxies is not supported/);
    expect(() => loadConfig({ TRUST_PROXY: '10.0.0.0/33, proxy.internal' })).toThrow(
      /TRUST_PROXY: .*not understood: 10\.0\.0\.0\/33, proxy\.internal/,
    );
  });

  it('sizes the request pool from DATABASE_POOL_MAX, within 2 to 200', () => {
    expect(loadConfig({ DATABASE_POOL_MAX: '25' }).databasePoolMax).toBe(25);
    for (const bad of ['1', '201', 'many']) expect(() => loadConfig({ DATABASE_POOL_MAX: bad })).toThrow(ConfigError);
  });

  it('closes pooled connections after DATABASE_POOL_IDLE_SECONDS unused, within 1 to 3600', () => {
    expect(loadConfig({ DATABASE_POOL_IDLE_SECONDS: '5' }).databasePoolIdleSeconds).toBe(5);
    for (const bad of ['0', '3601', 'soon'])
      expect(() => loadConfig({ DATABASE_POOL_IDLE_SECONDS: bad })).toThrow(ConfigError);
  });

  it('writes the demo practice in demo mode unless DEMO_DATA=accounts', () => {
    expect(loadConfig({}).demoData).toBe('practice');
    expect(loadConfig({ DEMO_DATA: 'accounts' }).demoData).toBe('accounts');
    expect(() => loadConfig({ DEMO_DATA: 'everything' })).toThrow(/DEMO_DATA: must be accounts or practice/);
  });

  it('drains for SHUTDOWN_DRAIN_SECONDS on SIGTERM: 5 in production, 0 elsewhere, within 0 to 300', () => {
    expect(loadConfig({}).shutdownDrainSeconds).toBe(0);
    expect(loadConfig(PRODUCTION).shutdownDrainSeconds).toBe(5);
    expect(loadConfig({ ...PRODUCTION, SHUTDOWN_DRAIN_SECONDS: '0' }).shutdownDrainSeconds).toBe(0);
    expect(loadConfig({ SHUTDOWN_DRAIN_SECONDS: '1.5' }).shutdownDrainSeconds).toBe(1.5);
    for (const bad of ['-1', '301', 'later'])
      expect(() => loadConfig({ SHUTDOWN_DRAIN_SECONDS: bad })).toThrow(ConfigError);
  });

  it('requires AUTH_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET/);
  });

  it('requires DATA_ENCRYPTION_KEY in production, and reads several keys with the current one first', () => {
    const { DATA_ENCRYPTION_KEY: _key, ...withoutKey } = PRODUCTION;
    expect(() => loadConfig(withoutKey)).toThrow(/DATA_ENCRYPTION_KEY: required when NODE_ENV=production/);
    const newer = Buffer.alloc(32, 1).toString('base64');
    const older = Buffer.alloc(32, 2).toString('base64url');
    const keys = loadConfig({
      ...PRODUCTION,
      DATA_ENCRYPTION_KEY: ` 2026-11:${newer}, 2025-01:${older} `,
    }).dataEncryptionKeys;
    expect(keys?.map((k) => k.id)).toEqual(['2026-11', '2025-01']);
    expect(keys?.[1]?.key.equals(Buffer.alloc(32, 2))).toBe(true);
    // Outside production it may be left out: the runtime then keeps generated keys in DATA_DIR.
    expect(loadConfig({}).dataEncryptionKeys).toBeUndefined();
  });

  it('explains a bad DATA_ENCRYPTION_KEY without repeating the key', () => {
    const secretish = Buffer.alloc(16, 9).toString('base64');
    const problemsOf = (value: string) => {
      try {
        loadConfig({ DATA_ENCRYPTION_KEY: value });
      } catch (error) {
        return (error as ConfigError).problems;
      }
      return [];
    };
    const short = problemsOf(`k1:${secretish}`);
    expect(short).toEqual([
      'DATA_ENCRYPTION_KEY: key "k1": the key must be 32 random bytes in base64 (openssl rand -base64 32)',
    ]);
    expect(problemsOf(secretish)[0]).toMatch(/^DATA_ENCRYPTION_KEY: entry 1: write id:key/);
    expect(problemsOf(`k1:${TEST_DATA_KEY.split(':')[1]}, k1:${TEST_DATA_KEY.split(':')[1]}`)).toEqual([
      'DATA_ENCRYPTION_KEY: key "k1": the id is used twice',
    ]);
    for (const problem of [...short, ...problemsOf(secretish)]) expect(problem).not.toContain(secretish);
  });
});
