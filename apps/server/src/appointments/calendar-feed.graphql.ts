import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

/** A provider's private calendar feed (a secret URL another calendar application subscribes to). */

const CalendarFeedStatusRef = builder
  .objectRef<{ active: boolean; createdAt: Date | null }>('CalendarFeedStatus')
  .implement({
    fields: (t) => ({
      active: t.exposeBoolean('active'),
      createdAt: t.string({ nullable: true, resolve: (f) => f.createdAt?.toISOString() ?? null }),
    }),
  });

const CalendarFeedLinkRef = builder.objectRef<{ url: string; createdAt: Date }>('CalendarFeedLink').implement({
  fields: (t) => ({
    url: t.exposeString('url', { description: 'Shown once: keep it private. Making a new one ends the old.' }),
    createdAt: t.string({ resolve: (f) => f.createdAt.toISOString() }),
  }),
});

builder.queryField('calendarFeed', (t) =>
  t.field({
    type: CalendarFeedStatusRef,
    description: "Whether the provider's private calendar feed is on.",
    args: { providerId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.calendarFeeds.status(callerOf(ctx, 'calendarFeed'), String(args.providerId)),
  }),
);

builder.mutationFields((t) => ({
  createCalendarFeed: t.field({
    type: CalendarFeedLinkRef,
    description: 'A new private feed URL for another calendar application; an earlier URL stops working.',
    args: { providerId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.calendarFeeds.create(callerOf(ctx, 'createCalendarFeed'), String(args.providerId)),
  }),
  revokeCalendarFeed: t.boolean({
    description: "Ends the provider's feed URL.",
    args: { providerId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.calendarFeeds.revoke(callerOf(ctx, 'revokeCalendarFeed'), String(args.providerId)),
  }),
}));
