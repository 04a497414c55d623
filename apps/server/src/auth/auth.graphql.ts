import {
  DEMO_ACCOUNTS,
  DEMO_PASSWORD,
  MESSAGES,
  type AppConfig,
  type CurrentUser,
  type MessageRef,
  type SignInResult,
} from '@telehealth/shared';
import { publicAppConfig } from '../app-config.ts';
import { toCurrentUser } from './auth.service.ts';
import { builder } from '../graphql/builder.ts';

export const CurrentUserRef = builder.objectRef<CurrentUser>('CurrentUser').implement({
  fields: (t) => ({
    userId: t.exposeID('userId'),
    email: t.exposeString('email'),
    name: t.exposeString('name'),
    role: t.exposeString('role'),
    source: t.exposeString('source'),
  }),
});

const MessageParamRef = builder.objectRef<{ name: string; value: string }>('MessageParam').implement({
  fields: (t) => ({ name: t.exposeString('name'), value: t.exposeString('value') }),
});

/** A catalogue message by id, for the browser to say in its language (decision 018). */
const MessageRefRef = builder.objectRef<MessageRef>('Message').implement({
  fields: (t) => ({
    id: t.exposeString('id'),
    params: t.field({
      type: [MessageParamRef],
      resolve: (message) => Object.entries(message.params).map(([name, value]) => ({ name, value: String(value) })),
    }),
  }),
});

export const SignInResultRef = builder.objectRef<SignInResult>('SignInResult').implement({
  fields: (t) => ({
    success: t.exposeBoolean('success'),
    user: t.field({ type: CurrentUserRef, nullable: true, resolve: (r) => r.user }),
    error: t.exposeString('error', { nullable: true }),
    errorMessage: t.field({ type: MessageRefRef, nullable: true, resolve: (r) => r.errorMessage }),
    nextStep: t.exposeString('nextStep', { nullable: true }),
  }),
});

const DemoAccountRef = builder.objectRef<AppConfig['demoAccounts'][number]>('DemoAccount').implement({
  fields: (t) => ({
    email: t.exposeString('email'),
    role: t.exposeString('role'),
    label: t.exposeString('label'),
  }),
});

const EmergencyBannerRef = builder.objectRef<AppConfig['emergencyBanner']>('EmergencyBanner').implement({
  description:
    'The emergency-support banner (EMERGENCY_BANNER). Heading and body are null when the built-in text applies.',
  fields: (t) => ({
    enabled: t.exposeBoolean('enabled'),
    heading: t.exposeString('heading', { nullable: true }),
    body: t.exposeString('body', { nullable: true }),
  }),
});

const AppConfigRef = builder.objectRef<AppConfig>('AppConfig').implement({
  description: 'What the browser needs to know of the server before sign-in. Public.',
  fields: (t) => ({
    practiceName: t.exposeString('practiceName'),
    demoMode: t.exposeBoolean('demoMode'),
    sessionIdleMinutes: t.exposeFloat('sessionIdleMinutes'),
    version: t.exposeString('version'),
    demoAccounts: t.field({ type: [DemoAccountRef], resolve: (c) => c.demoAccounts }),
    clinicPhone: t.exposeString('clinicPhone', {
      nullable: true,
      description: 'CLINIC_PHONE: the number the call buttons dial.',
    }),
    bookingUrl: t.exposeString('bookingUrl', {
      nullable: true,
      description: 'BOOKING_URL: the external scheduling page (opened in a new tab).',
    }),
    contactEmail: t.exposeString('contactEmail', {
      nullable: true,
      description: "CONTACT_EMAIL: the practice's public address; null when none is known (no contact links).",
    }),
    emergencyBanner: t.field({ type: EmergencyBannerRef, resolve: (c) => c.emergencyBanner }),
    practiceTimeZone: t.exposeString('practiceTimeZone', {
      description: "PRACTICE_TIME_ZONE: the IANA zone of every appointment's date and time.",
    }),
    messageResponseBusinessDays: t.exposeInt('messageResponseBusinessDays', {
      description: 'MESSAGE_RESPONSE_BUSINESS_DAYS: the practice answers messages within this many business days.',
    }),
  }),
});

