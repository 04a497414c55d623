import { RecordAccessScreen } from '../../features/my-records/index.ts';

/** `/my/record-access`: who of the practice read or changed the patient's record. */
function RecordAccessRoute() {
  return <RecordAccessScreen />;
}

export { RecordAccessRoute as Component };
