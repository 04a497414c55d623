import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';

import { graphqlRequest } from '../../../lib/graphql.ts';
import { useLiveMessages } from '../../../lib/live-channel.ts';

export const videoQueryKeys = {
  all: ['video'] as const,
  visit: (appointmentId: string) => ['video', 'visit', appointmentId] as const,
  waiting: ['video', 'waiting'] as const,
};

const VideoVisitSchema = z.object({
  appointmentId: z.string(),
  room: z.string(),
  role: z.enum(['provider', 'patient', 'guest']),
  status: z.string(),
  appointmentType: z.string(),
  startsAt: z.string(),
  endsAt: z.string(),
  opensAt: z.string(),
  closesAt: z.string(),
  closedReason: z.string().nullable(),
  providerName: z.string(),
  patientName: z.string(),
  patientId: z.string().nullable(),
});
export type VideoVisit = z.infer<typeof VideoVisitSchema>;

const VIDEO_VISIT_FIELDS =
  'appointmentId room role status appointmentType startsAt endsAt opensAt closesAt closedReason providerName patientName patientId';

export function videoVisitQueryOptions(appointmentId: string) {
  return queryOptions({
    queryKey: videoQueryKeys.visit(appointmentId),
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query VideoVisit($appointmentId: ID!) { videoVisit(appointmentId: $appointmentId) { ${VIDEO_VISIT_FIELDS} } }`,
        z.object({ videoVisit: VideoVisitSchema }),
        { appointmentId },
        { signal },
      );
      return data.videoVisit;
    },
    retry: false,
  });
}

const IceServerSchema = z.object({
  urls: z.array(z.string()),
  username: z.string().nullable(),
  credential: z.string().nullable(),
});

const VideoTokenSchema = z.object({
  token: z.string(),
  room: z.string(),
  peerId: z.string(),
  role: z.enum(['provider', 'patient', 'guest']),
  expiresAt: z.string(),
  iceServers: z.array(IceServerSchema),
});
export type VideoToken = z.infer<typeof VideoTokenSchema>;

/** The specification's token request: identity (the name given) and room in, a token out. */
export async function requestVideoToken(identity: string, room: string): Promise<VideoToken> {
  const data = await graphqlRequest(
    `mutation RequestVideoToken($input: VideoTokenInput!) {
      requestVideoToken(input: $input) { token room peerId role expiresAt iceServers { urls username credential } }
    }`,
    z.object({ requestVideoToken: VideoTokenSchema }),
    { input: { identity, room } },
  );
  return data.requestVideoToken;
}

/** RTCIceServer entries from the server's answer (no empty username or credential). */
export function toRtcIceServers(servers: VideoToken['iceServers']): RTCIceServer[] {
  return servers.map((s) => ({
    urls: s.urls,
    ...(s.username ? { username: s.username } : {}),
    ...(s.credential ? { credential: s.credential } : {}),
  }));
}

const WaitingSchema = z.object({
  appointmentId: z.string(),
  peerId: z.string(),
  name: z.string(),
  role: z.string(),
  patientName: z.string(),
  since: z.string(),
  startsAt: z.string(),
});
export type VideoWaiting = z.infer<typeof WaitingSchema>;

/**
 * Who waits in the provider's visits now: asked once, then kept current by the live channel (the server sends
 * the list whenever it changes), so no polling keeps an unattended session alive.
 */
export function useVideoWaitingRoom(enabled: boolean) {
  const queryClient = useQueryClient();
  useLiveMessages((message) => {
    if (message.type === 'hello') void queryClient.invalidateQueries({ queryKey: videoQueryKeys.waiting });
    if (message.type === 'video-waiting') queryClient.setQueryData(videoQueryKeys.waiting, message.waiting);
  }, enabled);
  return useQuery({
    queryKey: videoQueryKeys.waiting,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        'query VideoWaitingRoom { videoWaitingRoom { appointmentId peerId name role patientName since startsAt } }',
        z.object({ videoWaitingRoom: z.array(WaitingSchema) }),
        {},
        { signal },
      );
      return data.videoWaitingRoom;
    },
    enabled,
    staleTime: Infinity,
  });
}

const RecordingResultSchema = z.object({
  compositionSid: z.string(),
  recordingSid: z.string(),
  status: z.string(),
  roomSid: z.string(),
});

/** The specification's start call: the provider asks to record (everyone in the call is asked to agree). */
export async function startRecording(input: { roomSid: string; identity: string; appointmentId: string }) {
  const data = await graphqlRequest(
    'mutation StartRecording($input: RecordingStartInput!) { startRecording(input: $input) { compositionSid recordingSid status roomSid } }',
    z.object({ startRecording: RecordingResultSchema }),
    { input: { ...input, Status: 'in-progress' } },
  );
  return data.startRecording;
}

/** The specification's stop call. */
export async function stopRecording(input: { recordingSid: string; roomSid: string }) {
  const data = await graphqlRequest(
    'mutation StopRecording($input: RecordingStopInput!) { stopRecording(input: $input) { compositionSid recordingSid status roomSid } }',
    z.object({ stopRecording: RecordingResultSchema }),
    { input: { ...input, compositionSid: input.recordingSid, Status: 'completed' } },
  );
  return data.stopRecording;
}

const VideoRecordingSchema = z.object({
  id: z.string(),
  status: z.string(),
  durationMs: z.number().nullable(),
  sizeBytes: z.number().nullable(),
  startedAt: z.string().nullable(),
  expiresAt: z.string(),
});
export type VideoRecording = z.infer<typeof VideoRecordingSchema>;

export function videoRecordingsQueryOptions(appointmentId: string) {
  return queryOptions({
    queryKey: ['video', 'recordings', appointmentId] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        'query VideoRecordings($appointmentId: ID!) { videoRecordings(appointmentId: $appointmentId) { id status durationMs sizeBytes startedAt expiresAt } }',
        z.object({ videoRecordings: z.array(VideoRecordingSchema) }),
        { appointmentId },
        { signal },
      );
      return data.videoRecordings;
    },
    retry: false,
  });
}

// The guest's page is public: its operations neither need nor extend a session.
const PUBLIC = { extendsSession: false } as const;

/** The visit a guest's link opens (the token stays in memory and in request bodies, never in a URL). */
export function guestVideoVisitQueryOptions(guestToken: string) {
  return queryOptions({
    queryKey: ['video', 'guest-visit', guestToken] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        `query GuestVideoVisit($guestToken: String!) { guestVideoVisit(guestToken: $guestToken) { ${VIDEO_VISIT_FIELDS} } }`,
        z.object({ guestVideoVisit: VideoVisitSchema }),
        { guestToken },
        { signal, ...PUBLIC },
      );
      return data.guestVideoVisit;
    },
    retry: false,
    gcTime: 0,
  });
}

/** A guest's token request: the link's token and the name given. */
export async function requestGuestVideoToken(guestToken: string, identity: string): Promise<VideoToken> {
  const data = await graphqlRequest(
    `mutation RequestGuestVideoToken($input: GuestVideoTokenInput!) {
      requestGuestVideoToken(input: $input) { token room peerId role expiresAt iceServers { urls username credential } }
    }`,
    z.object({ requestGuestVideoToken: VideoTokenSchema }),
    { input: { guestToken, identity } },
    PUBLIC,
  );
  return data.requestGuestVideoToken;
}

const VideoGuestSchema = z.object({ id: z.string(), name: z.string(), email: z.string() });

export function videoGuestsQueryOptions(appointmentId: string) {
  return queryOptions({
    queryKey: ['video', 'guests', appointmentId] as const,
    queryFn: async ({ signal }) => {
      const data = await graphqlRequest(
        'query VideoGuests($appointmentId: ID!) { videoGuests(appointmentId: $appointmentId) { id name email } }',
        z.object({ videoGuests: z.array(VideoGuestSchema) }),
        { appointmentId },
        { signal },
      );
      return data.videoGuests;
    },
    retry: false,
  });
}

export function useInviteVideoGuest(appointmentId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (input: { name: string; email: string; language: string }) => {
      const data = await graphqlRequest(
        'mutation InviteVideoGuest($input: InviteVideoGuestInput!) { inviteVideoGuest(input: $input) { id name email } }',
        z.object({ inviteVideoGuest: VideoGuestSchema }),
        { input: { appointmentId, ...input } },
      );
      return data.inviteVideoGuest;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['video', 'guests', appointmentId] }),
  });
}
