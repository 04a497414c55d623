import { and, eq, inArray } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, ERROR_CODES, MESSAGES, SETTINGS_MESSAGES } from '@telehealth/shared';
import { auditEntries } from '../src/audit/audit.table.ts';
import { practiceSettings } from '../src/settings/settings.table.ts';
import { createTestApp, openTestRuntime, sleep, TestClient, type TestApp } from './helpers.ts';

const CLINIC_PHONE = '(503) 555-0100';

const SETTINGS = `{ practiceSettings {
  values { practiceName clinicPhone timeZone reminderHours sessionIdleMinutes twoFactorRequiredRoles
    messageResponseBusinessDays recordingRetentionDays visitCodingAfter
    billingIdentity { legalName street city state zip taxId }
    defaultWorkingHours { weekday startTime endTime }
    bookingPolicy { changeWindowHours minNoticeHours horizonDays appointmentTypes mode duration } }
  defaults { clinicPhone bookingPolicy { changeWindowHours } }
  sources { key source variables updatedAt updatedByName }
} }`;
const UPDATE = `mutation U($input: UpdatePracticeSettingsInput!) {
  updatePracticeSettings(input: $input) { values { clinicPhone } sources { key source updatedByName } }
}`;
const RESET = 'mutation R($key: String!) { resetPracticeSetting(key: $key) { values { clinicPhone } } }';
const APP_CONFIG = '{ appConfig { practiceName clinicPhone practiceTimeZone sessionIdleMinutes } }';
const POLICY = '{ bookingPolicy { changeWindowHours clinicPhone } }';

interface SourceView {
  key: string;
  source: string;
  variables: string[];
  updatedAt: string | null;
  updatedByName: string | null;
}
interface SettingsView {
  values: Record<string, unknown> & { clinicPhone: string | null; bookingPolicy: Record<string, unknown> };
  defaults: { clinicPhone: string | null; bookingPolicy: { changeWindowHours: number } };
  sources: SourceView[];
}

let t: TestApp;
let admin: TestClient;
const db = () => t.runtime.database.db;

async function settings(): Promise<SettingsView> {
  const response = await admin.gql<{ practiceSettings: SettingsView }>(SETTINGS);
  if (!response.data) throw new Error(JSON.stringify(response.errors));
  return response.data.practiceSettings;
}

function settingEntries(event: 'SETTING_UPDATE' | 'SETTING_RESET') {
  return db().select().from(auditEntries).where(eq(auditEntries.event, event));
}

beforeAll(async () => {
  t = await createTestApp({ CLINIC_PHONE, PATIENT_CHANGE_WINDOW_HOURS: '24' });
  admin = new TestClient(t.app);
  await admin.signIn('admin@demo.test', DEMO_PASSWORD);
});

describe('practice settings: who may', () => {
  it('answers administrators only; providers, patients and signed-out callers are refused and change nothing', async () => {
    expect((await settings()).values.clinicPhone).toBe(CLINIC_PHONE);
    const provider = new TestClient(t.app);
    await provider.signIn('provider@demo.test', DEMO_PASSWORD);
    const patient = new TestClient(t.app);
    await patient.signIn('patient@demo.test', DEMO_PASSWORD);
    const anonymous = new TestClient(t.app);
    for (const [client, code, message] of [
      [provider, ERROR_CODES.forbidden, MESSAGES.adminRequired],
      [patient, ERROR_CODES.forbidden, MESSAGES.adminRequired],
      [anonymous, ERROR_CODES.unauthenticated, MESSAGES.authRequired],
    ] as const) {
      for (const [query, variables] of [
        [SETTINGS, {}],
        [UPDATE, { input: { clinicPhone: '(503) 555-0199' } }],
        [RESET, { key: 'clinicPhone' }],
      ] as const) {
        const response = await client.gql(query, variables);
        expect(response.data).toBeNull();
        expect(response.errors?.[0]?.extensions?.code).toBe(code);
        expect(response.errors?.[0]?.message).toBe(message);
      }
    }
    expect(await db().select().from(practiceSettings)).toEqual([]);
    expect(t.runtime.config.settings.current().clinicPhone).toBe(CLINIC_PHONE);
    // Every refusal of a signed-in caller is on record.
    const refusals = await db()
      .select()
      .from(auditEntries)
      .where(
        and(
          eq(auditEntries.event, 'UNAUTHORIZED_ACCESS'),
          inArray(auditEntries.url, ['practiceSettings', 'updatePracticeSettings', 'resetPracticeSetting']),
        ),
      );
    expect(refusals).toHaveLength(6);
  });
});

