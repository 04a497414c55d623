import { DEFAULT_PRACTICE_TIME_ZONE } from '@telehealth/shared';

import { Paper } from '@mantine/core';

import { calendarPathOf } from '../../features/appointments/index.ts';
import { BillingReportsSection } from '../../features/billing-reports/index.ts';
import { OutcomesSection } from '../../features/outcomes/index.ts';
import { ReportsScreen } from '../../features/reports/index.ts';
import { useAppConfigValue } from '../../lib/page-bootstrap.ts';

/**
 * `/admin/reports` (administrators): the compliance report and the practice reports (decision 035), the
 * practice's outcomes for the same period (decision 064), and the billing reports with dates of their own
 * (decision 073: this month by default), whose uncoded visits open on the calendar.
 */
function AdminReportsRoute() {
  const config = useAppConfigValue();
  const timeZone = config?.practiceTimeZone ?? DEFAULT_PRACTICE_TIME_ZONE;
  return (
    <ReportsScreen
      timeZone={timeZone}
      more={(period) => (
        <>
          <Paper withBorder p="md" component="section" aria-labelledby="outcomes-heading">
            <OutcomesSection period={period} />
          </Paper>
          <Paper withBorder p="md" component="section" aria-labelledby="billing-heading">
            <BillingReportsSection timeZone={timeZone} visitPath={calendarPathOf} />
          </Paper>
        </>
      )}
    />
  );
}

export { AdminReportsRoute as Component };
