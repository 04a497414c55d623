import { Alert, Anchor, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  AGING_BUCKETS,
  BillingAsOfSchema,
  BillingRangeSchema,
  formatCents,
  todayIn,
  type BillingReportKind,
} from '@telehealth/shared';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { ScrollTable } from '../../../components/scroll-table.tsx';
import { describeError } from '../../../lib/errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import { fieldErrorsFromZod, type FieldErrors } from '../../../lib/form-errors.ts';
import {
  agingReportQueryOptions,
  billingReportQueryOptions,
  downloadBillingCsv,
  uncodedVisitsQueryOptions,
  type AgingReport,
  type BillingReport,
  type BillingReportRange,
  type UncodedVisits,
} from '../api/billing-reports-api.ts';

/** What the section shows: a range (the by-month figures and the uncoded visits) and a day (the aging). */
interface BillingDates extends BillingReportRange {
  asOf: string;
}

/** This month in the practice's calendar (its first and last day), and today as the aging report's day. */
export function defaultBillingDates(timeZone: string, now: Date = new Date()): BillingDates {
  const today = todayIn(timeZone, now);
  const [year, month] = today.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
  return { from: `${today.slice(0, 7)}-01`, to: last, asOf: today };
}

/**
 * The billing reports of /admin/reports (decision 073, "Reports"), administrators only: charges, payments and
 * adjustments by provider and month, outstanding balances by age, and the completed visits not coded yet, each
 * downloadable as CSV. `visitPath` is where a visit opens (the route composes it: the calendar).
 */
