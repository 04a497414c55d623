import { Alert, Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { ReportPeriodSchema, type ReportPeriod } from '@telehealth/shared';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { fieldErrorsFromZod, type FieldErrors } from '../../../lib/form-errors.ts';
import { errorText } from '../../../lib/error-text.ts';
import { downloadComplianceCsv, useGenerateComplianceReport } from '../api/reports-api.ts';
import { ComplianceReportView } from './compliance-report-view.tsx';
import { PracticeReports } from './practice-reports.tsx';
import { defaultReportPeriod, printableReportPath } from './report-period.ts';

/**
 * `/admin/reports` (administrators): a period, the specification's compliance report for it (generated on demand,
 * downloadable as CSV and printable) and the practice reports beside it (decision 035); `more` adds sections of
 * other features for the same period (the route composes them: the practice's outcomes, decision 064).
 */
export function ReportsScreen({ timeZone, more }: { timeZone: string; more?: (period: ReportPeriod) => ReactNode }) {
  const { t } = useTranslation('reports');
  usePageTitle(t('title'));
  const [period, setPeriod] = useState<ReportPeriod>(() => defaultReportPeriod(timeZone));
  return (
    <Stack gap="lg" maw={1100}>
      <Stack gap={4}>
        <Title order={1}>{t('title')}</Title>
        <Text c="dimmed">{t('intro')}</Text>
      </Stack>
      <PeriodForm period={period} timeZone={timeZone} onApply={setPeriod} />
      <Paper withBorder p="md" component="section" aria-labelledby="compliance-heading">
        <ComplianceSection period={period} />
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="practice-heading">
        <Stack gap="md">
          <Stack gap={4}>
            <Title order={2} id="practice-heading">
              {t('practice.title')}
            </Title>
            <Text size="sm" c="dimmed">
              {t('practice.intro')}
            </Text>
          </Stack>
          <PracticeReports period={period} />
        </Stack>
      </Paper>
      {more?.(period)}
    </Stack>
  );
}

function PeriodForm({
  period,
  timeZone,
  onApply,
}: {
  period: ReportPeriod;
  timeZone: string;
  onApply: (period: ReportPeriod) => void;
}) {
  const { t } = useTranslation('reports');
  const [draft, setDraft] = useState(period);
  const [errors, setErrors] = useState<FieldErrors>({});
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = ReportPeriodSchema.safeParse(draft);
    if (!parsed.success) {
      setErrors(fieldErrorsFromZod(parsed.error));
      return;
    }
    setErrors({});
    onApply(parsed.data);
  };
  const error = (field: 'startDate' | 'endDate') => (errors[field] ? errorText(errors[field]) : undefined);
  return (
    <Paper withBorder p="md" component="form" onSubmit={submit} noValidate>
      <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0 }}>
        <Text component="legend" fw={600} p={0}>
          {t('period.legend')}
        </Text>
        <Group gap="sm" align="flex-start" wrap="wrap">
          <TextInput
            type="date"
            label={t('period.startDate')}
            value={draft.startDate}
            error={error('startDate')}
            onChange={(event) => {
              const startDate = event.currentTarget.value;
              setDraft((current) => ({ ...current, startDate }));
            }}
            required
          />
          <TextInput
            type="date"
            label={t('period.endDate')}
            value={draft.endDate}
            error={error('endDate')}
            onChange={(event) => {
              const endDate = event.currentTarget.value;
              setDraft((current) => ({ ...current, endDate }));
            }}
            required
          />
        </Group>
        <Text size="xs" c="dimmed">
          {t('period.timeZone', { zone: timeZone })}
        </Text>
        <Group>
          <Button type="submit" variant="default">
            {t('period.apply')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

function ComplianceSection({ period }: { period: ReportPeriod }) {
  const { t } = useTranslation('reports');
  const generate = useGenerateComplianceReport();
  const [downloading, setDownloading] = useState(false);
  const [downloadError, setDownloadError] = useState<string | null>(null);
  const report = generate.data;
  const download = async () => {
    if (!report) return;
    setDownloading(true);
    setDownloadError(null);
    try {
      await downloadComplianceCsv({ startDate: report.period.startDate, endDate: report.period.endDate });
    } catch (error) {
      setDownloadError(t('compliance.downloadFailed', { reason: describeError(error) }));
    } finally {
      setDownloading(false);
    }
  };
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={2} id="compliance-heading">
          {t('compliance.title')}
        </Title>
        <Text size="sm" c="dimmed">
          {t('compliance.intro')}
        </Text>
      </Stack>
      <Group gap="sm" wrap="wrap">
        <Button
          onClick={() => {
            generate.mutate({ period, format: 'screen' });
          }}
          loading={generate.isPending}
          loaderProps={{ 'aria-label': t('compliance.generating') }}
        >
          {t('compliance.generate')}
        </Button>
        {report ? (
          <>
            <Button variant="default" onClick={() => void download()} loading={downloading}>
              {t('compliance.downloadCsv')}
            </Button>
            <Anchor
              component={Link}
              to={printableReportPath({ startDate: report.period.startDate, endDate: report.period.endDate })}
              target="_blank"
            >
              {t('compliance.printable')}
            </Anchor>
          </>
        ) : null}
      </Group>
      {generate.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(generate.error)}
        </Alert>
      ) : null}
      {downloadError ? (
        <Alert color="red" variant="light" role="alert">
          {downloadError}
        </Alert>
      ) : null}
      {report ? <ComplianceReportView report={report} /> : null}
    </Stack>
  );
}
