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
