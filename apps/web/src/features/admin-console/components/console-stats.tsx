import { Alert, Button, Group, Loader, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { describeError } from '../../../lib/errors.ts';
import { formatDay } from '../../../lib/practice-dates.ts';
import { consoleStatsQueryOptions, systemHealthQueryOptions, type ConsoleStats } from '../api/admin-console-api.ts';
import { formatAgo, isOlderThan } from '../utils/format.ts';
import { StatCard } from './stat-card.tsx';
import { VerdictBadge } from './verdict-badge.tsx';

function accountsOf(stats: ConsoleStats, role: string, active = true): number {
  return stats.accounts.filter((a) => a.role === role && a.active === active).reduce((sum, a) => sum + a.count, 0);
}

/** The console's stats cards, every figure from the server (`adminConsoleStats`, `systemHealth`). */
export function ConsoleStatsCards() {
  const { t } = useTranslation('admin-console');
  const stats = useQuery(consoleStatsQueryOptions());

  return (
    <Stack gap="sm" component="section" aria-labelledby="console-stats-heading">
      <Title order={2} size="h3" id="console-stats-heading">
        {t('stats.heading')}
      </Title>
      {stats.isPending ? (
        <LoadingLine label={t('stats.loading')} />
      ) : stats.isError ? (
        <Alert color="red" variant="light" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text>{t('stats.failed', { reason: describeError(stats.error) })}</Text>
            <Button size="xs" variant="default" onClick={() => void stats.refetch()}>
              {t('stats.retry')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <StatsGrid stats={stats.data} />
      )}
    </Stack>
  );
}

/** A good backup older than this is worth an administrator's attention (the schedule is daily by default). */
const BACKUP_STALE_HOURS = 48;

function BackupCard({ backup }: { backup: ConsoleStats['backup'] }) {
  const { t, i18n } = useTranslation('admin-console');
  const at = backup.lastSucceededAt;
  const stale = at === null || isOlderThan(at, BACKUP_STALE_HOURS);
  return (
    <StatCard
      label={t('stats.backup')}
      value={
        at === null ? (
          <VerdictText verdict="ATTENTION" text={t('stats.backupNever')} />
        ) : (
          <VerdictText verdict={stale ? 'ATTENTION' : 'OK'} text={formatAgo(at, i18n.language)} />
        )
      }
      details={[
        ...(stale ? [t('stats.backupStale', { hours: BACKUP_STALE_HOURS })] : []),
        ...(backup.lastStatus === 'failed' ? [t('stats.backupFailed')] : []),
        ...(backup.lastStatus === 'skipped' ? [t('stats.backupSkipped')] : []),
        ...(backup.lastStatus === 'running' ? [t('stats.backupRunning')] : []),
      ]}
      link={{ to: '/admin/data', label: t('stats.backupLink') }}
    />
  );
}

function StatsGrid({ stats }: { stats: ConsoleStats }) {
  const { t, i18n } = useTranslation('admin-console');
  const language = i18n.language;
  const number = (n: number) => new Intl.NumberFormat(language).format(n);
  const activeAccounts = stats.accounts.filter((a) => a.active).reduce((sum, a) => sum + a.count, 0);
  const inactiveAccounts = stats.accounts.filter((a) => !a.active).reduce((sum, a) => sum + a.count, 0);
  const mail = stats.undeliveredMail;
  const verification = stats.chainVerification;

  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      <StatCard
        label={t('stats.users')}
        value={t('stats.usersValue', { count: activeAccounts })}
        details={[
          (['admin', 'provider', 'patient'] as const)
            .map((role) => t(`stats.accounts.${role}`, { count: accountsOf(stats, role) }))
            .join(' · '),
          t('stats.usersInactive', { count: inactiveAccounts }),
        ]}
      />
      <StatCard
        label={t('stats.providers')}
        value={number(accountsOf(stats, 'provider'))}
        details={[t('stats.providersDetail')]}
      />
      <StatCard
        label={t('stats.patients')}
        value={number(stats.activePatients)}
        details={[t('stats.patientsDetail', { count: accountsOf(stats, 'patient') })]}
      />
      <StatCard
        label={t('stats.appointmentsToday')}
        value={number(stats.appointmentsToday)}
        details={[
          t('stats.appointmentsWeek', {
            count: stats.appointmentsThisWeek,
            weekStart: formatDay(stats.weekStart, language),
          }),
          t('stats.appointmentsZone', { zone: stats.timeZone }),
        ]}
      />
      <StatCard
        label={t('stats.accessRequests')}
        value={number(stats.openAccessRequests)}
        link={{ to: '/admin/access-requests', label: t('stats.accessRequestsLink') }}
      />
      <StatCard
        label={t('stats.mail')}
        value={number(mail.waiting + mail.failed + mail.kept)}
        details={[t('stats.mailDetail', { waiting: mail.waiting, failed: mail.failed, kept: mail.kept })]}
        link={{ to: '/admin/outbox', label: t('stats.mailLink') }}
      />
      <StatCard
        label={t('stats.audit')}
        value={
          verification === null ? (
            <VerdictText verdict="ATTENTION" text={t('stats.auditNever')} />
          ) : verification.ok ? (
            <VerdictText verdict="OK" text={t('stats.auditVerified')} />
          ) : (
            <VerdictText verdict="PROBLEM" text={t('stats.auditBroken')} />
          )
        }
        details={
          verification === null
            ? [t('stats.auditNeverDetail')]
            : [
                t('stats.auditWhen', { ago: formatAgo(verification.checkedAt, language) }),
                ...(verification.entriesChecked === null
                  ? []
                  : [t('stats.auditEntries', { count: verification.entriesChecked })]),
                ...(verification.ok ? [] : [t('stats.auditBrokenDetail')]),
              ]
        }
        link={{ to: '/admin/security', label: t('stats.audit') }}
      />
      <BackupCard backup={stats.backup} />
      <HealthCard />
    </SimpleGrid>
  );
}

function VerdictText({ verdict, text }: { verdict: 'OK' | 'ATTENTION' | 'PROBLEM'; text: string }) {
  return (
    <Group gap="xs" wrap="nowrap" component="span">
      <span>{text}</span>
      <VerdictBadge verdict={verdict} />
    </Group>
  );
}

/** The overall verdict of the system's health (its own query: the checks read the disk and the queue). */
function HealthCard() {
  const { t } = useTranslation('admin-console');
  const health = useQuery(systemHealthQueryOptions());
  return (
    <StatCard
      label={t('stats.health')}
      value={
        health.isPending ? (
          <Loader size="sm" aria-label={t('health.loading')} />
        ) : health.isError ? (
          <VerdictBadge verdict="PROBLEM" size="lg" />
        ) : (
          <VerdictBadge verdict={health.data.overall} size="lg" />
        )
      }
      details={health.isError ? [t('stats.healthFailed')] : []}
      link={{ to: '/admin/health', label: t('stats.healthLink') }}
    />
  );
}
