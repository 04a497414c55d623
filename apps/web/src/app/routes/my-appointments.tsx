import { PortalOnly } from '../../components/portal-only.tsx';
import { MyAppointmentsScreen } from '../../features/appointments/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';
import { canUsePatientPortal } from '../route-guard.ts';

/** `/my/appointments`: the patient's appointments: upcoming and past, book, confirm, change, join. */
function MyAppointmentsRoute() {
  const { data: user } = useCurrentUser();
  return (
    <PortalOnly allowed={canUsePatientPortal(user)}>
      <MyAppointmentsScreen />
    </PortalOnly>
  );
}

export { MyAppointmentsRoute as Component };
