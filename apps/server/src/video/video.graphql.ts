import type { VideoIceServer, VideoWaitingEntry } from '@telehealth/shared';
import type { RecordingView } from './recordings.service.ts';
import type { VideoVisitView } from './video.service.ts';
import { builder } from '../graphql/builder.ts';
import { callerOf, type GraphQLContext } from '../graphql/context.ts';

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
    patientId: t.exposeID('patientId', {
      nullable: true,
      description:
        "The patient record's id, for the visit's provider (the note after the visit); null for anyone else.",
    }),
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

interface RecordingResult {
  compositionSid: string;
  recordingSid: string;
  status: string;
  roomSid: string;
}

const RecordingResultRef = builder.objectRef<RecordingResult>('RecordingResult').implement({
  description:
    "The specification's recording result: the recording's id (compositionSid and recordingSid), its status, the room.",
  fields: (t) => ({
    compositionSid: t.exposeString('compositionSid'),
    recordingSid: t.exposeString('recordingSid'),
    status: t.exposeString('status'),
    roomSid: t.exposeString('roomSid'),
  }),
});

const VideoRecordingRef = builder.objectRef<RecordingView>('VideoRecording').implement({
  description: "A recording of an appointment's video visit (its provider only).",
  fields: (t) => ({
    id: t.exposeID('id'),
    appointmentId: t.exposeID('appointmentId'),
    status: t.exposeString('status'),
    durationMs: t.exposeInt('durationMs', { nullable: true }),
    sizeBytes: t.float({ nullable: true, resolve: (r) => r.sizeBytes }),
    startedAt: t.string({ nullable: true, resolve: (r) => r.startedAt?.toISOString() ?? null }),
    stoppedAt: t.string({ nullable: true, resolve: (r) => r.stoppedAt?.toISOString() ?? null }),
    expiresAt: t.string({ resolve: (r) => r.expiresAt.toISOString() }),
    createdAt: t.string({ resolve: (r) => r.createdAt.toISOString() }),
  }),
});

const RecordingStartInput = builder.inputType('RecordingStartInput', {
  fields: (t) => ({
    roomSid: t.string({ required: true }),
    identity: t.string({ required: true }),
    appointmentId: t.id({ required: true }),
    Status: t.string({ description: "The specification sends 'in-progress'." }),
  }),
});

const RecordingStopInput = builder.inputType('RecordingStopInput', {
  fields: (t) => ({
    compositionSid: t.string(),
    recordingSid: t.string({ required: true }),
    roomSid: t.string({ required: true }),
    Status: t.string({ description: "The specification sends 'completed'." }),
  }),
});

builder.queryField('videoRecordings', (t) =>
  t.field({
    type: [VideoRecordingRef],
    args: { appointmentId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.recordings.list(callerOf(ctx, 'videoRecordings'), String(args.appointmentId)),
  }),
);

builder.mutationFields((t) => ({
  startRecording: t.field({
    type: RecordingResultRef,
    description: 'The provider asks to record; recording starts once everyone in the call has agreed.',
    args: { input: t.arg({ type: RecordingStartInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.recordings.start(callerOf(ctx, 'startRecording'), {
        roomSid: args.input.roomSid,
        identity: args.input.identity,
        appointmentId: String(args.input.appointmentId),
      }),
  }),
  stopRecording: t.field({
    type: RecordingResultRef,
    args: { input: t.arg({ type: RecordingStopInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.recordings.stop(callerOf(ctx, 'stopRecording'), {
        recordingSid: args.input.recordingSid,
        roomSid: args.input.roomSid,
      }),
  }),
}));

interface GuestRow {
  id: string;
  name: string;
  email: string;
  createdAt: Date;
}

const VideoGuestRef = builder.objectRef<GuestRow>('VideoGuest').implement({
  description: 'Someone the provider invited to a video visit (a family member, a second clinician).',
  fields: (t) => ({
    id: t.exposeID('id'),
    name: t.exposeString('name'),
    email: t.exposeString('email'),
    createdAt: t.string({ resolve: (g) => g.createdAt.toISOString() }),
  }),
});

const InviteVideoGuestInput = builder.inputType('InviteVideoGuestInput', {
  fields: (t) => ({
    appointmentId: t.id({ required: true }),
    name: t.string({ required: true }),
    email: t.string({ required: true }),
    language: t.string({ description: 'en or es (default en): the language of the invitation.' }),
  }),
});

const GuestVideoTokenInput = builder.inputType('GuestVideoTokenInput', {
  fields: (t) => ({
    guestToken: t.string({ required: true, description: "The token of the guest's link (after #)." }),
    identity: t.string({ required: true }),
  }),
});

builder.queryFields((t) => ({
  videoGuests: t.field({
    type: [VideoGuestRef],
    args: { appointmentId: t.arg.id({ required: true }) },
    resolve: (_root, args, ctx) => ctx.videoGuests.guests(callerOf(ctx, 'videoGuests'), String(args.appointmentId)),
  }),
  guestVideoVisit: t.field({
    type: VideoVisitRef,
    description: "Public. The visit a guest's link opens (its window; no patient name).",
    args: { guestToken: t.arg.string({ required: true }) },
    resolve: (_root, args, ctx) => ctx.videoGuests.guestVisit(args.guestToken),
  }),
}));

builder.mutationFields((t) => ({
  inviteVideoGuest: t.field({
    type: VideoGuestRef,
    description: 'The provider invites a guest by e-mail: a link for this visit only; the guest waits to be let in.',
    args: { input: t.arg({ type: InviteVideoGuestInput, required: true }) },
    resolve: async (_root, args, ctx) => ({
      ...(await ctx.videoGuests.inviteGuest(callerOf(ctx, 'inviteVideoGuest'), {
        appointmentId: String(args.input.appointmentId),
        name: args.input.name,
        email: args.input.email,
        ...(args.input.language != null ? { language: args.input.language } : {}),
      })),
      createdAt: new Date(),
    }),
  }),
  requestGuestVideoToken: t.field({
    type: VideoTokenRef,
    description: "Public. A guest's token request: the link's token and the name given; a token out.",
    args: { input: t.arg({ type: GuestVideoTokenInput, required: true }) },
    resolve: (_root, args, ctx) =>
      ctx.videoGuests.requestGuestToken(
        { guestToken: args.input.guestToken, identity: args.input.identity },
        ctx.actor,
      ),
  }),
}));
