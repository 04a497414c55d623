import { isRole, type Role } from '@telehealth/shared';

export interface HeaderIdentityInput {
  name?: string | null;
  role?: string | null;
}

export interface HeaderIdentityText {
  fallbackName: string;
  fallbackRole: string;
  roleLabel: (role: Role) => string;
}

export interface HeaderIdentity {
  name: string;
  roleLabel: string;
  initials: string;
}

/** The name and role the header shows, with the specification's fallbacks 'User' and 'Staff'. */
export function getHeaderIdentity(
  user: HeaderIdentityInput | null | undefined,
  text: HeaderIdentityText,
): HeaderIdentity {
  const name = user?.name?.trim() || text.fallbackName;
  const roleLabel = isRole(user?.role) ? text.roleLabel(user.role) : text.fallbackRole;
  return { name, roleLabel, initials: getInitials(name) };
}

/** "Maya Okafor" → "MO", "avery" → "A". */
export function getInitials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const first = words[0]?.[0] ?? '';
  const last = words.length > 1 ? (words[words.length - 1]?.[0] ?? '') : '';
  return (first + last).toUpperCase();
}
