import { StoredTextScreen } from '../../features/stored-text/index.ts';

/** `/admin/stored-text` (administrators): stored text made inert under the text rule. */
export { StoredTextScreen as Component };
