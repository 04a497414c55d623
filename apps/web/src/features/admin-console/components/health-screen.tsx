import { Alert, Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { HEALTH_CHECKS, type HealthCheckName } from '@telehealth/shared';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatBytes } from '../../../lib/format-bytes.ts';
import { systemHealthQueryOptions, type SystemHealth } from '../api/admin-console-api.ts';
import { formatAgo, formatDateTime, formatDuration } from '../utils/format.ts';
import { VerdictBadge } from './verdict-badge.tsx';

/** `/admin/health`: every check of the system with its verdict, what it means and what to do. */
export function HealthScreen() {
  const { t, i18n } = useTranslation('admin-console');
  usePageTitle(t('health.title'));
  const health = useQuery(systemHealthQueryOptions());

  return (
    <Stack gap="lg" maw={960}>
      <Anchor component={Link} to="/admin" size="sm">
        ← {t('health.back')}
      </Anchor>
      <Stack gap={4}>
        <Title order={1}>{t('health.title')}</Title>
        <Text c="dimmed">{t('health.intro')}</Text>
      </Stack>
      {health.isPending ? (
        <LoadingLine label={t('health.loading')} />
      ) : health.isError ? (
        <Alert color="red" variant="light" role="alert">
          <Stack gap="xs" align="flex-start">
            <Text>{t('health.failed', { reason: describeError(health.error) })}</Text>
            <Button size="xs" variant="default" onClick={() => void health.refetch()}>
              {t('health.refresh')}
            </Button>
          </Stack>
        </Alert>
      ) : (
        <>
          <Paper withBorder p="md">
            <Group justify="space-between" wrap="wrap" gap="sm">
              <Group gap="sm">
                <Text fw={600}>{t('health.overall')}</Text>
                <VerdictBadge verdict={health.data.overall} size="lg" />
              </Group>
              <Group gap="sm">
                <Text size="sm" c="dimmed" role="status">
                  {t('health.checkedAt', { time: formatDateTime(health.data.checkedAt, i18n.language) })}
                </Text>
                <Button size="xs" variant="default" loading={health.isFetching} onClick={() => void health.refetch()}>
                  {t('health.refresh')}
                </Button>
              </Group>
            </Group>
          </Paper>
          <SimpleGrid cols={{ base: 1, sm: 2 }} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {HEALTH_CHECKS.map((name) => (
              <CheckCard key={name} name={name} health={health.data} />
            ))}
          </SimpleGrid>
        </>
      )}
    </Stack>
  );
}

function CheckCard({ name, health }: { name: HealthCheckName; health: SystemHealth }) {
  const { t } = useTranslation('admin-console');
  const check = health[name];
  const figures = useFigures(name, health);
  return (
    <Paper component="li" withBorder p="md" data-testid={`health-${name}`}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Title order={2} size="h4">
            {t(`health.check.${name}`)}
          </Title>
          <VerdictBadge verdict={check.verdict} />
        </Group>
        <Text size="sm">{check.reason ? t(`health.reason.${check.reason}`) : null}</Text>
        {figures === null ? (
          <Text size="sm" c="dimmed">
            {t('health.notMeasured')}
          </Text>
        ) : (
          <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'auto 1fr', gap: '2px 12px' }}>
            {figures.map(([label, value]) => (
              <Figure key={label} label={label} value={value} />
            ))}
          </dl>
        )}
      </Stack>
    </Paper>
  );
}

function Figure({ label, value }: { label: string; value: ReactNode }) {
  return (
    <>
      <Text component="dt" size="sm" c="dimmed">
        {label}
      </Text>
      <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
        {value}
      </Text>
    </>
  );
}

