import type { TotpSetup, TwoFactorStatus } from '@telehealth/shared';
import type { TotpSetupConfirmation } from './two-factor.service.ts';
import { unauthenticated } from '../errors.ts';
import { CurrentUserRef } from './auth.graphql.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf, requireUser } from '../graphql/context.ts';

const TotpSetupRef = builder.objectRef<TotpSetup>('TotpSetup').implement({
  description: 'A new authenticator key, until confirmTotpSetup confirms it.',
  fields: (t) => ({
    secret: t.exposeString('secret', { description: 'The key in base32, to type into an app that cannot scan.' }),
    otpauthUri: t.exposeString('otpauthUri', { description: 'otpauth://totp/… for the QR code.' }),
  }),
});

const TotpSetupConfirmationRef = builder.objectRef<TotpSetupConfirmation>('TotpSetupConfirmation').implement({
  fields: (t) => ({
    recoveryCodes: t.exposeStringList('recoveryCodes', {
      description: 'Ten recovery codes, each usable once instead of a code. Shown this once: only hashes are kept.',
    }),
    user: t.field({
      type: CurrentUserRef,
      nullable: true,
      description: 'The signed-in user when the set-up completed a sign-in (CONTINUE_SIGN_IN_WITH_TOTP_SETUP).',
      resolve: (c) => c.user,
    }),
  }),
});

const TwoFactorStatusRef = builder.objectRef<TwoFactorStatus>('TwoFactorStatus').implement({
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled'),
    recoveryCodesRemaining: t.exposeInt('recoveryCodesRemaining'),
  }),
});

builder.queryField('twoFactorStatus', (t) =>
  t.field({
    type: TwoFactorStatusRef,
    description: "The signed-in user's two-factor sign-in: on or off, and the recovery codes left.",
    resolve: (_root, _args, ctx) => ctx.twoFactor.status(requireUser(ctx).id),
  }),
);

builder.mutationFields((t) => ({
  startTotpSetup: t.field({
    type: TotpSetupRef,
    description:
      'Starts setting up two-factor sign-in: a new key for an authenticator app. For the signed-in user, or for a sign-in that answered CONTINUE_SIGN_IN_WITH_TOTP_SETUP (its challenge cookie). Failures: UNAUTHENTICATED; BAD_USER_INPUT when it is on already.',
    resolve: (_root, _args, ctx) => ctx.twoFactor.startSetup(ctx.session, ctx.meta),
  }),
  confirmTotpSetup: t.field({
    type: TotpSetupConfirmationRef,
    description:
      'Confirms the set-up with a code from the app: two-factor is on, and the ten recovery codes are answered once. For a sign-in that had to set it up, the sign-in is complete (the session cookie is set). Failures: BAD_USER_INPUT (a wrong code: it counts toward the lockout during a sign-in); TOO_MANY_REQUESTS while locked; UNAUTHENTICATED.',
    args: { code: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const confirmation = await ctx.twoFactor.confirmSetup(ctx.session, ctx.meta, args);
      for (const cookie of confirmation.setCookies) void ctx.reply.header('set-cookie', cookie);
      return confirmation;
    },
  }),
  disableTwoFactor: t.field({
    type: TwoFactorStatusRef,
    description:
      "Turns the signed-in user's two-factor sign-in off, with the password and a current code (or a recovery code). Wrong ones count toward the sign-in lockout. Refused for a role in MFA_REQUIRED_ROLES.",
    args: { code: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => {
      if (!ctx.session) throw unauthenticated();
      return ctx.twoFactor.disable(ctx.session, ctx.meta, args);
    },
  }),
  resetTwoFactor: t.boolean({
    description:
      "Administrators: turns another account's two-factor sign-in off (a lost phone and no recovery codes). Audited. Failures: FORBIDDEN; NOT_FOUND.",
    args: { accountId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.twoFactor.reset(callerOf(ctx, 'resetTwoFactor'), String(args.accountId)),
  }),
}));
