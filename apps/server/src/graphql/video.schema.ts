import type { VideoIceServer, VideoWaitingEntry } from '@telehealth/shared';
import type { VideoVisitView } from '../video/video.service.ts';
import { builder } from './builder.ts';
import { callerOf, type GraphQLContext } from './context.ts';

type TokenResult = Awaited<ReturnType<GraphQLContext['video']['requestToken']>>;

const VideoVisitRef = builder.objectRef<VideoVisitView>('VideoVisit').implement({
  description:
    'The video visit of an appointment as its join screen needs it: the room, the window in which it can be joined, and why not when it cannot.',
  fields: (t) => ({
    appointmentId: t.exposeID('appointmentId'),
    room: t.exposeString('room', { description: "The specification's room name: prefix, '-room-', appointment id." }),
    role: t.exposeString('role', { description: 'The caller in this visit: provider or patient.' }),
    status: t.exposeString('status'),
    appointmentType: t.exposeString('appointmentType'),
    startsAt: t.string({ resolve: (v) => v.startsAt.toISOString() }),
    endsAt: t.string({ resolve: (v) => v.endsAt.toISOString() }),
    opensAt: t.string({ resolve: (v) => v.opensAt.toISOString() }),
    closesAt: t.string({ resolve: (v) => v.closesAt.toISOString() }),
    closedReason: t.exposeString('closedReason', {
      nullable: true,
      description: 'Why it cannot be joined now (tooEarly, tooLate, cancelled, finished, notVideo); null when open.',
    }),
    providerName: t.exposeString('providerName'),
    patientName: t.exposeString('patientName'),
  }),
});

const IceServerRef = builder.objectRef<VideoIceServer>('VideoIceServer').implement({
  fields: (t) => ({
    urls: t.exposeStringList('urls'),
    username: t.exposeString('username', { nullable: true }),
    credential: t.exposeString('credential', { nullable: true }),
  }),
});

const VideoTokenRef = builder.objectRef<TokenResult>('VideoToken').implement({
  description: 'A short-lived ticket for the signalling socket, bound to the appointment, the person and the window.',
  fields: (t) => ({
    token: t.exposeString('token'),
    room: t.exposeString('room'),
    peerId: t.exposeString('peerId'),
    role: t.exposeString('role'),
    expiresAt: t.string({ resolve: (v) => v.expiresAt.toISOString() }),
    iceServers: t.field({ type: [IceServerRef], resolve: (v) => v.iceServers }),
  }),
});

const VideoWaitingRef = builder.objectRef<VideoWaitingEntry>('VideoWaiting').implement({
  description: 'Someone in the waiting room of one of the caller’s visits.',
  fields: (t) => ({
    appointmentId: t.exposeID('appointmentId'),
    peerId: t.exposeString('peerId'),
    name: t.exposeString('name', { description: 'The name they gave when joining.' }),
    role: t.exposeString('role'),
    patientName: t.exposeString('patientName'),
    since: t.exposeString('since'),
    startsAt: t.exposeString('startsAt'),
  }),
});

const VideoTokenInput = builder.inputType('VideoTokenInput', {
  fields: (t) => ({
    identity: t.string({ required: true, description: 'The name the person gave on the join screen.' }),
    room: t.string({ required: true }),
  }),
});

builder.queryFields((t) => ({
  videoVisit: t.field({
    type: VideoVisitRef,
    args: { appointmentId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.video.visit(callerOf(ctx, 'videoVisit'), String(args.appointmentId)),
  }),
  videoWaitingRoom: t.field({
    type: [VideoWaitingRef],
    description: 'Who waits to be let in to the caller’s visits now (providers; empty for anyone else).',
    resolve: (_root, _args, ctx) => ctx.video.waiting(callerOf(ctx, 'videoWaitingRoom')),
  }),
}));

builder.mutationFields((t) => ({
  requestVideoToken: t.field({
    type: VideoTokenRef,
    description: "The specification's token request (identity and room in, token out) for the signalling socket.",
    args: { input: t.arg({ type: VideoTokenInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.video.requestToken(callerOf(ctx, 'requestVideoToken'), {
        identity: args.input.identity,
        room: args.input.room,
      }),
  }),
}));
