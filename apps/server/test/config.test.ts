import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../src/config.ts';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      sessionIdleMinutes: 15,
      sessionMaxHours: 12,
      demoMode: true,
      databaseUrl: undefined,
      secureCookies: false,
    });
    expect(config.dataDir).toMatch(/data$/);
  });

  it('turns demo mode off in production and with an external database unless set', () => {
    expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32) }).demoMode).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://db/x' }).demoMode).toBe(false);
    expect(loadConfig({ NODE_ENV: 'production', AUTH_SECRET: 'x'.repeat(32), DEMO_MODE: 'true' }).demoMode).toBe(true);
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

  it('requires AUTH_SECRET in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/AUTH_SECRET/);
  });
});
