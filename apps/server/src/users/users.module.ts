import { defineModule } from '../modules/domain-module.ts';
import { AdminUsersService } from './admin-users.service.ts';

declare module '../modules/services.ts' {
  interface Services {
    adminUsers: AdminUsersService;
  }
}

/** Accounts, and their administration. */
export default defineModule({
  name: 'users',
  after: ['auth'],
  create: ({ db, secret, invitations, passwordReset, twoFactor, authService }) => ({
    services: {
      adminUsers: new AdminUsersService({ db, secret, invitations, passwordReset, twoFactor, authService }),
    },
  }),
});
