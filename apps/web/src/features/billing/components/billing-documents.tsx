import { Alert, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { can, statementPath } from '@telehealth/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';

import { BillingDownloadButton, SuperbillRangeForm } from '../../../components/billing-downloads.tsx';
import { useCurrentUser } from '../../../lib/auth.ts';
import { describeError } from '../../../lib/errors.ts';
import { useSendBillingStatement } from '../api/billing-documents-api.ts';

/**
 * A patient's billing documents for staff (decision 073), mounted by the chart's Billing tab: a superbill for a date
 * range, the statement, and "Send statement" (the e-mail saying a statement is ready in the portal) for those who
 * may bill the patient. The server checks every call again.
 */
export function BillingDocuments({ patientId }: { patientId: string }) {
  const { t, i18n } = useTranslation('billing-documents');
  const { data: user } = useCurrentUser();
  const send = useSendBillingStatement();
  const titleId = useId();
  const language = i18n.language.startsWith('es') ? 'es' : 'en';
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby={titleId}>
      <Stack gap="sm">
        <Title order={3} size="h4" id={titleId}>
          {t('downloads.title')}
        </Title>
        <Group gap="md" align="flex-start" wrap="wrap">
          <BillingDownloadButton
            url={`${statementPath(patientId)}&language=${language}`}
            label={t('downloads.statement')}
          />
          {can(user?.role, 'billing:write') ? (
            <Stack gap={4} align="flex-start">
              <Button size="sm" loading={send.isPending} onClick={() => send.mutate(patientId)}>
                {t('downloads.sendStatement')}
              </Button>
              <Text size="xs" c="dimmed" maw={320}>
                {t('downloads.sendStatementHint')}
              </Text>
            </Stack>
          ) : null}
        </Group>
        {send.isSuccess ? (
          <Alert color="green" variant="light" role="status" p="xs">
            {t('downloads.sent')}
          </Alert>
        ) : null}
        {send.isError ? (
          <Alert color="red" variant="light" role="alert" p="xs">
            {describeError(send.error)}
          </Alert>
        ) : null}
        <SuperbillRangeForm patientId={patientId} />
      </Stack>
    </Paper>
  );
}
