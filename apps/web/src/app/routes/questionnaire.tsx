import { useParams } from 'react-router';

import { QuestionnaireScreen } from '../../features/measures/index.ts';

/** `/questionnaires/{id}`: a patient fills in a questionnaire sent to them. */
function QuestionnaireRoute() {
  const { id = '' } = useParams();
  return <QuestionnaireScreen id={id} />;
}

export { QuestionnaireRoute as Component };
