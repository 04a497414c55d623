import { defineModule } from '../modules/domain-module.ts';
import { AdminUsersService } from './admin-users.service.ts';
import { UserAccessService } from './user-access.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    adminUsers: AdminUsersService;
    userAccess: UserAccessService;
  }
}

/** Accounts, and their administration. */
export default defineModule({
  name: 'users',
  after: ['auth'],
  create: ({ db, secret, invitations, passwordReset, twoFactor, authService, sessionLifetime }) => ({
    services: {
      adminUsers: new AdminUsersService({ db, secret, invitations, passwordReset, twoFactor }),
      userAccess: new UserAccessService({ db, authService, sessionLifetime }),
    },
  }),
});
