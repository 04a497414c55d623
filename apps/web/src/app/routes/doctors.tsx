import { ProvidersScreen } from '../../features/providers/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';

/** `/doctors` (Providers). */
function DoctorsRoute() {
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return <ProvidersScreen role={user.role} />;
}

export { DoctorsRoute as Component };
