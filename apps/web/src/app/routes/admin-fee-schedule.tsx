import { FeeScheduleScreen } from '../../features/fee-schedule/index.ts';

/** `/admin/fee-schedule` (administrators): the practice's services and fees (decision 073). */
export { FeeScheduleScreen as Component };
