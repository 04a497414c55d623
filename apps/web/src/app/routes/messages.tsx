import { can } from '@telehealth/shared';

import { MessagesScreen } from '../../features/messages/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';

/** `/messages`: secure messages between patients and their care team or the office (every role; decision 029). */
function MessagesRoute() {
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return (
    <MessagesScreen side={user.role === 'patient' ? 'patient' : 'practice'} office={can(user.role, 'message:office')} />
  );
}

export { MessagesRoute as Component };
