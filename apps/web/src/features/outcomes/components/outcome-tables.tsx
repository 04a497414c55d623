import { Paper, SimpleGrid, Table, Text, Title } from '@mantine/core';
import { DRUG_CLASS_LABELS, DRUG_CLASSES, OUTCOME_MIN_GROUP_PATIENTS, type DrugClass } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { ScrollTable } from '../../../components/scroll-table.tsx';
import type { OutcomeFigures, OutcomeGroup } from '../api/outcomes-api.ts';

export type OutcomeGrouping = 'provider' | 'diagnosis' | 'medicationClass';

function isDrugClass(value: string): value is DrugClass {
  return (DRUG_CLASSES as readonly string[]).includes(value);
}

/** A rate as a percentage in the reader's language. */
export function usePercent(): (value: number) => string {
  const { i18n } = useTranslation();
  const format = new Intl.NumberFormat(i18n.language, { style: 'percent', maximumFractionDigits: 0 });
  return (value) => format.format(value);
}

/** What a group is called on the screen: its provider, its code and title, its class; or the "none" group's name. */
function useGroupName(grouping: OutcomeGrouping): (group: OutcomeGroup) => string {
  const { t, i18n } = useTranslation('reports');
  const language = i18n.language.startsWith('es') ? 'es' : 'en';
  return (group) => {
    if (group.key === null) return t(`outcomes.none.${grouping}`);
    if (grouping === 'provider') return group.label ?? group.key;
    if (grouping === 'diagnosis') return group.label ? `${group.key} ${group.label}` : group.key;
    if (group.key === 'unclassified') return t('outcomes.unclassified');
    return isDrugClass(group.key) ? DRUG_CLASS_LABELS[group.key][language] : group.key;
  };
}

/** A rate cell: the percentage, or "too few to read" for a small group. */
function Rate({ value, tooFew }: { value: number | null; tooFew: boolean }) {
  const { t } = useTranslation('reports');
  const percent = usePercent();
  if (tooFew || value === null)
    return (
      <Text span size="sm" c="dimmed">
        {t('outcomes.tooFewShort')}
      </Text>
    );
  return <>{percent(value)}</>;
}

/** The whole's three figures: patients counted, response rate and remission rate, each with its counts. */
export function OutcomeSummary({ figures }: { figures: OutcomeFigures }) {
  const { t, i18n } = useTranslation('reports');
  const percent = usePercent();
  const rate = (value: number | null) => (value === null ? t('outcomes.tooFewShort') : percent(value));
  const cards = [
    { key: 'patients', value: figures.patients.toLocaleString(i18n.language), detail: t('outcomes.patientsDetail') },
    {
      key: 'responseRate',
      value: rate(figures.responseRate),
      detail: t('outcomes.respondersDetail', { count: figures.responders, total: figures.patients }),
    },
    {
      key: 'remissionRate',
      value: rate(figures.remissionRate),
      detail: t('outcomes.remittersDetail', { count: figures.remitters, total: figures.patients }),
    },
  ] as const;
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} component="dl" style={{ margin: 0 }}>
      {cards.map((card) => (
        <Paper key={card.key} withBorder p="sm" data-testid={`outcomes-${card.key}`}>
          <Text component="dt" size="sm" c="dimmed">
            {t(`outcomes.${card.key}`)}
          </Text>
          <Text component="dd" fz={24} fw={700} m={0}>
            {card.value}
            <Text component="span" display="block" size="xs" fw={400} c="dimmed">
              {card.detail}
            </Text>
          </Text>
        </Paper>
      ))}
    </SimpleGrid>
  );
}

/** One grouping's table: each group with its patients, responders and remitters, and the rates when readable. */
export function OutcomeGroupTable({ grouping, groups }: { grouping: OutcomeGrouping; groups: OutcomeGroup[] }) {
  const { t, i18n } = useTranslation('reports');
  const nameOf = useGroupName(grouping);
  const caption = t(`outcomes.by.${grouping}`);
  const count = (value: number) => value.toLocaleString(i18n.language);
  return (
    <section data-testid={`outcomes-by-${grouping}`}>
      <Title order={3} fz="md" mb="xs">
        {caption}
      </Title>
      {groups.length === 0 ? (
        <Text size="sm">{t('outcomes.noPatients')}</Text>
      ) : (
        <ScrollTable label={caption} minWidth={560}>
          <Table striped>
            <Table.Caption>{t(`outcomes.caption.${grouping}`)}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t(`outcomes.group.${grouping}`)}</Table.Th>
                <Table.Th scope="col" ta="right">
                  {t('outcomes.patients')}
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  {t('outcomes.responders')}
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  {t('outcomes.responseRate')}
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  {t('outcomes.remitters')}
                </Table.Th>
                <Table.Th scope="col" ta="right">
                  {t('outcomes.remissionRate')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {groups.map((group) => (
                <Table.Tr key={group.key ?? 'none'}>
                  <Table.Th scope="row" fw={500}>
                    {nameOf(group)}
                    {group.tooFew ? (
                      <Text span display="block" size="xs" c="dimmed" fw={400}>
                        {t('outcomes.tooFew')}
                      </Text>
                    ) : null}
                  </Table.Th>
                  <Table.Td ta="right">{count(group.patients)}</Table.Td>
                  <Table.Td ta="right">{count(group.responders)}</Table.Td>
                  <Table.Td ta="right">
                    <Rate value={group.responseRate} tooFew={group.tooFew} />
                  </Table.Td>
                  <Table.Td ta="right">{count(group.remitters)}</Table.Td>
                  <Table.Td ta="right">
                    <Rate value={group.remissionRate} tooFew={group.tooFew} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
      )}
    </section>
  );
}

/** The rule of small groups, with its number. */
export function TooFewNote() {
  const { t } = useTranslation('reports');
  return (
    <Text size="xs" c="dimmed">
      {t('outcomes.tooFewNote', { count: OUTCOME_MIN_GROUP_PATIENTS })}
    </Text>
  );
}
