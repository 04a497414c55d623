import { PortalOnly } from '../../components/portal-only.tsx';
import { MyBillingScreen } from '../../features/my-billing/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';
import { canUsePatientPortal } from '../route-guard.ts';

/** `/my/billing`: the patient's balance, account entries, superbills and statement (decision 073). */
function MyBillingRoute() {
  const { data: user } = useCurrentUser();
  return (
    <PortalOnly allowed={canUsePatientPortal(user)}>
      <MyBillingScreen />
    </PortalOnly>
  );
}

export { MyBillingRoute as Component };
