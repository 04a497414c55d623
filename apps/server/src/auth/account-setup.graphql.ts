import { INVITATION_MESSAGES, type InvitationStatus } from '@telehealth/shared';
import type { InvitationState } from './invitations.service.ts';
import { ActionResultRef } from '../access-requests/access-requests.graphql.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf, publicCallerOf } from '../graphql/context.ts';

const InvitationStatusRef = builder.objectRef<InvitationState>('InvitationStatus').implement({
  description: 'What an invitation link is worth, so its page can say so before asking for a password.',
  fields: (t) => ({
    status: t.string({ description: 'valid, expired, used or invalid', resolve: (s): InvitationStatus => s.status }),
    email: t.exposeString('email', {
      nullable: true,
      description: 'The address to sign in with; only while the invitation is valid.',
    }),
    expiresAt: t.string({ nullable: true, resolve: (s) => s.expiresAt?.toISOString() ?? null }),
  }),
});

/** A step that ends with a password set: the address to sign in with comes back for the sign-in form. */
function passwordSetResult(name: string) {
  return builder.objectRef<{ success: boolean; message: string; email: string }>(name).implement({
    fields: (t) => ({
      success: t.exposeBoolean('success'),
      message: t.exposeString('message'),
      email: t.exposeString('email', { description: 'The address to sign in with.' }),
    }),
  });
}

const AcceptInvitationResultRef = passwordSetResult('AcceptInvitationResult');
const ResetPasswordResultRef = passwordSetResult('ResetPasswordResult');

const SendInvitationResultRef = builder
  .objectRef<{ success: boolean; message: string; expiresAt: Date }>('SendInvitationResult')
  .implement({
    fields: (t) => ({
      success: t.exposeBoolean('success'),
      message: t.exposeString('message'),
      expiresAt: t.string({
        description: 'When the new link stops working (72 hours from now).',
        resolve: (r) => r.expiresAt.toISOString(),
      }),
    }),
  });

builder.queryField('invitationStatus', (t) =>
  t.field({
    type: InvitationStatusRef,
    description: 'Public. The state of the invitation whose link carries this token.',
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.invitations.status(args.token),
  }),
);

builder.mutationFields((t) => ({
  acceptInvitation: t.field({
    type: AcceptInvitationResultRef,
    description:
      'Public. Sets the first password through an invitation link (single use, 72 hours, the password policy applies). Does not sign in. Failures: BAD_USER_INPUT with extensions.reason invalid, expired or used (or fieldErrors.password); TOO_MANY_REQUESTS.',
    args: { token: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { email } = await ctx.invitations.accept(publicCallerOf(ctx, 'acceptInvitation'), args);
      return { success: true, message: INVITATION_MESSAGES.accepted, email };
    },
  }),
  sendInvitation: t.field({
    type: SendInvitationResultRef,
    description:
      'Administrators. E-mails a new invitation (single use, 72 hours) to an active account that has no password yet; earlier links of the account stop working. Audited (INVITATION_SENT). Failures: FORBIDDEN, NOT_FOUND, BAD_USER_INPUT (the account already has a password, or is not active).',
    args: { accountId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { expiresAt } = await ctx.invitations.send(callerOf(ctx, 'sendInvitation'), String(args.accountId));
      return { success: true, message: INVITATION_MESSAGES.sent, expiresAt };
    },
  }),
  requestPasswordReset: t.field({
    type: ActionResultRef,
    description:
      'Public. E-mails a 6-digit code and a link (valid 15 minutes) if the address has an account; the answer is the same either way. Limited per e-mail and per address (TOO_MANY_REQUESTS).',
    args: {
      email: t.arg.string({ required: true }),
      locale: t.arg.string({ description: 'en or es: the language of the e-mail' }),
    },
    resolve: async (_root, args, ctx) => {
      const { message } = await ctx.passwordReset.request(publicCallerOf(ctx, 'requestPasswordReset'), args);
      return { success: true, message };
    },
  }),
  resetPassword: t.field({
    type: ResetPasswordResultRef,
    description:
      "Public. Sets a new password with the link's token, or the e-mail and code; ends every session of the account. Failures: BAD_USER_INPUT with extensions.reason invalid or expired (or fieldErrors); TOO_MANY_REQUESTS.",
    args: {
      token: t.arg.string(),
      email: t.arg.string(),
      code: t.arg.string(),
      newPassword: t.arg.string({ required: true }),
    },
    resolve: async (_root, args, ctx) => {
      const { accountId, email, message } = await ctx.passwordReset.reset(publicCallerOf(ctx, 'resetPassword'), {
        ...args,
      });
      // The caller's own session (if it was this account's) ended with the others: the browser forgets it too.
      if (ctx.session?.user.id === accountId) {
        void ctx.reply.header('set-cookie', await ctx.sessionLifetime.clearCookieHeader());
        ctx.session = null;
      }
      return { success: true, message, email };
    },
  }),
}));
