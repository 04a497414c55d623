import { Alert, Anchor, Badge, Button, Checkbox, Code, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import {
  storedTextFindingsQueryOptions,
  useResolveStoredTextFinding,
  type StoredTextFinding,
} from '../api/stored-text-api.ts';

const KNOWN_TABLES = [
  'patients',
  'providers',
  'users',
  'access_requests',
  'message_attachments',
  'video_guests',
] as const;
const KNOWN_PROBLEMS = ['markup', 'invalidCharacters', 'urlScheme'] as const;

function isOneOf<T extends string>(values: readonly T[], value: string): value is T {
  return (values as readonly string[]).includes(value);
}

/**
 * `/admin/stored-text`: stored values that the text rule refuses, made inert at start (decision 022). Where each
 * one is, never the value; a person checks the record and marks the finding resolved.
 */
export function StoredTextScreen() {
  const { t } = useTranslation('stored-text');
  usePageTitle(t('title'));
  const [includeResolved, setIncludeResolved] = useState(false);
  const findings = useQuery(storedTextFindingsQueryOptions(includeResolved));

  return (
    <Stack gap="lg" maw={960}>
      <Stack gap={4}>
        <Title order={1}>{t('title')}</Title>
        <Text c="dimmed">{t('intro')}</Text>
      </Stack>
      <Checkbox
        label={t('showResolved')}
        checked={includeResolved}
        onChange={(event) => {
          setIncludeResolved(event.currentTarget.checked);
        }}
      />
      {findings.isPending ? (
        <LoadingLine label={t('loading')} />
      ) : findings.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(findings.error)}
        </Alert>
      ) : findings.data.length === 0 ? (
        <Paper withBorder p="xl">
          <Text>{t(includeResolved ? 'emptyAll' : 'empty')}</Text>
        </Paper>
      ) : (
        <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {findings.data.map((finding) => (
            <FindingItem key={finding.id} finding={finding} />
          ))}
        </Stack>
      )}
    </Stack>
  );
}

function FindingItem({ finding }: { finding: StoredTextFinding }) {
  const { t, i18n } = useTranslation('stored-text');
  const resolve = useResolveStoredTextFinding();
  const record = isOneOf(KNOWN_TABLES, finding.table) ? t(`table.${finding.table}`) : finding.table;
  const problem = isOneOf(KNOWN_PROBLEMS, finding.problem) ? t(`problem.${finding.problem}`) : finding.problem;
  const foundAt = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' }).format(
    new Date(finding.foundAt),
  );
  return (
    <Paper component="li" withBorder p="md" data-testid="stored-text-finding">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={600}>
            {record} · <Code>{finding.field}</Code>
          </Text>
          <Badge
            variant="light"
            color="orange"
            radius="sm"
            style={{ '--badge-color': 'var(--mantine-color-orange-9)' }}
          >
            {problem}
          </Badge>
        </Group>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {t('record', { id: finding.recordId })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('foundAt', { date: foundAt })}
        </Text>
        <Group gap="sm" wrap="wrap">
          {finding.table === 'patients' ? (
            <Anchor component={Link} to={`/patients/${finding.recordId}/edit`} size="sm">
              {t('openPatient')}
            </Anchor>
          ) : null}
          {finding.resolvedAt ? (
            <Text size="sm">{t('resolved')}</Text>
          ) : (
            <Button
              size="xs"
              variant="default"
              loading={resolve.isPending}
              onClick={() => {
                resolve.mutate(finding.id);
              }}
            >
              {t('markResolved')}
            </Button>
          )}
        </Group>
        {resolve.isError ? (
          <Alert color="red" variant="light" role="alert">
            {describeError(resolve.error)}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
