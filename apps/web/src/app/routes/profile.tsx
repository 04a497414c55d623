import { PlaceholderRoute } from './placeholder.tsx';

/** `/profile`: My account (name, contact details, language, password, sessions). */
function ProfileRoute() {
  return <PlaceholderRoute screen="profile" />;
}

export { ProfileRoute as Component };
