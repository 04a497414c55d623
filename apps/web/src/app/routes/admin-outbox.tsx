import { OutboxScreen } from '../../features/access-requests/index.ts';

/** `/admin/outbox` (administrators; the screen itself says when demo mode is off). */
export { OutboxScreen as Component };
