import { APPOINTMENT_MESSAGES } from '@telehealth/shared';
import type { WaitlistEntryRow } from './waitlist.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf, publicCallerOf, type GraphQLContext } from '../graphql/context.ts';
import { plainInput } from '../graphql/plain-input.ts';

/** The waiting list (decision 025): the staff's entries, and an offer link's public side. */

const WaitlistEntryRef = builder.objectRef<WaitlistEntryRow>('WaitlistEntry').implement({
  description: 'A patient waiting for an earlier visit with a provider. Protected health information.',
  fields: (t) => ({
    id: t.exposeID('id'),
    patientId: t.exposeID('patientId'),
    patient: t.string({ resolve: (e) => `${e.patientFirstName} ${e.patientLastName}` }),
    providerId: t.exposeID('providerId'),
    providerName: t.string({ resolve: (e) => `${e.providerFirstName} ${e.providerLastName}` }),
    fromDate: t.exposeString('fromDate'),
    toDate: t.exposeString('toDate'),
    weekdays: t.exposeIntList('weekdays', { description: 'ISO weekdays: 1 Monday ... 7 Sunday.' }),
    timeOfDay: t.exposeString('timeOfDay', { description: 'any, morning (before 12:00) or afternoon.' }),
    duration: t.exposeInt('duration'),
    appointmentType: t.exposeString('appointmentType'),
    reason: t.string({ resolve: (e) => e.reason }),
    status: t.exposeString('status', { description: 'waiting, booked or removed.' }),
    appointmentId: t.exposeID('appointmentId', { nullable: true }),
    createdAt: t.string({ resolve: (e) => e.createdAt.toISOString() }),
  }),
});

type OfferView = Awaited<ReturnType<GraphQLContext['waitlist']['offer']>>;
const WaitlistOfferRef = builder.objectRef<OfferView>('WaitlistOffer').implement({
  description: 'What a waitlist offer link offers: the time and the provider, nothing about the patient.',
  fields: (t) => ({
    status: t.exposeString('status', { description: 'open, claimed or gone (taken by another, or expired).' }),
    providerName: t.exposeString('providerName'),
    date: t.exposeString('date'),
    time: t.exposeString('time'),
    duration: t.exposeInt('duration'),
    appointmentType: t.exposeString('appointmentType'),
    timeZone: t.exposeString('timeZone'),
    expiresAt: t.string({ resolve: (o) => o.expiresAt.toISOString() }),
  }),
});

const ClaimWaitlistOfferResultRef = builder
  .objectRef<{ success: boolean; message: string; date: string; time: string }>('ClaimWaitlistOfferResult')
  .implement({
    fields: (t) => ({
      success: t.exposeBoolean('success'),
      message: t.exposeString('message'),
      date: t.exposeString('date'),
      time: t.exposeString('time'),
    }),
  });

const AddToWaitlistInput = builder.inputType('AddToWaitlistInput', {
  fields: (t) => ({
    patientId: t.id(),
    providerId: t.id({ description: "Default: the calling provider's own." }),
    fromDate: t.string(),
    toDate: t.string(),
    weekdays: t.intList({ description: 'ISO weekdays that suit the patient.' }),
    timeOfDay: t.string({ description: 'any (default), morning or afternoon.' }),
    duration: t.int(),
    appointmentType: t.string(),
    reason: t.string(),
  }),
});

builder.queryFields((t) => ({
  listWaitlist: t.field({
    type: [WaitlistEntryRef],
    description:
      "The waiting entries of a provider (the caller's own by default; administrators: all when none given).",
    args: { providerId: t.arg.id() },
    resolve: (_root, args, ctx) =>
      ctx.waitlist.list(callerOf(ctx, 'listWaitlist'), args.providerId == null ? null : String(args.providerId)),
  }),
  waitlistOffer: t.field({
    type: WaitlistOfferRef,
    description: "Public. What the offer link's token offers, and whether it can still be claimed.",
    args: { token: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.waitlist.offer(args.token),
  }),
}));

builder.mutationFields((t) => ({
  addToWaitlist: t.field({
    type: WaitlistEntryRef,
    args: { input: t.arg({ type: AddToWaitlistInput, required: true }) },
    resolve: (_root, args, ctx) => ctx.waitlist.add(callerOf(ctx, 'addToWaitlist'), plainInput(args.input)),
  }),
  removeFromWaitlist: t.field({
    type: WaitlistEntryRef,
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.waitlist.remove(callerOf(ctx, 'removeFromWaitlist'), String(args.id)),
  }),
  claimWaitlistOffer: t.field({
    type: ClaimWaitlistOfferResultRef,
    description:
      'Public. Books the offered time for the waitlisted patient; the first claim wins. Failures: NOT_FOUND (no such offer), BAD_USER_INPUT with extensions.reason gone (taken by another, or expired).',
    args: { token: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const at = await ctx.waitlist.claim(publicCallerOf(ctx, 'claimWaitlistOffer'), args.token);
      return { success: true, message: APPOINTMENT_MESSAGES.offerClaimed, ...at };
    },
  }),
}));
