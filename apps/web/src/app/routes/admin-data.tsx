import { DataScreen } from '../../features/practice-data/index.ts';

/** `/admin/data` (administrators): FHIR exports and backups (decision 037). */
export { DataScreen as Component };
