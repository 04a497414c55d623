import { PlaceholderRoute } from './placeholder.tsx';

/** `/my/record-access`: who of the practice read or changed the patient's record. */
function RecordAccessRoute() {
  return <PlaceholderRoute screen="recordAccess" />;
}

export { RecordAccessRoute as Component };
