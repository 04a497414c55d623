import { Alert, Badge, Button, Group, Stack, Table, Text, Title, VisuallyHidden } from '@mantine/core';
import { formatCents } from '@telehealth/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { ScrollTable } from '../../../components/scroll-table.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { useFeeSchedule, type FeeItem } from '../api/fee-schedule-api.ts';
import { FeeItemFormModal } from './fee-item-form-modal.tsx';

/** Dark amber on yellow-0 (7:1), like the other "to review" badges. */
const REVIEW_TEXT = '#7a4b00';

/**
 * `/admin/fee-schedule` (administrators; decision 073): the services visits are coded with, each with the
 * practice's own short name, its fee and whether it is an add-on. The starting rows are examples to review; a
 * service is never deleted, only no longer offered.
 */
export function FeeScheduleScreen() {
  const { t, i18n } = useTranslation('billing-setup');
  usePageTitle(t('feeSchedule.title'));
  const schedule = useFeeSchedule();
  const [editing, setEditing] = useState<{ item: FeeItem | null } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const locale = i18n.language === 'es' ? 'es-US' : 'en-US';

  return (
    <Stack gap="lg" maw={960}>
      <Group justify="space-between" align="flex-end" gap="md">
        <Stack gap={4}>
          <Title order={1}>{t('feeSchedule.title')}</Title>
          <Text c="dimmed">{t('feeSchedule.intro')}</Text>
        </Stack>
        <Button
          onClick={() => {
            setSaved(null);
            setEditing({ item: null });
          }}
        >
          {t('feeSchedule.add')}
        </Button>
      </Group>
      <Alert color="blue" variant="light">
        {t('feeSchedule.note')}
      </Alert>
      {saved ? (
        <Alert color="green" variant="light" role="status">
          {saved}
        </Alert>
      ) : null}
      {schedule.isPending ? (
        <LoadingLine label={t('feeSchedule.loading')} />
      ) : schedule.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(schedule.error)}
        </Alert>
      ) : schedule.data.length === 0 ? (
        <Text>{t('feeSchedule.empty')}</Text>
      ) : (
        <ScrollTable label={t('feeSchedule.tableLabel')} minWidth={620}>
          <Table striped highlightOnHover verticalSpacing="xs">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('feeSchedule.columns.code')}</Table.Th>
                <Table.Th scope="col">{t('feeSchedule.columns.shortName')}</Table.Th>
                <Table.Th scope="col" style={{ textAlign: 'right' }}>
                  {t('feeSchedule.columns.fee')}
                </Table.Th>
                <Table.Th scope="col">{t('feeSchedule.columns.addOn')}</Table.Th>
                <Table.Th scope="col">{t('feeSchedule.columns.active')}</Table.Th>
                <Table.Th scope="col">
                  <VisuallyHidden>{t('feeSchedule.columns.actions')}</VisuallyHidden>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {schedule.data.map((item) => (
                <Table.Tr key={item.id} data-testid={`fee-item-${item.code}`}>
                  <Table.Th scope="row" fw={600}>
                    {item.code}
                  </Table.Th>
                  <Table.Td>
                    <Group gap={6} wrap="wrap">
                      <span>{item.shortName}</span>
                      {item.example ? (
                        <Badge
                          variant="light"
                          radius="sm"
                          style={{ '--badge-bg': 'var(--mantine-color-yellow-0)', '--badge-color': REVIEW_TEXT }}
                        >
                          {t('feeSchedule.example')}
                        </Badge>
                      ) : null}
                    </Group>
                  </Table.Td>
                  <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                    {formatCents(item.feeCents, locale)}
                  </Table.Td>
                  <Table.Td>{item.addOn ? t('feeSchedule.yes') : t('feeSchedule.no')}</Table.Td>
                  <Table.Td>{item.active ? t('feeSchedule.active') : t('feeSchedule.inactive')}</Table.Td>
                  <Table.Td>
                    <Button
                      variant="default"
                      size="xs"
                      aria-label={t('feeSchedule.changeNamed', { code: item.code })}
                      onClick={() => {
                        setSaved(null);
                        setEditing({ item });
                      }}
                    >
                      {t('feeSchedule.change')}
                    </Button>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
      <FeeItemFormModal
        opened={editing !== null}
        item={editing?.item ?? null}
        onClose={() => setEditing(null)}
        onSaved={(item) => {
          setEditing(null);
          setSaved(t('feeSchedule.saved', { code: item.code }));
        }}
      />
    </Stack>
  );
}
