import { hasPermission } from '@telehealth/shared';

import { ProviderBillingButton } from '../../features/provider-billing/index.ts';
import { ProvidersScreen } from '../../features/providers/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';

/** `/doctors` (Providers); administrators also keep each provider's billing identity (decision 073). */
function DoctorsRoute() {
  const { data: user } = useCurrentUser();
  if (!user) return null;
  const managesAny = hasPermission(user.role, 'provider-billing:manage:any');
  return (
    <ProvidersScreen
      role={user.role}
      {...(managesAny
        ? {
            providerActions: (provider) => (
              <ProviderBillingButton providerId={provider.id} name={`${provider.firstName} ${provider.lastName}`} />
            ),
          }
        : {})}
    />
  );
}

export { DoctorsRoute as Component };
