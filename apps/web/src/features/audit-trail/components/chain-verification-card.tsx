import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';

import { describeError } from '../../../lib/errors.ts';
import { latestVerificationQueryOptions, useVerifyAuditChain, type AuditVerification } from '../api/audit-trail-api.ts';
import { formatDateTime } from './audit-format.tsx';

/** "Verify the chain now", with the last verification recorded (by anyone) and its outcome. */
export function ChainVerificationCard() {
  const { t } = useTranslation('audit-trail');
  const latest = useQuery(latestVerificationQueryOptions());
  const verify = useVerifyAuditChain();
  return (
    <Paper withBorder p="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Title order={2} size="h3">
            {t('chain.title')}
          </Title>
          <Button
            onClick={() => {
              verify.mutate();
            }}
            loading={verify.isPending}
          >
            {t('chain.verify')}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t('chain.intro')}
        </Text>
        <div aria-live="polite">
          {verify.isPending ? (
            <Group gap="xs">
              <Loader size="sm" aria-hidden />
              <Text>{t('chain.running')}</Text>
            </Group>
          ) : verify.isError ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(verify.error)}
            </Alert>
          ) : latest.isError ? (
            <Alert color="red" variant="light" role="alert">
              {describeError(latest.error)}
            </Alert>
          ) : latest.isPending ? null : latest.data ? (
            <VerificationResult result={latest.data} />
          ) : (
            <Text>{t('chain.never')}</Text>
          )}
        </div>
      </Stack>
    </Paper>
  );
}

function VerificationResult({ result }: { result: AuditVerification }) {
  const { t, i18n } = useTranslation('audit-trail');
  const when = formatDateTime(result.checkedAt, i18n.language);
  const count = result.entriesChecked;
  return (
    <Alert
      color={result.ok ? 'green' : 'red'}
      variant="light"
      title={result.ok ? t('chain.ok') : t('chain.broken')}
      data-testid="chain-verification"
    >
      <Stack gap={4}>
        <Text size="sm">{t('chain.checked', { count, formatted: count.toLocaleString(i18n.language), when })}</Text>
        {result.brokenAt !== null ? (
          <Text size="sm">{t('chain.brokenAt', { position: result.brokenAt, reason: result.reason ?? '' })}</Text>
        ) : null}
        {result.anchorsChecked > 0 ? (
          <Text size="sm">
            {result.anchorProblems.length === 0
              ? t('chain.anchorsOk', { count: result.anchorsChecked })
              : t('chain.anchorsBad', { count: result.anchorProblems.length })}
          </Text>
        ) : (
          <Text size="sm">{t('chain.noAnchors')}</Text>
        )}
        {result.anchorProblems.map((problem) => (
          <Text size="sm" key={problem}>
            {problem}
          </Text>
        ))}
        {result.stranded > 0 ? <Text size="sm">{t('chain.stranded', { count: result.stranded })}</Text> : null}
        {result.unsealed > 0 ? <Text size="sm">{t('chain.unsealed', { count: result.unsealed })}</Text> : null}
        {!result.ok ? <Text size="sm">{t('chain.whatToDo')}</Text> : null}
      </Stack>
    </Alert>
  );
}
