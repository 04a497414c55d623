/** The header's links, in the specification's order; labels are keys in common.json (nav.*). */
export const NAV_ITEMS = [
  { key: 'dashboard', to: '/dashboard' },
  { key: 'patients', to: '/patients' },
  { key: 'providers', to: '/doctors' },
  { key: 'calendar', to: '/calendar' },
  { key: 'notes', to: '/notes' },
  { key: 'messages', to: '/messages' },
] as const;

export type NavItemKey = (typeof NAV_ITEMS)[number]['key'];