export function BillingReportsSection({
  timeZone,
  visitPath,
}: {
  timeZone: string;
  visitPath: (visit: { id: string; date: string }) => string;
}) {
  const { t } = useTranslation('billing-reports');
  const [dates, setDates] = useState<BillingDates>(() => defaultBillingDates(timeZone));
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={2} id="billing-heading">
          {t('title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('intro')}
        </Text>
      </Stack>
      <DatesForm dates={dates} onApply={setDates} />
      <ByProviderMonth range={{ from: dates.from, to: dates.to }} />
      <Aging asOf={dates.asOf} />
      <Uncoded range={{ from: dates.from, to: dates.to }} visitPath={visitPath} />
    </Stack>
  );
}

function DatesForm({ dates, onApply }: { dates: BillingDates; onApply: (dates: BillingDates) => void }) {
  const { t } = useTranslation('billing-reports');
  const [draft, setDraft] = useState(dates);
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const range = BillingRangeSchema.safeParse({ from: draft.from, to: draft.to });
    const asOf = BillingAsOfSchema.safeParse({ asOf: draft.asOf });
    const found = {
      ...(range.success ? {} : fieldErrorsFromZod(range.error)),
      ...(asOf.success ? {} : fieldErrorsFromZod(asOf.error)),
    };
    setErrors(found);
    if (Object.keys(found).length === 0) onApply(draft);
  };
  const field = (name: keyof BillingDates) => (
    <TextInput
      type="date"
      label={t(`dates.${name}`)}
      value={draft[name]}
      error={errors[name] ? errorText(errors[name]) : undefined}
      onChange={(event) => {
        const value = event.currentTarget.value;
        setDraft((current) => ({ ...current, [name]: value }));
      }}
      required
    />
  );
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
        <Text component="legend" fw={600} p={0}>
          {t('dates.legend')}
        </Text>
        <Group gap="sm" align="flex-start" wrap="wrap">
          {field('from')}
          {field('to')}
          {field('asOf')}
        </Group>
        <Group>
          <Button type="submit" variant="default">
            {t('dates.apply')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** A sub-report: its heading, its CSV button, then what it shows once read. */
function Part({
  id,
  title,
  intro,
  csv,
  children,
}: {
  id: string;
  title: string;
  intro: string;
  csv: { kind: BillingReportKind; dates: Record<string, string>; ready: boolean };
  children: ReactNode;
}) {
  const { t } = useTranslation('billing-reports');
  const [downloading, setDownloading] = useState(false);
  const [failed, setFailed] = useState<string | null>(null);
  const download = async () => {
    setDownloading(true);
    setFailed(null);
    try {
      await downloadBillingCsv(csv.kind, csv.dates);
    } catch (error) {
      setFailed(t('downloadFailed', { reason: describeError(error) }));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Stack gap="sm" component="section" aria-labelledby={id}>
      <Group justify="space-between" align="flex-end" wrap="wrap" gap="xs">
        <Stack gap={2}>
          <Title order={3} id={id}>
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            {intro}
          </Text>
        </Stack>
        <Button
          variant="default"
          size="xs"
          onClick={() => void download()}
          loading={downloading}
          disabled={!csv.ready}
          aria-label={t('csvOf', { report: title })}
        >
          {t('csv')}
        </Button>
      </Group>
      {failed ? (
        <Alert color="red" variant="light" role="alert">
          {failed}
        </Alert>
      ) : null}
      {children}
    </Stack>
  );
}

function useMoney() {
  const { i18n } = useTranslation();
  return (cents: number) => formatCents(cents, i18n.language);
}

function Loaded<T>({
  query,
  loading,
  children,
}: {
  query: { isPending: boolean; isError: boolean; error: unknown; data: T | undefined };
  loading: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingLine label={loading} />;
  if (query.isError || query.data === undefined)
    return (
      <Alert color="red" variant="light" role="alert">
        {describeError(query.error)}
      </Alert>
    );
  return <>{children(query.data)}</>;
}

function ByProviderMonth({ range }: { range: BillingReportRange }) {
  const { t } = useTranslation('billing-reports');
  const query = useQuery(billingReportQueryOptions(range));
  return (
    <Part
      id="billing-by-month-heading"
      title={t('byMonth.title')}
      intro={t('byMonth.intro', { from: range.from, to: range.to })}
      csv={{ kind: 'billing', dates: { ...range }, ready: query.isSuccess }}
    >
      <Loaded query={query} loading={t('loading')}>
        {(report) => <ByProviderMonthTable report={report} />}
      </Loaded>
    </Part>
  );
}

function ByProviderMonthTable({ report }: { report: BillingReport }) {
  const { t } = useTranslation('billing-reports');
  const money = useMoney();
  return (
    <Stack gap="xs">
      {report.rows.length === 0 ? <Text size="sm">{t('byMonth.empty')}</Text> : null}
      <ScrollTable label={t('byMonth.title')} minWidth={560}>
        <Table striped data-testid="billing-by-month">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">{t('byMonth.month')}</Table.Th>
              <Table.Th scope="col">{t('byMonth.provider')}</Table.Th>
              <Table.Th scope="col" ta="right">
                {t('byMonth.charges')}
              </Table.Th>
              <Table.Th scope="col" ta="right">
                {t('byMonth.payments')}
              </Table.Th>
              <Table.Th scope="col" ta="right">
                {t('byMonth.adjustments')}
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {report.rows.map((row) => (
              <Table.Tr key={`${row.month}:${row.providerId ?? ''}`}>
                <Table.Td>{row.month}</Table.Td>
                <Table.Td>{row.providerName ?? t('byMonth.noProvider')}</Table.Td>
                <Table.Td ta="right">{money(row.chargesCents)}</Table.Td>
                <Table.Td ta="right">{money(row.paymentsCents)}</Table.Td>
                <Table.Td ta="right">{money(row.adjustmentsCents)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
          <Table.Tfoot>
            <Table.Tr fw={700}>
              <Table.Th scope="row" colSpan={2}>
                {t('total')}
              </Table.Th>
              <Table.Td ta="right">{money(report.totals.chargesCents)}</Table.Td>
              <Table.Td ta="right">{money(report.totals.paymentsCents)}</Table.Td>
              <Table.Td ta="right">{money(report.totals.adjustmentsCents)}</Table.Td>
            </Table.Tr>
          </Table.Tfoot>
        </Table>
      </ScrollTable>
    </Stack>
  );
}

function Aging({ asOf }: { asOf: string }) {
  const { t } = useTranslation('billing-reports');
  const query = useQuery(agingReportQueryOptions(asOf));
  return (
    <Part
      id="billing-aging-heading"
      title={t('aging.title')}
      intro={t('aging.intro', { asOf })}
      csv={{ kind: 'aging', dates: { asOf }, ready: query.isSuccess }}
    >
      <Loaded query={query} loading={t('loading')}>
        {(report) => <AgingTable report={report} />}
      </Loaded>
    </Part>
  );
}

function AgingTable({ report }: { report: AgingReport }) {
  const { t } = useTranslation('billing-reports');
  const money = useMoney();
  const cell = (buckets: AgingReport['buckets'], bucket: string) =>
    money(buckets.find((b) => b.bucket === bucket)?.cents ?? 0);
  if (report.patients.length === 0) return <Text size="sm">{t('aging.empty')}</Text>;
  return (
    <ScrollTable label={t('aging.title')} minWidth={640}>
      <Table striped data-testid="billing-aging">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">{t('aging.patient')}</Table.Th>
            {AGING_BUCKETS.map((bucket) => (
              <Table.Th key={bucket} scope="col" ta="right">
                {t(`aging.bucket.${bucket}`)}
              </Table.Th>
            ))}
            <Table.Th scope="col" ta="right">
              {t('total')}
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {report.patients.map((patient) => (
            <Table.Tr key={patient.patientId}>
              <Table.Th scope="row" fw={400}>
                <Anchor component={Link} to={`/patients/${patient.patientId}`} size="sm">
                  {patient.patientName}
                </Anchor>
              </Table.Th>
              {AGING_BUCKETS.map((bucket) => (
                <Table.Td key={bucket} ta="right">
                  {cell(patient.buckets, bucket)}
                </Table.Td>
              ))}
              <Table.Td ta="right">{money(patient.totalCents)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
        <Table.Tfoot>
          <Table.Tr fw={700}>
            <Table.Th scope="row">{t('total')}</Table.Th>
            {AGING_BUCKETS.map((bucket) => (
              <Table.Td key={bucket} ta="right">
                {cell(report.buckets, bucket)}
              </Table.Td>
            ))}
            <Table.Td ta="right">{money(report.totalCents)}</Table.Td>
          </Table.Tr>
        </Table.Tfoot>
      </Table>
    </ScrollTable>
  );
}

function Uncoded({
  range,
  visitPath,
}: {
  range: BillingReportRange;
  visitPath: (visit: { id: string; date: string }) => string;
}) {
  const { t } = useTranslation('billing-reports');
  const query = useQuery(uncodedVisitsQueryOptions(range));
  return (
    <Part
      id="billing-uncoded-heading"
      title={t('uncoded.title')}
      intro={t('uncoded.intro', { from: range.from, to: range.to })}
      csv={{ kind: 'uncoded', dates: { ...range }, ready: query.isSuccess }}
    >
      <Loaded query={query} loading={t('loading')}>
        {(report) => <UncodedList report={report} visitPath={visitPath} />}
      </Loaded>
    </Part>
  );
}

function UncodedList({
  report,
  visitPath,
}: {
  report: UncodedVisits;
  visitPath: (visit: { id: string; date: string }) => string;
}) {
  const { t } = useTranslation('billing-reports');
  if (report.visits.length === 0) return <Text size="sm">{t('uncoded.empty')}</Text>;
  return (
    <Stack gap="xs">
      <Text size="sm" fw={600} data-testid="billing-uncoded-count">
        {t('uncoded.count', { count: report.total })}
      </Text>
      {report.total > report.visits.length ? (
        <Text size="sm">{t('uncoded.more', { shown: report.visits.length, total: report.total })}</Text>
      ) : null}
      <ul style={{ margin: 0, paddingInlineStart: 0, listStyle: 'none' }} data-testid="billing-uncoded">
        {report.visits.map((visit) => (
          <li key={visit.appointmentId} style={{ paddingBlock: 4 }}>
            <Anchor component={Link} to={visitPath({ id: visit.appointmentId, date: visit.date })} size="sm">
              {t('uncoded.visit', { date: visit.date, patient: visit.patientName, provider: visit.providerName })}
            </Anchor>
          </li>
        ))}
      </ul>
    </Stack>
  );
}
