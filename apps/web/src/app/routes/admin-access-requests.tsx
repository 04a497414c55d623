import { AccessRequestsScreen } from '../../features/access-requests/index.ts';

/** `/admin/access-requests` (administrators; the AdminRoute guard decides). */
export { AccessRequestsScreen as Component };
