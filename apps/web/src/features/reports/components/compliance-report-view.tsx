import { Badge, Group, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { RISK_INDICATOR_TYPES, type RiskIndicatorType } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { ScrollTable } from '../../../components/scroll-table.tsx';
import { AuditEventName } from '../../../components/audit-event-name.tsx';
import { formatDay, formatInstantDateTime, formatPracticeInstant } from '../../../lib/practice-dates.ts';
import type { ComplianceReport, RiskIndicator, RiskPerson } from '../api/reports-api.ts';

function isRiskType(value: string): value is RiskIndicatorType {
  return (RISK_INDICATOR_TYPES as readonly string[]).includes(value);
}

/** The compliance report as the screen and the printable page show it. */
export function ComplianceReportView({ report, headingLevel = 3 }: { report: ComplianceReport; headingLevel?: 2 | 3 }) {
  const { t, i18n } = useTranslation('reports');
  const { period } = report;
  const figures = [
    { key: 'totalEvents', value: report.totalEvents },
    { key: 'hipaaEvents', value: report.hipaaEvents },
    { key: 'securityViolations', value: report.securityViolations },
    { key: 'uniqueUsers', value: report.uniqueUsers },
  ] as const;
  const sub = (headingLevel + 1) as 3 | 4;
  return (
    <Stack gap="md" data-testid="compliance-report">
      <Stack gap={2}>
        <Text fw={600}>
          {t('compliance.periodLine', {
            start: formatDay(period.startDate, i18n.language),
            end: formatDay(period.endDate, i18n.language),
            zone: period.timeZone,
          })}
        </Text>
        <Text size="sm" c="dimmed">
          {t('compliance.generatedAt', {
            date: formatInstantDateTime(report.generatedAt, i18n.language),
            name: report.generatedBy.name,
          })}
        </Text>
      </Stack>
      <SimpleGrid cols={{ base: 2, sm: 4 }} component="dl" style={{ margin: 0 }}>
        {figures.map((figure) => (
          <Paper key={figure.key} withBorder p="sm" data-testid={`figure-${figure.key}`}>
            <Text component="dt" size="sm" c="dimmed">
              {t(`compliance.${figure.key}`)}
            </Text>
            <Text component="dd" fz={24} fw={700} m={0}>
              {figure.value.toLocaleString(i18n.language)}
            </Text>
          </Paper>
        ))}
      </SimpleGrid>

      <Title order={headingLevel}>{t('compliance.riskIndicators')}</Title>
      {report.riskIndicators.length === 0 ? (
        <Text>{t('compliance.noRisks')}</Text>
      ) : (
        report.riskIndicators.map((indicator) => (
          <RiskIndicatorSection key={indicator.type} indicator={indicator} timeZone={period.timeZone} level={sub} />
        ))
      )}

      <Title order={headingLevel}>{t('compliance.breakdown')}</Title>
      <ScrollTable label={t('compliance.breakdownCaption')} minWidth={280}>
        <Table striped>
          <Table.Caption>{t('compliance.breakdownCaption')}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('compliance.event')}</Table.Th>
              <Table.Th scope="col" ta="right">
                {t('compliance.count')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.eventBreakdown.map((row) => (
              <Table.Tr key={row.event}>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>
                  <AuditEventName event={row.event} />
                </Table.Td>
                <Table.Td ta="right">{row.count.toLocaleString(i18n.language)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollTable>
    </Stack>
  );
}

function RiskIndicatorSection({
  indicator,
  timeZone,
  level,
}: {
  indicator: RiskIndicator;
  timeZone: string;
  level: 3 | 4;
}) {
  const { t, i18n } = useTranslation('reports');
  const type = isRiskType(indicator.type) ? indicator.type : null;
  const title = type ? t(`compliance.risk.${type}`) : indicator.type;
  const high = indicator.severity === 'HIGH';
  const withEvent = indicator.people.some((person) => person.event !== null);
  const when = (iso: string) => formatPracticeInstant(iso, timeZone, i18n.language);
  return (
    <Paper withBorder p="sm" component="section" data-testid={`risk-${indicator.type}`}>
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Title order={level} fz="md">
            {title}
          </Title>
          <Badge
            color={high ? 'red' : 'orange'}
            variant="light"
            radius="sm"
            // Dark text on the light orange: the orange of the palette is too pale to read there.
            style={{ '--badge-color': high ? 'var(--mantine-color-red-9)' : 'var(--mantine-color-dark-7)' }}
          >
            {indicator.severity === 'HIGH' || indicator.severity === 'MEDIUM'
              ? t(`compliance.severity.${indicator.severity}`)
              : indicator.severity}
          </Badge>
          <Text size="xs" c="dimmed" ff="monospace">
            {indicator.type}
          </Text>
        </Group>
        <Text size="sm">{type ? t(`compliance.riskCount.${type}`, { count: indicator.count }) : indicator.count}</Text>
        <ScrollTable label={t('compliance.peopleCaption', { risk: title })} minWidth={320}>
          <Table>
            <Table.Caption>{t('compliance.peopleCaption', { risk: title })}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('compliance.person')}</Table.Th>
                {withEvent ? <Table.Th scope="col">{t('compliance.event')}</Table.Th> : null}
                <Table.Th scope="col" ta="right">
                  {t('compliance.entries')}
                </Table.Th>
                <Table.Th scope="col">{t('compliance.first')}</Table.Th>
                <Table.Th scope="col">{t('compliance.last')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {indicator.people.map((person, index) => (
                <Table.Tr key={`${person.userId ?? person.email ?? ''}-${person.event ?? ''}-${String(index)}`}>
                  <Table.Td>
                    <PersonCell person={person} />
                  </Table.Td>
                  {withEvent ? (
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      {person.event ? <AuditEventName event={person.event} /> : null}
                    </Table.Td>
                  ) : null}
                  <Table.Td ta="right">{person.count.toLocaleString(i18n.language)}</Table.Td>
                  <Table.Td>{when(person.firstAt)}</Table.Td>
                  <Table.Td>{when(person.lastAt)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </ScrollTable>
        {indicator.peopleCount > indicator.people.length ? (
          <Text size="sm" c="dimmed">
            {t('compliance.morePeople', { shown: indicator.people.length, count: indicator.peopleCount })}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

function PersonCell({ person }: { person: RiskPerson }) {
  const { t } = useTranslation('reports');
  return (
    <Stack gap={0}>
      <Text size="sm" fw={500}>
        {person.name ?? t('compliance.unknownAccount')}
      </Text>
      {person.email ? (
        <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
          {person.email}
        </Text>
      ) : null}
    </Stack>
  );
}
