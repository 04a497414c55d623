import { PortalOnly } from '../../components/portal-only.tsx';
import { RecordAccessScreen } from '../../features/my-records/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';
import { canUsePatientPortal } from '../route-guard.ts';

/** `/my/record-access`: who of the practice read or changed the patient's record. */
function RecordAccessRoute() {
  const { data: user } = useCurrentUser();
  return (
    <PortalOnly allowed={canUsePatientPortal(user)}>
      <RecordAccessScreen />
    </PortalOnly>
  );
}

export { RecordAccessRoute as Component };
