import { AdminDocumentsScreen } from '../../features/practice-documents/index.ts';

/** `/admin/documents` (administrators): the practice's documents and their versions (decision 066). */
export { AdminDocumentsScreen as Component };
