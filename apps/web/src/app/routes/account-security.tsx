import { SecurityScreen } from '../../features/account-security/index.ts';

/** `/account/security` (the account menu's Security): two-factor sign-in. */
function AccountSecurityRoute() {
  return <SecurityScreen />;
}

export { AccountSecurityRoute as Component };