/** A check's figures as label and value, in the reader's language; null when the check could not be made. */
function useFigures(name: HealthCheckName, health: SystemHealth): [string, ReactNode][] | null {
  const { t, i18n } = useTranslation('admin-console');
  const language = i18n.language;
  const n = (value: number) => new Intl.NumberFormat(language).format(value);
  const f = (key: string) => t(`health.figure.${key}` as 'health.figure.size');
  switch (name) {
    case 'database': {
      const d = health.database.figures;
      return d
        ? [
            [f('reachable'), f('yes')],
            [f('size'), formatBytes(d.sizeBytes, language)],
            [f('latency'), t('health.figure.latencyValue', { ms: d.latencyMs })],
          ]
        : null;
    }
    case 'jobs': {
      const j = health.jobs.figures;
      return j
        ? [
            [f('pending'), n(j.pending)],
            [f('running'), n(j.running)],
            [f('overdue'), n(j.overdue)],
            [f('retrying'), n(j.retrying)],
            [f('failed'), n(j.failed)],
            [
              f('lastGivenUp'),
              j.lastGivenUp
                ? t('health.figure.lastGivenUpValue', {
                    task: j.lastGivenUp.task,
                    ago: formatAgo(j.lastGivenUp.at, language),
                    error: j.lastGivenUp.lastError ?? f('none'),
                  })
                : f('none'),
            ],
          ]
        : null;
    }
    case 'mail': {
      const m = health.mail.figures;
      return m
        ? [
            [f('waiting'), n(m.waiting)],
            [f('mailFailed'), n(m.failed)],
            [f('kept'), n(m.kept)],
            [f('oldestWaiting'), m.oldestWaitingAt ? formatAgo(m.oldestWaitingAt, language) : f('none')],
            [f('smtp'), m.smtpConfigured ? f('smtpYes') : f('smtpNo')],
          ]
        : null;
    }
    case 'auditSealer': {
      const s = health.auditSealer.figures;
      return s
        ? [
            [f('headPosition'), s.headPosition === null ? f('none') : n(s.headPosition)],
            [f('lastSealed'), s.lastSealedAt ? formatAgo(s.lastSealedAt, language) : f('none')],
            [f('unsealed'), n(s.unsealed)],
            [f('lag'), formatDuration(s.lagSeconds, language)],
            [
              f('lastAnchor'),
              s.lastAnchorPosition !== null && s.lastAnchorAt
                ? t('health.figure.lastAnchorValue', {
                    position: n(s.lastAnchorPosition),
                    ago: formatAgo(s.lastAnchorAt, language),
                  })
                : f('none'),
            ],
          ]
        : null;
    }
    case 'backups': {
      const b = health.backups.figures;
      return b
        ? [
            [f('schedule'), b.schedule ? t('health.figure.scheduleValue', { schedule: b.schedule }) : f('scheduleOff')],
            [
              f('lastScheduled'),
              b.lastScheduledStatus && b.lastScheduledAt
                ? t('health.figure.lastScheduledValue', {
                    status: t(`health.figure.backupStatus.${b.lastScheduledStatus}`),
                    ago: formatAgo(b.lastScheduledAt, language),
                  })
                : f('none'),
            ],
            [f('lastSucceeded'), b.lastSucceededAt ? formatAgo(b.lastSucceededAt, language) : f('none')],
          ]
        : null;
    }
    case 'disk': {
      const d = health.disk.figures;
      if (!d) return null;
      const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 }).format(
        d.totalBytes > 0 ? d.freeBytes / d.totalBytes : 0,
      );
      return [
        [f('path'), d.path],
        [
          f('free'),
          t('health.figure.freeValue', {
            free: formatBytes(d.freeBytes, language),
            total: formatBytes(d.totalBytes, language),
            percent,
          }),
        ],
      ];
    }
    case 'server': {
      const s = health.server.figures;
      return s
        ? [
            [f('version'), s.version],
            [f('uptime'), formatDuration(s.uptimeSeconds, language)],
            [f('startedAt'), formatDateTime(s.startedAt, language)],
            [f('node'), s.nodeVersion],
          ]
        : null;
    }
  }
}
