import { CompliancePrintPage } from '../../features/reports/index.ts';

/** `/admin/reports/compliance/print` (administrators): the compliance report to print (decision 035). */
export { CompliancePrintPage as Component };
