import { Alert, Anchor, Button, Group, Stack, Title } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';

import { LoadingLine } from '../../../components/loading-line.tsx';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { describeError } from '../../../lib/errors.ts';
import { useGenerateComplianceReport } from '../api/reports-api.ts';
import classes from './compliance-print.module.css';
import { ComplianceReportView } from './compliance-report-view.tsx';
import { periodFromSearch } from './report-period.ts';

/**
 * `/admin/reports/compliance/print?startDate=…&endDate=…`: the compliance report as a page to print. It is
 * generated once when the page opens (a DATA_EXPORT in the format print) and the browser's print dialog follows.
 */
export function CompliancePrintPage() {
  const { t } = useTranslation('reports');
  usePageTitle(t('compliance.printTitle'));
  const [params] = useSearchParams();
  const period = periodFromSearch(params);
  const generate = useGenerateComplianceReport();
  const { mutate } = generate;
  const asked = useRef(false);
  const printed = useRef(false);

  useEffect(() => {
    // Once per page, also under React's development double effects: every generation is an audited export.
    if (asked.current || !period) return;
    asked.current = true;
    mutate({ period, format: 'print' });
  }, [mutate, period]);

  useEffect(() => {
    if (!generate.data || printed.current) return;
    printed.current = true;
    // After the report has been painted.
    const timer = setTimeout(() => {
      window.print();
    }, 300);
    return () => {
      clearTimeout(timer);
    };
  }, [generate.data]);

  return (
    <Stack gap="md" maw={1000} className={classes.page}>
      <Group justify="space-between" className={classes.noPrint} wrap="wrap">
        <Anchor component={Link} to="/admin/reports">
          {t('compliance.back')}
        </Anchor>
        {generate.data ? (
          <Button
            variant="default"
            onClick={() => {
              window.print();
            }}
          >
            {t('compliance.print')}
          </Button>
        ) : null}
      </Group>
      <Title order={1}>{t('compliance.printTitle')}</Title>
      {!period ? (
        <Alert color="red" variant="light" role="alert">
          {t('compliance.noPeriod')}
        </Alert>
      ) : generate.isError ? (
        <Alert color="red" variant="light" role="alert">
          {describeError(generate.error)}
        </Alert>
      ) : generate.data ? (
        <ComplianceReportView report={generate.data} headingLevel={2} />
      ) : (
        <LoadingLine label={t('compliance.generating')} />
      )}
    </Stack>
  );
}
