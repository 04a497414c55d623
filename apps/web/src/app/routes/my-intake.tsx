import { PortalOnly } from '../../components/portal-only.tsx';
import { IntakeScreen } from '../../features/intake/index.ts';
import { PendingQuestionnaires } from '../../features/measures/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';
import { canUsePatientPortal } from '../route-guard.ts';

/** `/my/intake`: the patient's intake packet; its last step shows the baseline questionnaires (the measures'). */
function MyIntakeRoute() {
  const { data: user } = useCurrentUser();
  return (
    <PortalOnly allowed={canUsePatientPortal(user)}>
      <IntakeScreen questionnaires={<PendingQuestionnaires showEmpty />} />
    </PortalOnly>
  );
}

export { MyIntakeRoute as Component };
