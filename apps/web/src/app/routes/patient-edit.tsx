import { useParams } from 'react-router';

import { PatientEditScreen } from '../../features/patients/index.ts';
import { useCurrentUser } from '../../lib/auth.ts';

/** `/patients/:id/edit`. */
function PatientEditRoute() {
  const { data: user } = useCurrentUser();
  const { id } = useParams();
  if (!user || !id) return null;
  // A new id is a new form: nothing typed for one patient may carry over to another.
  return <PatientEditScreen key={id} id={id} role={user.role} />;
}

export { PatientEditRoute as Component };
