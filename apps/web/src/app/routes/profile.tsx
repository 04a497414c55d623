import { hasPermission } from '@telehealth/shared';

import { MyAccountScreen } from '../../features/my-account/index.ts';
import { ProviderBillingCard } from '../../features/provider-billing/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';

/**
 * `/profile`: My account (name, contact details, language, password, two-factor, other sessions), every role; a
 * provider also keeps their own billing identity there (decision 073).
 */
function ProfileRoute() {
  const { data: user } = useCurrentUser();
  const ownBilling = user?.role === 'provider' && hasPermission(user.role, 'provider-billing:manage:own');
  return <MyAccountScreen>{ownBilling ? <ProviderBillingCard providerId={user.userId} /> : null}</MyAccountScreen>;
}

export { ProfileRoute as Component };
