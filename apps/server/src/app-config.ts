import { DEMO_ACCOUNTS, type AppConfig } from '@telehealth/shared';

import type { Config } from './config.ts';

/** The practice's public configuration: the `appConfig` query's answer and part of every page's bootstrap. */
export function publicAppConfig(config: Config): AppConfig {
  // The practice's settings in use now (decision 032): a page served after a change already says the new value.
  const settings = config.settings.current();
  return {
    practiceName: settings.practiceName,
    demoMode: config.demoMode,
    sessionIdleMinutes: settings.sessionIdleMinutes,
    version: config.version,
    demoAccounts: config.demoMode ? DEMO_ACCOUNTS.map(({ email, role, label }) => ({ email, role, label })) : [],
    clinicPhone: settings.clinicPhone,
    bookingUrl: config.bookingUrl,
    contactEmail: config.contactEmail,
    emergencyBanner: config.emergencyBanner,
    practiceTimeZone: settings.timeZone,
    messageResponseBusinessDays: settings.messageResponseBusinessDays,
  };
}
