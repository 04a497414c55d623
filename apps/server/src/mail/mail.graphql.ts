import type { OutboxRow } from './mail.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf } from '../graphql/context.ts';

const OutboxMailRef = builder.objectRef<OutboxRow>('OutboxMail').implement({
  description: 'A mail the server wrote. The body of a sent mail is erased once delivered.',
  fields: (t) => ({
    id: t.exposeID('id'),
    to: t.exposeString('toAddress'),
    subject: t.exposeString('subject'),
    text: t.exposeString('textBody', { nullable: true }),
    html: t.exposeString('htmlBody', { nullable: true }),
    kind: t.exposeString('kind', {
      description: 'access-request-waiting, access-request-received, invitation or password-reset',
    }),
    language: t.exposeString('language'),
    status: t.exposeString('status', {
      description: 'kept (no mail server configured), queued, sending, sent or failed',
    }),
    attempts: t.exposeInt('attempts'),
    error: t.exposeString('error', { nullable: true }),
    createdAt: t.string({ resolve: (m) => m.createdAt.toISOString() }),
    sentAt: t.string({ nullable: true, resolve: (m) => m.sentAt?.toISOString() ?? null }),
    calendarMethod: t.exposeString('calendarMethod', {
      nullable: true,
      description: "An appointment's iCalendar invitation: REQUEST or CANCEL; null for a mail without one.",
    }),
    calendarIcs: t.exposeString('calendarIcs', {
      nullable: true,
      description: 'The invitation (invite.ics) as sent; erased once delivered, like the body.',
    }),
  }),
});

const OutboxListRef = builder.objectRef<{ items: OutboxRow[]; nextToken: string | null }>('OutboxList').implement({
  fields: (t) => ({
    items: t.field({ type: [OutboxMailRef], resolve: (l) => l.items }),
    nextToken: t.exposeString('nextToken', { nullable: true }),
  }),
});

builder.queryField('listOutbox', (t) =>
  t.field({
    type: OutboxListRef,
    description: 'Administrators, and only while demo mode is on: the mail the server wrote, newest first.',
    args: { limit: t.arg.int(), nextToken: t.arg.string() },
    resolve: (_root, args, ctx) => ctx.mail.listOutbox(callerOf(ctx, 'listOutbox'), args),
  }),
);