describe('practice settings: defaults and sources', () => {
  it('says where each value comes from: an environment variable, or built in', async () => {
    const view = await settings();
    const source = (key: string) => view.sources.find((s) => s.key === key);
    expect(source('clinicPhone')).toEqual({
      key: 'clinicPhone',
      source: 'environment',
      variables: ['CLINIC_PHONE'],
      updatedAt: null,
      updatedByName: null,
    });
    expect(source('bookingPolicy')).toMatchObject({ source: 'environment' });
    expect(source('timeZone')).toMatchObject({ source: 'builtIn', variables: ['PRACTICE_TIME_ZONE'] });
    expect(source('defaultWorkingHours')).toMatchObject({ source: 'builtIn', variables: [] });
    expect(view.values.defaultWorkingHours).toHaveLength(5);
    expect(source('slotStepMinutes')).toMatchObject({ source: 'builtIn', variables: [] });
    expect(source('intakeSections')).toMatchObject({ source: 'builtIn', variables: [] });
    expect(source('billingIdentity')).toMatchObject({ source: 'builtIn' });
    expect(view.values.billingIdentity).toBeNull();
    expect(source('visitCodingAfter')).toMatchObject({ source: 'builtIn' });
    expect(view.values.visitCodingAfter).toBe('completed');
    expect(view.sources.map((s) => s.key)).toHaveLength(15);
  });
});

describe('practice settings: validation', () => {
  it('refuses a bad time zone, bad working hours and negative windows with a clear message, changing nothing', async () => {
    const before = await settings();
    const cases: [Record<string, unknown>, string, string][] = [
      [{ timeZone: 'Mars/Olympus' }, 'timeZone', SETTINGS_MESSAGES.timeZoneInvalid],
      [
        { defaultWorkingHours: [{ weekday: 1, startTime: '17:00', endTime: '09:00' }] },
        'defaultWorkingHours.0',
        SETTINGS_MESSAGES.workingHoursInvalid,
      ],
      [
        {
          defaultWorkingHours: [
            { weekday: 2, startTime: '08:00', endTime: '12:00' },
            { weekday: 2, startTime: '11:00', endTime: '15:00' },
          ],
        },
        'defaultWorkingHours',
        SETTINGS_MESSAGES.workingHoursOverlap,
      ],
      [
        {
          // A good phone beside a bad policy: nothing at all is stored.
          clinicPhone: '(503) 555-0111',
          bookingPolicy: {
            changeWindowHours: -1,
            minNoticeHours: 24,
            horizonDays: 90,
            appointmentTypes: ['video'],
            mode: 'instant',
            duration: 30,
          },
        },
        'bookingPolicy.changeWindowHours',
        'Please enter a whole number from 0 to 336',
      ],
      [{ sessionIdleMinutes: 0 }, 'sessionIdleMinutes', 'Please enter a whole number from 1 to 1440'],
      [{ reminderHours: [24, -2] }, 'reminderHours', SETTINGS_MESSAGES.reminderHoursInvalid],
      [{ practiceName: '   ' }, 'practiceName', SETTINGS_MESSAGES.practiceNameRequired],
    ];
    for (const [input, field, message] of cases) {
      const response = await admin.gql(UPDATE, { input });
      expect(response.data).toBeNull();
      const error = response.errors?.[0] as { extensions?: { code?: string; fieldErrors?: Record<string, string> } };
      expect(error.extensions?.code).toBe(ERROR_CODES.badUserInput);
      expect(error.extensions?.fieldErrors?.[field]).toBe(message);
    }
    expect(await settings()).toEqual(before);
    expect(await db().select().from(practiceSettings)).toEqual([]);
    expect(await settingEntries('SETTING_UPDATE')).toEqual([]);
  });

  it('refuses an unknown setting to reset', async () => {
    const response = await admin.gql(RESET, { key: 'nope' });
    expect(response.errors?.[0]?.message).toBe(SETTINGS_MESSAGES.unknownSetting);
  });
});

