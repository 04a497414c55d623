import { DEFAULT_PRACTICE_TIME_ZONE } from '@telehealth/shared';

import { Paper } from '@mantine/core';

import { OutcomesSection } from '../../features/outcomes/index.ts';
import { ReportsScreen } from '../../features/reports/index.ts';
import { useAppConfigValue } from '../../lib/page-bootstrap.ts';

/**
 * `/admin/reports` (administrators): the compliance report and the practice reports (decision 035), and the
 * practice's outcomes for the same period (decision 064).
 */
function AdminReportsRoute() {
  const config = useAppConfigValue();
  return (
    <ReportsScreen
      timeZone={config?.practiceTimeZone ?? DEFAULT_PRACTICE_TIME_ZONE}
      more={(period) => (
        <Paper withBorder p="md" component="section" aria-labelledby="outcomes-heading">
          <OutcomesSection period={period} />
        </Paper>
      )}
    />
  );
}

export { AdminReportsRoute as Component };
