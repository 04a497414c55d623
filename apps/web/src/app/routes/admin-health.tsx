import { HealthScreen } from '../../features/admin-console/index.ts';

/** `/admin/health` (administrators): the system's health, check by check. */
export { HealthScreen as Component };
