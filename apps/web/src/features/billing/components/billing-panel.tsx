import { Alert, Button, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { formatCents } from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { ToneBadge } from '../../../components/tone-badge.tsx';
import { formatCalendarDate } from '../../../lib/practice-dates.ts';
import { usePatientLedger, type LedgerEntry } from '../api/billing-api.ts';
import { AdjustmentModal, PaymentModal, ReverseEntryModal } from './ledger-forms.tsx';

/**
 * The chart's Billing section (decision 073): what the patient owes, and the ledger oldest first (each entry's day,
 * what it is, its code, its amount, who entered it, whether it was reversed). The patient's provider and the
 * administrators record payments and adjustments and reverse entries; nothing is ever edited.
 */
export function BillingPanel({ patientId, canWrite }: { patientId: string; canWrite: boolean }) {
  const { t, i18n } = useTranslation('billing-ledger');
  const ledger = usePatientLedger(patientId);
  const [dialog, setDialog] = useState<'payment' | 'adjustment' | null>(null);
  const [reversing, setReversing] = useState<LedgerEntry | null>(null);
  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="billing-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap">
          <Title order={2} size="h3" id="billing-title">
            {t('ledger.title')}
          </Title>
          {canWrite ? (
            <Group gap="xs">
              <Button size="sm" onClick={() => setDialog('payment')}>
                {t('ledger.recordPayment')}
              </Button>
              <Button size="sm" variant="light" onClick={() => setDialog('adjustment')}>
                {t('ledger.adjust')}
              </Button>
            </Group>
          ) : null}
        </Group>
        {ledger.isPending ? (
          <LoadingLine label={t('ledger.loading')} />
        ) : ledger.isError ? (
          <Alert color="red" variant="light">
            {t('ledger.loadFailed')}
          </Alert>
        ) : (
          <>
            <Text fw={700} size="lg" data-testid="ledger-balance">
              {ledger.data.balanceCents < 0
                ? t('ledger.credit', { amount: formatCents(-ledger.data.balanceCents, i18n.language) })
                : t('ledger.balance', { amount: formatCents(ledger.data.balanceCents, i18n.language) })}
            </Text>
            {ledger.data.entries.length === 0 ? (
              <Text c="dimmed">{t('ledger.empty')}</Text>
            ) : (
              <Table.ScrollContainer minWidth={640} type="native">
                <Table striped verticalSpacing="xs" aria-labelledby="billing-title">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th scope="col">{t('ledger.date')}</Table.Th>
                      <Table.Th scope="col">{t('ledger.what')}</Table.Th>
                      <Table.Th scope="col">{t('ledger.code')}</Table.Th>
                      <Table.Th scope="col" style={{ textAlign: 'right' }}>
                        {t('ledger.amount')}
                      </Table.Th>
                      <Table.Th scope="col">{t('ledger.enteredBy')}</Table.Th>
                      <Table.Th scope="col">{t('ledger.status')}</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {ledger.data.entries.map((entry) => (
                      <EntryRow
                        key={entry.id}
                        entry={entry}
                        onReverse={canWrite && entry.kind !== 'reversal' && !entry.reversedById ? setReversing : null}
                      />
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </>
        )}
      </Stack>
      {dialog === 'payment' ? <PaymentModal patientId={patientId} onClose={() => setDialog(null)} /> : null}
      {dialog === 'adjustment' ? <AdjustmentModal patientId={patientId} onClose={() => setDialog(null)} /> : null}
      {reversing ? <ReverseEntryModal entry={reversing} onClose={() => setReversing(null)} /> : null}
    </Paper>
  );
}

function EntryRow({ entry, onReverse }: { entry: LedgerEntry; onReverse: ((entry: LedgerEntry) => void) | null }) {
  const { t, i18n } = useTranslation('billing-ledger');
  const what = [
    t(`kinds.${entry.kind}`),
    entry.method ? t(`methods.${entry.method}`) : null,
    entry.reference ? `#${entry.reference}` : null,
    entry.reason,
  ]
    .filter(Boolean)
    .join(' · ');
  const reversed = entry.reversedById !== null;
  return (
    <Table.Tr data-testid="ledger-entry" data-kind={entry.kind}>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>{formatCalendarDate(entry.entryDate, i18n.language)}</Table.Td>
      <Table.Td>{what}</Table.Td>
      <Table.Td style={{ whiteSpace: 'nowrap' }}>
        {entry.code ? `${entry.code}${entry.modifiers.length ? `-${entry.modifiers.join('-')}` : ''}` : ''}
      </Table.Td>
      <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }} td={reversed ? 'line-through' : undefined}>
        {formatCents(entry.amountCents, i18n.language)}
      </Table.Td>
      <Table.Td>{entry.enteredByName}</Table.Td>
      <Table.Td>
        <Group gap="xs" wrap="nowrap">
          {reversed ? <ToneBadge tone="gray">{t('ledger.reversed')}</ToneBadge> : null}
          {onReverse ? (
            <Button
              size="compact-xs"
              variant="subtle"
              color="red"
              onClick={() => onReverse(entry)}
              aria-label={t('ledger.reverseOf', {
                what: t(`kinds.${entry.kind}`),
                date: formatCalendarDate(entry.entryDate, i18n.language),
                amount: formatCents(entry.amountCents, i18n.language),
              })}
            >
              {t('ledger.reverse')}
            </Button>
          ) : null}
        </Group>
      </Table.Td>
    </Table.Tr>
  );
}
