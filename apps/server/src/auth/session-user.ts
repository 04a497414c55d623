import type { Role } from '@telehealth/shared';

/**
 * The signed-in person as a request sees it (session-lifetime.ts builds it). A file of its own so that the
 * caller's scope (access/) names it without importing the sessions' code, which writes through the scope.
 */
export interface SessionUser {
  id: string;
  email: string;
  firstName: string;
  lastName: string;
  name: string;
  role: Role;
}
