import type { EmergencyActivity, EmergencyGrantView, OwnEmergencyGrant } from './emergency-access.service.ts';
import type { EmergencyReviewFilter } from '@telehealth/shared';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

// Emergency access, "break the glass" (decision 036).

const EmergencyAccessRef = builder.objectRef<OwnEmergencyGrant>('EmergencyAccess').implement({
  description: "A provider's emergency access to one patient's record, in force until endsAt.",
  fields: (t) => ({
    id: t.exposeID('id'),
    patientId: t.exposeID('patientId'),
    startedAt: t.string({ resolve: (g) => g.startedAt.toISOString() }),
    endsAt: t.string({ resolve: (g) => g.endsAt.toISOString() }),
  }),
});

const EmergencyActivityRef = builder.objectRef<EmergencyActivity>('EmergencyAccessActivity').implement({
  description: 'An audit entry recorded during an emergency access with its id: what was opened.',
  fields: (t) => ({
    timestamp: t.string({ resolve: (a) => a.timestamp.toISOString() }),
    event: t.exposeString('event'),
    operation: t.exposeString('url', { nullable: true }),
  }),
});

const EmergencyAccessUseRef = builder
  .objectRef<EmergencyGrantView & { activity?: EmergencyActivity[] }>('EmergencyAccessUse')
  .implement({
    description: 'One use of emergency access, for the administrators’ review.',
    fields: (t) => ({
      id: t.id({ resolve: (v) => v.row.id }),
      providerId: t.id({ resolve: (v) => v.row.providerId }),
      providerName: t.exposeString('providerName'),
      providerEmail: t.exposeString('providerEmail'),
      patientId: t.id({ resolve: (v) => v.row.patientId }),
      patientName: t.exposeString('patientName'),
      reason: t.string({ resolve: (v) => v.row.reason }),
      startedAt: t.string({ resolve: (v) => v.row.startedAt.toISOString() }),
      endsAt: t.string({ resolve: (v) => v.row.endsAt.toISOString() }),
      endedAt: t.string({ nullable: true, resolve: (v) => v.row.endedAt?.toISOString() ?? null }),
      active: t.boolean({ resolve: (v) => !v.row.endedAt && v.row.endsAt.getTime() > Date.now() }),
      activityCount: t.exposeInt('activityCount'),
      activity: t.field({
        type: [EmergencyActivityRef],
        nullable: true,
        description: 'What was opened during it (with emergencyAccessUse only).',
        resolve: (v) => v.activity ?? null,
      }),
      reviewOutcome: t.string({
        nullable: true,
        description: 'appropriate or inappropriate; null while awaiting review',
        resolve: (v) => v.row.reviewOutcome,
      }),
      reviewNote: t.string({ nullable: true, resolve: (v) => v.row.reviewNote }),
      reviewedAt: t.string({ nullable: true, resolve: (v) => v.row.reviewedAt?.toISOString() ?? null }),
      reviewedByName: t.exposeString('reviewedByName', { nullable: true }),
    }),
  });

const EmergencyAccessUseListRef = builder
  .objectRef<{ items: EmergencyGrantView[]; nextToken: string | null }>('EmergencyAccessUseList')
  .implement({
    fields: (t) => ({
      items: t.field({ type: [EmergencyAccessUseRef], resolve: (l) => l.items }),
      nextToken: t.exposeString('nextToken', { nullable: true }),
    }),
  });

const RequestEmergencyAccessInput = builder.inputType('RequestEmergencyAccessInput', {
  description: 'The patient by id, or by exact first name, last name and date of birth; and the reason.',
  fields: (t) => ({
    patientId: t.id(),
    firstName: t.string(),
    lastName: t.string(),
    dateOfBirth: t.string(),
    reason: t.string({ required: true }),
  }),
});

const ReviewEmergencyAccessInput = builder.inputType('ReviewEmergencyAccessInput', {
  fields: (t) => ({
    id: t.id({ required: true }),
    outcome: t.string({ required: true, description: 'appropriate or inappropriate' }),
    note: t.string(),
  }),
});

builder.queryFields((t) => ({
  myEmergencyAccess: t.field({
    type: EmergencyAccessRef,
    nullable: true,
    description: "Providers: the caller's emergency access in force to this patient, if any (the chart's banner).",
    args: { patientId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.emergencyAccess.current(callerOf(ctx, 'myEmergencyAccess'), String(args.patientId)),
  }),
  emergencyAccessAwaitingReview: t.int({
    description: 'Administrators: how many uses of emergency access wait for review.',
    resolve: (_root, _args, ctx) => ctx.emergencyAccess.awaitingCount(callerOf(ctx, 'emergencyAccessAwaitingReview')),
  }),
  emergencyAccessUses: t.field({
    type: EmergencyAccessUseListRef,
    description: 'Administrators: uses of emergency access, newest first (filter awaiting, reviewed or all).',
    args: { filter: t.arg.string(), limit: t.arg.int(), nextToken: t.arg.string() },
    resolve: (_root, args, ctx) =>
      ctx.emergencyAccess.list(callerOf(ctx, 'emergencyAccessUses'), {
        filter: (['awaiting', 'reviewed', 'all'] as const).find((f) => f === args.filter) ?? 'awaiting',
        limit: args.limit ?? null,
        nextToken: args.nextToken ?? null,
      } satisfies { filter: EmergencyReviewFilter; limit: number | null; nextToken: string | null }),
  }),
  emergencyAccessUse: t.field({
    type: EmergencyAccessUseRef,
    description: 'Administrators: one use of emergency access with what was opened during it.',
    args: { id: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const { view, activity } = await ctx.emergencyAccess.get(callerOf(ctx, 'emergencyAccessUse'), String(args.id));
      return { ...view, activity };
    },
  }),
}));

builder.mutationFields((t) => ({
  requestEmergencyAccess: t.field({
    type: EmergencyAccessRef,
    description:
      'Providers: open a patient beyond their reach in an emergency, with a reason, for EMERGENCY_ACCESS_MINUTES. The administrators are alerted.',
    args: { input: t.arg({ type: RequestEmergencyAccessInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.emergencyAccess.request(callerOf(ctx, 'requestEmergencyAccess'), {
        ...args.input,
        patientId: args.input.patientId == null ? null : String(args.input.patientId),
      }),
  }),
  endEmergencyAccess: t.boolean({
    description: 'Providers: end their emergency access early.',
    args: { id: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.emergencyAccess.end(callerOf(ctx, 'endEmergencyAccess'), String(args.id)),
  }),
  reviewEmergencyAccess: t.field({
    type: EmergencyAccessUseRef,
    description: 'Administrators: record whether a use of emergency access was appropriate (once).',
    args: { input: t.arg({ type: ReviewEmergencyAccessInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.emergencyAccess.review(callerOf(ctx, 'reviewEmergencyAccess'), {
        ...args.input,
        id: String(args.input.id),
      }),
  }),
}));
