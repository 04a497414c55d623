/** The three roles an account can hold. A role exists only on the server; the browser is told it. */
export const ROLES = ['admin', 'provider', 'patient'] as const;
export type Role = (typeof ROLES)[number];

export function isRole(value: unknown): value is Role {
  return typeof value === 'string' && (ROLES as readonly string[]).includes(value);
}

/** Labels used for demo accounts and the role badge. */
export const ROLE_LABELS: Record<Role, string> = {
  admin: 'Administrator',
  provider: 'Provider/Doctor',
  patient: 'Patient',
};

/** Dashboard heading for each role. */
export const DASHBOARD_HEADINGS: Record<Role, string> = {
  admin: 'Administrator Dashboard',
  provider: 'Provider Dashboard',
  patient: 'Patient Portal',
};

export const PERMISSIONS = ['patients.read', 'patients.write', 'patients.delete', 'admin.console'] as const;
export type Permission = (typeof PERMISSIONS)[number];

/**
 * Which role holds which permission. Providers' patient permissions are limited to the patients they own;
 * that narrowing is the server's (see the patients service), this table only says whether the action exists.
 */
export const ROLE_PERMISSIONS: Record<Role, readonly Permission[]> = {
  admin: ['patients.read', 'patients.write', 'patients.delete', 'admin.console'],
  provider: ['patients.read', 'patients.write'],
  patient: [],
};

export function hasPermission(role: Role | null | undefined, permission: Permission): boolean {
  return role != null && ROLE_PERMISSIONS[role].includes(permission);
}
