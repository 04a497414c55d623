import { DEMO_ACCOUNTS, type AppConfig } from '@telehealth/shared';

import type { Config } from './config.ts';

/** The practice's public configuration: the `appConfig` query's answer and part of every page's bootstrap. */
export function publicAppConfig(config: Config): AppConfig {
  return {
    practiceName: config.practiceName,
    demoMode: config.demoMode,
    sessionIdleMinutes: config.sessionIdleMinutes,
    version: config.version,
    demoAccounts: config.demoMode ? DEMO_ACCOUNTS.map(({ email, role, label }) => ({ email, role, label })) : [],
    clinicPhone: config.clinicPhone,
    bookingUrl: config.bookingUrl,
    contactEmail: config.contactEmail,
    emergencyBanner: config.emergencyBanner,
    practiceTimeZone: config.practiceTimeZone,
    messageResponseBusinessDays: config.messages.responseBusinessDays,
  };
}