describe('practice settings: a change', () => {
  it('is audited with the old and new value, used at once, seen by a second instance, and can be reset', async () => {
    // A second server instance on the same database, already running: it hears of the change through NOTIFY.
    const second = await openTestRuntime(t.databaseUrl, { CLINIC_PHONE }, { runJobs: false });
    expect(second.config.settings.current().clinicPhone).toBe(CLINIC_PHONE);

    const patient = new TestClient(t.app);
    await patient.signIn('patient@demo.test', DEMO_PASSWORD);
    const provider = new TestClient(t.app);
    expect((await provider.signIn('provider@demo.test', DEMO_PASSWORD)).nextStep).toBe('DONE');

    const changed = await admin.gql<{ updatePracticeSettings: { values: { clinicPhone: string } } }>(UPDATE, {
      input: {
        clinicPhone: '(503) 555-0142',
        bookingPolicy: {
          changeWindowHours: 48,
          minNoticeHours: 24,
          horizonDays: 90,
          appointmentTypes: ['in-person', 'video'],
          mode: 'instant',
          duration: 30,
        },
        twoFactorRequiredRoles: ['provider'],
        // Unchanged: no entry.
        messageResponseBusinessDays: 2,
      },
    });
    expect(changed.errors).toBeUndefined();
    expect(changed.data?.updatePracticeSettings.values.clinicPhone).toBe('(503) 555-0142');

    const entries = await settingEntries('SETTING_UPDATE');
    expect(entries.map((e) => (e.details as { setting: string }).setting).sort()).toEqual([
      'bookingPolicy',
      'clinicPhone',
      'twoFactorRequiredRoles',
    ]);
    const phoneEntry = entries.find((e) => (e.details as { setting: string }).setting === 'clinicPhone');
    expect(phoneEntry).toMatchObject({
      level: 'INFO',
      url: 'updatePracticeSettings',
      details: { setting: 'clinicPhone', oldValue: CLINIC_PHONE, newValue: '(503) 555-0142', oldSource: 'environment' },
    });
    const policyEntry = entries.find((e) => (e.details as { setting: string }).setting === 'bookingPolicy');
    expect(policyEntry?.details).toMatchObject({
      oldValue: { changeWindowHours: 24 },
      newValue: { changeWindowHours: 48 },
    });

    // The next call uses the new values, here and everywhere, without a restart.
    const appConfig = await patient.gql<{ appConfig: { clinicPhone: string } }>(APP_CONFIG);
    expect(appConfig.data?.appConfig.clinicPhone).toBe('(503) 555-0142');
    const policy = await patient.gql<{ bookingPolicy: { changeWindowHours: number; clinicPhone: string } }>(POLICY);
    expect(policy.data?.bookingPolicy).toEqual({ changeWindowHours: 48, clinicPhone: '(503) 555-0142' });
    const page = await t.app.inject({ method: 'GET', url: '/' });
    if (page.statusCode === 200) expect(page.body).toContain('555-0142');
    // Two-factor now required of providers: the next sign-in leads to setting it up.
    const again = new TestClient(t.app);
    expect((await again.signIn('provider@demo.test', DEMO_PASSWORD)).nextStep).toBe('CONTINUE_SIGN_IN_WITH_TOTP_SETUP');

    // The second instance heard of it.
    for (let i = 0; i < 100 && second.config.settings.current().clinicPhone !== '(503) 555-0142'; i++) await sleep(20);
    expect(second.config.settings.current().clinicPhone).toBe('(503) 555-0142');
    expect(second.config.settings.current().bookingPolicy.changeWindowHours).toBe(48);

    // The screen says who changed it and when.
    const view = await settings();
    expect(view.sources.find((s) => s.key === 'clinicPhone')).toMatchObject({
      source: 'changed',
      updatedByName: 'Avery Admin',
    });
    expect(view.defaults.clinicPhone).toBe(CLINIC_PHONE);

    // Reset to default: the environment's value again, audited, everywhere.
    const reset = await admin.gql<{ resetPracticeSetting: { values: { clinicPhone: string } } }>(RESET, {
      key: 'clinicPhone',
    });
    expect(reset.data?.resetPracticeSetting.values.clinicPhone).toBe(CLINIC_PHONE);
    const [resetEntry] = await settingEntries('SETTING_RESET');
    expect(resetEntry?.details).toMatchObject({
      setting: 'clinicPhone',
      oldValue: '(503) 555-0142',
      newValue: CLINIC_PHONE,
      newSource: 'environment',
    });
    expect((await settings()).sources.find((s) => s.key === 'clinicPhone')?.source).toBe('environment');
    for (let i = 0; i < 100 && second.config.settings.current().clinicPhone !== CLINIC_PHONE; i++) await sleep(20);
    expect(second.config.settings.current().clinicPhone).toBe(CLINIC_PHONE);
    // Resetting a setting that is at its default already changes nothing and records nothing.
    await admin.gql(RESET, { key: 'clinicPhone' });
    expect(await settingEntries('SETTING_RESET')).toHaveLength(1);

    // A clinic without a phone number: null.
    await admin.gql(UPDATE, { input: { clinicPhone: null } });
    expect(t.runtime.config.settings.current().clinicPhone).toBeNull();
    await admin.gql(RESET, { key: 'twoFactorRequiredRoles' });
  });
});

describe('the billing settings (decision 073)', () => {
  it('keep the billing identity as the shared schema writes it, and refuse a bad one whole', async () => {
    const identity = {
      legalName: 'Harbor Psychiatry PLLC',
      street: '12 Main St',
      city: 'Portland',
      state: 'or',
      zip: '97201',
      taxId: '123456789',
    };
    const saved = await admin.gql<{ updatePracticeSettings: unknown }>(
      `mutation U($input: UpdatePracticeSettingsInput!) {
        updatePracticeSettings(input: $input) { values { visitCodingAfter billingIdentity { state taxId } } } }`,
      { input: { billingIdentity: identity, visitCodingAfter: 'note-signed' } },
    );
    expect(saved.errors).toBeUndefined();
    expect(saved.data?.updatePracticeSettings).toEqual({
      values: { visitCodingAfter: 'note-signed', billingIdentity: { state: 'OR', taxId: '12-3456789' } },
    });
    const refused = await admin.gql(UPDATE, { input: { billingIdentity: { ...identity, taxId: '12-34' } } });
    expect(refused.errors?.[0]?.extensions?.code).toBe('BAD_USER_INPUT');
    const after = await settings();
    expect(after.values.billingIdentity).toMatchObject({ taxId: '12-3456789' });
  });
});
