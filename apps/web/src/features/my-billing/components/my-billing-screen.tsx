import { Alert, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { formatCents, statementPath, superbillPath } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { BillingDownloadButton, SuperbillRangeForm } from '../../../components/billing-downloads.tsx';
import { LoadingLine } from '../../../components/loading-line.tsx';
import { ScrollTable } from '../../../components/scroll-table.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { formatCalendarDate } from '../../../lib/practice-dates.ts';
import { useMyBilling, type MyBilling } from '../api/my-billing-api.ts';

/**
 * `/my/billing` (decision 073): the patient's balance, their account's entries (newest first), a superbill per
 * coded visit and for a date range, and their statement. Every document is downloaded, never shown by name in a URL.
 */
export function MyBillingScreen() {
  const { t } = useTranslation('billing-documents');
  usePageTitle(t('title'));
  const billing = useMyBilling();
  return (
    <Stack gap="md" maw={860} mx="auto" w="100%">
      <Title order={1}>{t('title')}</Title>
      <Text c="dimmed">{t('intro')}</Text>
      {billing.isPending ? (
        <LoadingLine label={t('loading')} />
      ) : billing.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(billing.error)}
        </Alert>
      ) : (
        <BillingOverview billing={billing.data} />
      )}
    </Stack>
  );
}

function BillingOverview({ billing }: { billing: MyBilling }) {
  const { t, i18n } = useTranslation('billing-documents');
  const locale = i18n.language.startsWith('es') ? 'es-US' : 'en-US';
  const money = (cents: number) => formatCents(cents, locale);
  const language = i18n.language.startsWith('es') ? 'es' : 'en';
  const balance =
    billing.balanceCents > 0
      ? t('balance.due', { amount: money(billing.balanceCents) })
      : billing.balanceCents < 0
        ? t('balance.credit', { amount: money(-billing.balanceCents) })
        : t('balance.settled');
  return (
    <>
      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="my-billing-balance">
        <Stack gap="xs" align="flex-start">
          <Title order={2} size="h4" id="my-billing-balance">
            {t('balance.label')}
          </Title>
          <Text size="xl" fw={700} data-testid="my-billing-balance">
            {balance}
          </Text>
          <BillingDownloadButton
            url={`${statementPath(billing.patientId)}&language=${language}`}
            label={t('downloads.statement')}
            variant="filled"
          />
        </Stack>
      </Paper>

      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="my-billing-visits">
        <Stack gap="sm">
          <Title order={2} size="h4" id="my-billing-visits">
            {t('visits.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('visits.intro')}
          </Text>
          {billing.visits.length === 0 ? (
            <Text>{t('visits.empty')}</Text>
          ) : (
            <Stack gap="sm" component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
              {billing.visits.map((visit) => {
                const date = formatCalendarDate(visit.serviceDate, i18n.language);
                return (
                  <Stack gap={4} component="li" key={visit.appointmentId}>
                    <Text fw={600}>{t('visits.visitOn', { date, provider: visit.providerName })}</Text>
                    <BillingDownloadButton
                      url={superbillPath({ patientId: billing.patientId, appointmentId: visit.appointmentId })}
                      label={t('downloads.superbill')}
                      accessibleLabel={t('downloads.superbillFor', { date })}
                    />
                  </Stack>
                );
              })}
            </Stack>
          )}
          <SuperbillRangeForm patientId={billing.patientId} />
        </Stack>
      </Paper>

      <Paper withBorder p="md" radius="md" component="section" aria-labelledby="my-billing-entries">
        <Stack gap="sm">
          <Title order={2} size="h4" id="my-billing-entries">
            {t('entries.title')}
          </Title>
          {billing.entries.length === 0 ? (
            <Text>{t('entries.empty')}</Text>
          ) : (
            <ScrollTable label={t('entries.tableLabel')} minWidth={280}>
              <Table striped>
                <Table.Thead>
                  <Table.Tr>
                    <Table.Th scope="col">{t('entries.date')}</Table.Th>
                    <Table.Th scope="col">{t('entries.description')}</Table.Th>
                    <Table.Th scope="col" style={{ textAlign: 'right' }}>
                      {t('entries.amount')}
                    </Table.Th>
                  </Table.Tr>
                </Table.Thead>
                <Table.Tbody>
                  {billing.entries.map((entry) => (
                    <Table.Tr key={entry.id}>
                      <Table.Td>{formatCalendarDate(entry.date, i18n.language)}</Table.Td>
                      <Table.Td>
                        {t(`entries.kind.${entry.kind}`)}
                        {entry.code ? ` ${entry.code}` : ''}
                      </Table.Td>
                      <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                        {money(entry.amountCents)}
                      </Table.Td>
                    </Table.Tr>
                  ))}
                </Table.Tbody>
              </Table>
            </ScrollTable>
          )}
        </Stack>
      </Paper>
    </>
  );
}
