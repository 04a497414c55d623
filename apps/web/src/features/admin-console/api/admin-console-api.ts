import { HEALTH_REASONS, HEALTH_VERDICTS, type HealthReason } from '@telehealth/shared';
import { queryOptions } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';

const ConsoleStatsSchema = z.object({
  accounts: z.array(z.object({ role: z.string().nullable(), active: z.boolean(), count: z.number() })),
  activePatients: z.number(),
  appointmentsToday: z.number(),
  appointmentsThisWeek: z.number(),
  openAccessRequests: z.number(),
  undeliveredMail: z.object({
    waiting: z.number(),
    failed: z.number(),
    kept: z.number(),
    oldestWaitingAt: z.string().nullable(),
  }),
  chainVerification: z
    .object({ ok: z.boolean(), checkedAt: z.string(), entriesChecked: z.number().nullable() })
    .nullable(),
  backup: z.object({
    lastStatus: z.enum(['running', 'succeeded', 'failed', 'skipped']).nullable(),
    lastSucceededAt: z.string().nullable(),
  }),
  recentActivity: z.array(
    z.object({ event: z.string(), at: z.string(), actorRole: z.string(), actorName: z.string().nullable() }),
  ),
  timeZone: z.string(),
  today: z.string(),
  weekStart: z.string(),
});
export type ConsoleStats = z.infer<typeof ConsoleStatsSchema>;

const Verdict = z.enum(HEALTH_VERDICTS);
/** A reason this browser does not know yet (a newer server) is shown as the check's verdict alone. */
const Reason = z
  .string()
  .transform((reason): HealthReason | null =>
    (HEALTH_REASONS as readonly string[]).includes(reason) ? (reason as HealthReason) : null,
  );

function check<F extends z.ZodType>(figures: F) {
  return z.object({ verdict: Verdict, reason: Reason, figures: figures.nullable() });
}

const SystemHealthSchema = z.object({
  overall: Verdict,
  checkedAt: z.string(),
  database: check(z.object({ sizeBytes: z.number(), latencyMs: z.number() })),
  jobs: check(
    z.object({
      pending: z.number(),
      running: z.number(),
      overdue: z.number(),
      retrying: z.number(),
      failed: z.number(),
      lastGivenUp: z.object({ task: z.string(), lastError: z.string().nullable(), at: z.string() }).nullable(),
    }),
  ),
  mail: check(
    z.object({
      waiting: z.number(),
      failed: z.number(),
      kept: z.number(),
      oldestWaitingAt: z.string().nullable(),
      smtpConfigured: z.boolean(),
    }),
  ),
  auditSealer: check(
    z.object({
      headPosition: z.number().nullable(),
      lastSealedAt: z.string().nullable(),
      unsealed: z.number(),
      lagSeconds: z.number(),
      lastAnchorPosition: z.number().nullable(),
      lastAnchorAt: z.string().nullable(),
    }),
  ),
  backups: check(
    z.object({
      schedule: z.string().nullable(),
      lastScheduledStatus: z.enum(['running', 'succeeded', 'failed', 'skipped']).nullable(),
      lastScheduledAt: z.string().nullable(),
      lastSucceededAt: z.string().nullable(),
    }),
  ),
  disk: check(z.object({ path: z.string(), freeBytes: z.number(), totalBytes: z.number() })),
  server: check(
    z.object({ version: z.string(), uptimeSeconds: z.number(), startedAt: z.string(), nodeVersion: z.string() }),
  ),
});
export type SystemHealth = z.infer<typeof SystemHealthSchema>;

export const adminConsoleQueryKeys = {
  stats: ['admin-console', 'stats'] as const,
  health: ['admin-console', 'health'] as const,
};

/** The console's figures, read again every minute while the console is open. */
export function consoleStatsQueryOptions() {
  return queryOptions({
    queryKey: adminConsoleQueryKeys.stats,
    refetchInterval: 60_000,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query AdminConsoleStats { adminConsoleStats {
          accounts { role active count } activePatients appointmentsToday appointmentsThisWeek openAccessRequests
          undeliveredMail { waiting failed kept oldestWaitingAt }
          chainVerification { ok checkedAt entriesChecked }
          backup { lastStatus lastSucceededAt }
          recentActivity { event at actorRole actorName } timeZone today weekStart } }`,
        z.object({ adminConsoleStats: ConsoleStatsSchema }),
        {},
        { signal },
      );
      return data.adminConsoleStats;
    },
  });
}

/** The system's health, read again every 30 seconds while shown. */
export function systemHealthQueryOptions() {
  return queryOptions({
    queryKey: adminConsoleQueryKeys.health,
    refetchInterval: 30_000,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query SystemHealth { systemHealth { overall checkedAt
          database { verdict reason figures { sizeBytes latencyMs } }
          jobs { verdict reason figures { pending running overdue retrying failed lastGivenUp { task lastError at } } }
          mail { verdict reason figures { waiting failed kept oldestWaitingAt smtpConfigured } }
          auditSealer { verdict reason figures { headPosition lastSealedAt unsealed lagSeconds lastAnchorPosition lastAnchorAt } }
          backups { verdict reason figures { schedule lastScheduledStatus lastScheduledAt lastSucceededAt } }
          disk { verdict reason figures { path freeBytes totalBytes } }
          server { verdict reason figures { version uptimeSeconds startedAt nodeVersion } } } }`,
        z.object({ systemHealth: SystemHealthSchema }),
        {},
        { signal },
      );
      return data.systemHealth;
    },
  });
}
