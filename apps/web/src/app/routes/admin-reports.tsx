import { DEFAULT_PRACTICE_TIME_ZONE } from '@telehealth/shared';

import { ReportsScreen } from '../../features/reports/index.ts';
import { useAppConfigValue } from '../../lib/page-bootstrap.ts';

/** `/admin/reports` (administrators): the compliance report and the practice reports (decision 035). */
function AdminReportsRoute() {
  const config = useAppConfigValue();
  return <ReportsScreen timeZone={config?.practiceTimeZone ?? DEFAULT_PRACTICE_TIME_ZONE} />;
}

export { AdminReportsRoute as Component };
