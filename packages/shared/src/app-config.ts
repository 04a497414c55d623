import { z } from 'zod';

import { ROLES } from './roles.ts';

/**
 * What the browser needs to know of the practice before anyone signs in. Public: the server answers it to
 * the `appConfig` query and writes it into every page it serves (see PageBootstrap).
 */
export const AppConfigSchema = z.object({
  practiceName: z.string(),
  demoMode: z.boolean(),
  sessionIdleMinutes: z.number().positive(),
  version: z.string(),
  demoAccounts: z.array(z.object({ email: z.string(), role: z.enum(ROLES), label: z.string() })),
  /** The number the banner's Call button dials; null when not configured (the button is left out). */
  clinicPhone: z.string().nullable(),
  /** The external booking page the banner's Schedule Appointment button opens; null when not configured. */
  bookingUrl: z.string().nullable(),
  /** The practice's public address for questions (CONTACT_EMAIL): the landing page's contact and beta links. */
  contactEmail: z.string().nullable(),
  /** Heading and body null mean the built-in (translated) text. */
  emergencyBanner: z.object({ enabled: z.boolean(), heading: z.string().nullable(), body: z.string().nullable() }),
  /** PRACTICE_TIME_ZONE: appointment dates and times are the practice's; the calendar says so when yours differs. */
  practiceTimeZone: z.string(),
  /** MESSAGE_RESPONSE_BUSINESS_DAYS: every compose box says the practice answers within this many business days. */
  messageResponseBusinessDays: z.number().int().positive(),
});
export type AppConfig = z.infer<typeof AppConfigSchema>;

/**
 * Written by the server into each HTML page it serves (the `content` of `<meta name="app-bootstrap">`), so the
 * first screen needs no request before it can render: the practice's configuration, and whether the request
 * that fetched the page carried a live session.
 */
export const PageBootstrapSchema = z.object({
  config: AppConfigSchema,
  /** Null when the server could not tell (its database did not answer): the page then asks itself. */
  signedIn: z.boolean().nullable(),
});
export type PageBootstrap = z.infer<typeof PageBootstrapSchema>;
