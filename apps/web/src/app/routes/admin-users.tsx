import { UsersScreen } from '../../features/admin-users/index.ts';

/** `/admin/users` (administrators; the AdminRoute guard decides, and the server refuses anyone else). */
export { UsersScreen as Component };
