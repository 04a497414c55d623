import { CronPayloadSchema } from '../jobs/tasks.ts';
import { defineModule } from '../modules/domain-module.ts';
import { AccountService } from './account.service.ts';
import { createAuth, type Auth } from './auth.ts';
import { AuthService } from './auth.service.ts';
import { InvitationsService } from './invitations.service.ts';
import { PasswordResetService } from './password-reset.service.ts';
import { SessionLifetime } from './session-lifetime.ts';
import { SignInLockout } from './sign-in-lockout.ts';
import { TwoFactorService } from './two-factor.service.ts';

const taskPayloads = {
  /** Ends every session past its deadline and records SESSION_EXPIRED for each (the automatic logoff). */
  'sessions:sweep': CronPayloadSchema,
};
type AuthTaskSchemas = typeof taskPayloads;

declare module '../jobs/tasks.ts' {
  interface TaskSchemas extends AuthTaskSchemas {}
}
declare module '../modules/services.ts' {
  interface Services {
    /** better-auth, on the application's database. */
    auth: Auth;
    authService: AuthService;
    /** The session after sign-in: the cookie, the sliding idle deadline, expiry (the session plugin, the sockets). */
    sessionLifetime: SessionLifetime;
    /** The lockout per e-mail and the limit per address, for every check of a password or a code. */
    signInLockout: SignInLockout;
    invitations: InvitationsService;
    passwordReset: PasswordResetService;
    twoFactor: TwoFactorService;
    account: AccountService;
  }
}

/** Sign-in, sessions, invitations, password resets, two-factor and the account's own settings. */
export default defineModule({
  name: 'auth',
  after: ['mail', 'rate-limit'],
  taskPayloads,
  crontab: ['* * * * * sessions:sweep ?id=sessions-sweep&jobKey=cron:sessions-sweep&max=3'],
  create: ({ db, config, secret, mail, rateLimiter }) => {
    const auth = createAuth({ db, config, secret });
    const sessionLifetime = new SessionLifetime({ auth, db, config, secret });
    const signInLockout = new SignInLockout({ db, limiter: rateLimiter });
    const authService = new AuthService({
      auth,
      db,
      config,
      secret,
      sessions: sessionLifetime,
      lockout: signInLockout,
    });
    const invitations = new InvitationsService({ auth, db, config, mail, limiter: rateLimiter, secret });
    const passwordReset = new PasswordResetService({ auth, db, config, mail, limiter: rateLimiter, secret });
    const twoFactor = new TwoFactorService({ auth, db, config, authService, lockout: signInLockout, secret });
    const account = new AccountService({ db, auth, lockout: signInLockout });
    return {
      services: { auth, authService, sessionLifetime, signInLockout, invitations, passwordReset, twoFactor, account },
      tasks: {
        'sessions:sweep': async () => {
          await sessionLifetime.sweepExpiredSessions();
        },
      },
    };
  },
});