builder.queryField('me', (t) =>
  t.field({
    type: CurrentUserRef,
    nullable: true,
    description: 'The signed-in user, or null.',
    resolve: (_root, _args, ctx) => (ctx.session ? toCurrentUser(ctx.session.user) : null),
  }),
);

builder.queryField('appConfig', (t) =>
  t.field({
    type: AppConfigRef,
    resolve: (_root, _args, { config }) => publicAppConfig(config),
  }),
);

builder.mutationField('signIn', (t) =>
  t.field({
    type: SignInResultRef,
    args: { email: t.arg.string({ required: true }), password: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { result, setCookies } = await ctx.authService.signIn(args, ctx.meta, ctx.session);
      for (const cookie of setCookies) void ctx.reply.header('set-cookie', cookie);
      return result;
    },
  }),
);

builder.mutationField('confirmSignIn', (t) =>
  t.field({
    type: SignInResultRef,
    description:
      'Public. The second step of a sign-in that answered CONFIRM_SIGN_IN_WITH_TOTP_CODE: the code of the authenticator app, or one of the recovery codes (each works once). The challenge is a cookie set by signIn and lasts 5 minutes. A wrong code counts toward the sign-in lockout and answers the same step again; an expired or spent challenge answers no step (sign in again).',
    args: { challengeResponse: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { result, setCookies } = await ctx.authService.confirmSignIn(args, ctx.meta, ctx.session);
      for (const cookie of setCookies) void ctx.reply.header('set-cookie', cookie);
      return result;
    },
  }),
);

builder.mutationField('demoSignIn', (t) =>
  t.field({
    type: SignInResultRef,
    description: 'Signs in as a seeded demo account. Only while demo mode is on.',
    args: { email: t.arg.string({ required: true }) },
    resolve: async (_root, { email }, ctx) => {
      const account = DEMO_ACCOUNTS.find((a) => a.email === email.trim().toLowerCase());
      if (!ctx.config.demoMode || !account) {
        const errorMessage = { id: 'messages.demoModeOff', params: {} } as const;
        return { success: false, user: null, error: MESSAGES.demoModeOff, errorMessage, nextStep: null };
      }
      const { result, setCookies } = await ctx.authService.signIn(
        { email: account.email, password: DEMO_PASSWORD },
        ctx.meta,
        ctx.session,
      );
      for (const cookie of setCookies) void ctx.reply.header('set-cookie', cookie);
      return result;
    },
  }),
);

builder.mutationField('signOut', (t) =>
  t.boolean({
    resolve: async (_root, _args, ctx) => {
      const cookies = await ctx.authService.signOut(ctx.session, ctx.meta);
      for (const cookie of cookies) void ctx.reply.header('set-cookie', cookie);
      ctx.session = null;
      return true;
    },
  }),
);

/** Operations a caller without a session may use; every other root field needs one. */
export const PUBLIC_ROOT_FIELDS = new Set([
  'me',
  'appConfig',
  'signIn',
  'confirmSignIn',
  // They check for themselves: a session, or the set-up challenge of a sign-in (CONTINUE_SIGN_IN_WITH_TOTP_SETUP),
  // which allows nothing else.
  'startTotpSetup',
  'confirmTotpSetup',
  'demoSignIn',
  'signOut',
  'submitProviderAccessRequest',
  'submitPatientAccessRequest',
  'requestPasswordReset',
  'resetPassword',
  'invitationStatus',
  'acceptInvitation',
  // A waitlist offer's link is its own authority (a patient may have no account).
  'waitlistOffer',
  'claimWaitlistOffer',
  // A video visit guest's link is theirs alone: a family member has no account.
  'guestVideoVisit',
  'requestGuestVideoToken',
  // What the practice's hours cover, without names (the patient's access-request form, decision 045).
  'practiceHours',
  '__typename',
]);
