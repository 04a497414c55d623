import { SettingsScreen } from '../../features/settings/index.ts';

/** `/admin/settings` (administrators): the practice's settings (decision 032). */
export { SettingsScreen as Component };
