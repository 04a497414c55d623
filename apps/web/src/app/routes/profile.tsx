import { MyAccountScreen } from '../../features/my-account/index.ts';

/** `/profile`: My account (name, contact details, language, password, two-factor, other sessions), every role. */
function ProfileRoute() {
  return <MyAccountScreen />;
}

export { ProfileRoute as Component };
