import { PlaceholderRoute } from './placeholder.tsx';

/** `/my/records`: the patient's own details, questionnaires and what their providers shared. */
function MyRecordsRoute() {
  return <PlaceholderRoute screen="myRecords" />;
}

export { MyRecordsRoute as Component };
