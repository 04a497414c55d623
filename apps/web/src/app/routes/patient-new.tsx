import { PatientCreateScreen } from '../../features/patients/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';

/** `/patients/new`: New Patient Registration. */
function PatientNewRoute() {
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return <PatientCreateScreen role={user.role} />;
}

export { PatientNewRoute as Component };
