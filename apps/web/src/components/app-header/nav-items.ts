import { can, seesPatientList, type ResourceAction, type Role } from '@telehealth/shared';

/**
 * The header's links, in the specification's order; labels are keys in common.json (nav.*). A link with `needs`
 * is shown only to a role that may do that (a patient sees no patient list and no notes); the server refuses
 * the pages anyway, the header only stops offering what cannot be used.
 */
export const NAV_ITEMS = [
  { key: 'dashboard', to: '/dashboard' },
  { key: 'patients', to: '/patients', needs: 'patient:read' },
  { key: 'providers', to: '/doctors', needs: 'provider:read' },
  { key: 'calendar', to: '/calendar', needs: 'appointment:read' },
  { key: 'notes', to: '/notes', needs: 'note:index' },
  { key: 'messages', to: '/messages' },
] as const satisfies readonly { key: string; to: string; needs?: ResourceAction }[];

export type NavItemKey = (typeof NAV_ITEMS)[number]['key'];

/** The links a role is offered. */
export function navItemsFor(role: Role | null | undefined): (typeof NAV_ITEMS)[number][] {
  return NAV_ITEMS.filter(
    (item) =>
      (!('needs' in item) || can(role, item.needs)) &&
      // A patient reads their own record in the portal's My Records, not in the patient list.
      (item.key !== 'patients' || seesPatientList(role)),
  );
}
