import { PortalOnly } from '../../components/portal-only.tsx';
import { MyDocumentsScreen } from '../../features/practice-documents/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';
import { canUsePatientPortal } from '../route-guard.ts';

/** `/my/documents`: the practice's documents for the patient to read and sign (decision 066). */
function MyDocumentsRoute() {
  const { data: user } = useCurrentUser();
  return (
    <PortalOnly allowed={canUsePatientPortal(user)}>
      <MyDocumentsScreen />
    </PortalOnly>
  );
}

export { MyDocumentsRoute as Component };
