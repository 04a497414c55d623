import { fieldMessage, messageSection } from './field-messages.ts';
import { z } from 'zod';
import { LOCALES } from './options.ts';
import { normalizeText, textProblem, textProblemIssue, textSchema } from './text.ts';

/**
 * Video visits (decision 026): the browsers talk WebRTC to each other; our server checks who may join, keeps
 * the waiting room and relays the signalling over a WebSocket at VIDEO_SIGNAL_PATH. A visit belongs to an
 * appointment; its room is named after the appointment's id only (no health information).
 */
export const VIDEO_SIGNAL_PATH = '/api/video/signal';
/** The signalling socket of guests (no account): the guest's token is their only credential. */
export const VIDEO_GUEST_SIGNAL_PATH = '/api/video/guest-signal';

/** The browser's pages: the join link (shared with the patient) and the provider's start mode. */
export const videoCallPath = (appointmentId: string) => `/video-call/${appointmentId}`;
export const videoStartPath = (appointmentId: string) => `/video-call/start/${appointmentId}`;
/** A guest's link: the invitation's token follows in the fragment (`#token`), which never reaches a server. */
export const videoGuestPath = (appointmentId: string) => `/video-call/guest/${appointmentId}`;

/** The specification's room name: the product's prefix, '-room-', the appointment id. */
export const videoRoomName = (prefix: string, appointmentId: string) => `${prefix}-room-${appointmentId}`;

/** The appointment id in a room name, or null when the name is not one of ours. */
export function appointmentIdOfRoom(prefix: string, room: string): string | null {
  const head = `${prefix}-room-`;
  return room.startsWith(head) ? room.slice(head.length) : null;
}

/** The join window's defaults (VIDEO_JOIN_EARLY_MINUTES, VIDEO_JOIN_LATE_MINUTES). */
export const VIDEO_JOIN_EARLY_MINUTES = 15;
export const VIDEO_JOIN_LATE_MINUTES = 30;
/**
 * The visit's provider may open the room this long before the start (or as early as the patient, if that is
 * earlier), to test camera and microphone and be ready; the patient's window does not change (decision 047).
 */
export const VIDEO_PROVIDER_EARLY_MINUTES = 30;

/** At most this many people in one visit (a mesh: every pair has its own connection). */
export const VIDEO_MAX_PARTICIPANTS = 4;

/** Recording needs at least this many people in the call (the specification's rule). */
export const RECORDING_MIN_PARTICIPANTS = 2;

/** The specification's debug log keeps about 11 entries; the error screen shows the last 5. */
export const VIDEO_DEBUG_LOG_SIZE = 11;
export const VIDEO_ERROR_LOG_LINES = 5;

export const VIDEO_ROLES = ['provider', 'patient', 'guest'] as const;
export type VideoRole = (typeof VIDEO_ROLES)[number];

/** Where a person stands in a visit: waiting to be let in, or in the call. */
export const VIDEO_PRESENCE = ['waiting', 'admitted'] as const;
export type VideoPresence = (typeof VIDEO_PRESENCE)[number];

export const VIDEO_MESSAGES = {
  nameRequired: 'Please enter your name',
  nameTooLong: 'Please enter a name of at most 80 characters',
  notYourVisit: 'This video visit belongs to another appointment. Only its provider and patient can join.',
  cancelled: 'This appointment was cancelled, so its video visit is closed.',
  notVideo: 'This appointment is an in-person visit; it has no video call.',
  tooEarly: 'The video visit opens {{minutes}} minutes before the appointment, at {{opensAt}}.',
  tooLate: 'This video visit closed {{minutes}} minutes after the appointment ended.',
  finished: 'This video visit has ended.',
  notFound: 'No appointment was found for this link. Check the link in your invitation.',
  badRoom: 'The room name does not belong to this practice.',
  tokenInvalid: 'Your video access has expired. Reload the page to join again.',
  roomFull: 'This video visit already has {{max}} people, the most it can hold.',
  replaced: 'You joined this visit from another window, so this one was closed.',
  providerOnly: 'Only the appointment’s provider can do that.',
  notAdmitted: 'Your provider has not let you in yet.',
  waitingMessageTooLong: 'Please keep the message under 300 characters',
  recordingNeedsTwo: 'Recording requires at least 2 participants. Currently: {{n}} (you + {{m}} others)',
  recordingNotFound: 'No recording was found.',
  recordingProviderOnly: 'Only the appointment’s provider can record, play back or download its recordings.',
  recordingNotActive: 'This recording is not running.',
  guestLinkInvalid: 'This guest link is not valid any more. Ask the provider for a new one.',
  guestsFull: 'A video visit holds at most {{max}} people, so no more guests can be invited.',
  consentRequired: 'Please read and sign the telehealth consent before joining your visit.',
} as const;

/** The rules' messages of this section, with their ids (field-messages.ts). */
export const videoMessage = messageSection('videoMessages', VIDEO_MESSAGES);

/**
 * The notice every participant agrees to before a visit is recorded; its version is stored with each consent.
 * The browser shows it in the person's language (locales video.json `recording.notice`).
 */
export const RECORDING_NOTICE_VERSION = '2026-11-24';

export const RECORDING_STATUSES = ['asking', 'recording', 'paused', 'stopped', 'refused', 'ready', 'failed'] as const;
export type RecordingStatus = (typeof RECORDING_STATUSES)[number];
export type ConsentDecision = 'pending' | 'yes' | 'no';

/** A recording as the people in the call see it: its state and everyone's answer. */
export interface RecordingState {
  id: string;
  status: RecordingStatus;
  consents: { peerId: string; name: string; decision: ConsentDecision }[];
}

/** The recorder's upload of one part: PUT RECORDING_CHUNK_PATH(id, seq) with the WebM bytes as the body. */
export const recordingChunkPath = (recordingId: string, seq: number) => `/api/recordings/${recordingId}/chunks/${seq}`;
/** Playback and download (byte ranges), for the appointment's provider only. */
export const recordingFilePath = (recordingId: string) => `/api/recordings/${recordingId}/file`;
/** The largest part the recorder uploads at once (a few seconds of video). */
export const RECORDING_CHUNK_MAX_BYTES = 8 * 1024 * 1024;
/** The Content-Type a recording's part may be sent as (the web app sends generic bytes); others get 415. */
export const RECORDING_UPLOAD_TYPES: readonly string[] = ['application/octet-stream', 'video/webm'];

/** The longest name a person gives for a visit (their display identity, a guest's name). */
export const VIDEO_NAME_MAX = 80;

/**
 * The name a person is shown under in a visit (the specification's identity) and a guest's name: one line under
 * the one text rule (decision 022), so no line break, control, bidirectional override, `<` `>` or `javascript:`
 * reaches the other people's screens or the guest's invitation mail. Any character a name may hold besides
 * ("Dr. Ana Ruiz (interpreter)"), unlike the specification's stricter rule for a patient's name.
 */
export const VideoNameSchema = z.string({ error: videoMessage.error('nameRequired') }).transform((raw, ctx) => {
  const refuse = (issue: { message: string; params: Record<string, unknown> }) => {
    ctx.addIssue({ code: 'custom', ...issue });
    return z.NEVER;
  };
  const value = normalizeText(raw, 'short');
  if (value === '') return refuse(videoMessage.issue('nameRequired'));
  const problem = textProblem(value, 'short', VIDEO_NAME_MAX);
  if (problem === 'tooLong') return refuse(videoMessage.issue('nameTooLong'));
  if (problem) return refuse(textProblemIssue(problem, 'Name', VIDEO_NAME_MAX));
  return value;
});

/** A code a program sends back (a room name, a token, a peer or page id): the text rule's token kind, not blank. */
const videoToken = (label: string, max: number, min = 1) =>
  textSchema({ label, kind: 'token', max }).refine((value) => value.length >= min, {
    error: fieldMessage.error('required', { label }),
  });

/** The specification's token request: identity (the name the person gave) and room; the answer is a token. */
export const VideoTokenRequestSchema = z.object({
  identity: VideoNameSchema,
  room: videoToken('Room', 200),
});
export type VideoTokenRequest = z.infer<typeof VideoTokenRequestSchema>;

/**
 * startRecording's input, in the specification's names: the room and the identity are answered back as given,
 * never stored, but are text like any other (decision 022).
 */
export const RecordingStartInputSchema = z.object({
  roomSid: videoToken('Room', 200),
  identity: VideoNameSchema,
  appointmentId: videoToken('Appointment', 100),
});
export const RecordingStopInputSchema = z.object({
  recordingSid: videoToken('Recording', 100),
  roomSid: videoToken('Room', 200),
});

/** The provider invites a family member or a second clinician to one visit, by e-mail. */
export const InviteVideoGuestInputSchema = z.object({
  appointmentId: z.string().uuid(),
  name: VideoNameSchema,
  email: z
    .string()
    .trim()
    .toLowerCase()
    .email({ error: fieldMessage.error('emailInvalid') })
    .max(254),
  /** The language of the invitation (the provider's screen's, unless they choose). */
  language: z.enum(LOCALES).default('en'),
});
export type InviteVideoGuestInput = z.infer<typeof InviteVideoGuestInputSchema>;

/** A WebRTC message between two browsers, relayed as it is (the server only checks its shape and size). */
const SignalDataSchema = z.union([
  z.object({
    description: z.object({ type: z.enum(['offer', 'answer', 'pranswer', 'rollback']), sdp: z.string().max(60_000) }),
  }),
  z.object({
    candidate: z
      .object({
        candidate: z.string().max(1_000),
        sdpMid: z.string().max(100).nullable().optional(),
        sdpMLineIndex: z.number().int().min(0).max(100).nullable().optional(),
        usernameFragment: z.string().max(256).nullable().optional(),
      })
      .nullable(),
  }),
]);
export type SignalData = z.infer<typeof SignalDataSchema>;

const PeerIdSchema = videoToken('Peer', 64);

/** A provider's short message to someone waiting: one line under the text rule, shown on the other's screen. */
const WaitingNoticeSchema = textSchema({ label: 'Message', kind: 'short', max: Number.POSITIVE_INFINITY }).superRefine(
  (value, ctx) => {
    if (value.length === 0) ctx.addIssue({ code: 'custom', ...fieldMessage.issue('required', { label: 'Message' }) });
    if (value.length > 300) ctx.addIssue({ code: 'custom', ...videoMessage.issue('waitingMessageTooLong') });
  },
);

/**
 * What a browser sends on the signalling socket. Its texts are under the text rule, but for the WebRTC
 * descriptions and candidates of `signal`: machine-written protocol text (an SDP's lines end in CRLF, which free
 * text would change) relayed unchanged to the one peer's RTCPeerConnection, never stored or shown. `join` first (with the token from requestVideoToken and a
 * page id: the same page id after a reconnect resumes, a new one means the page was reloaded); then
 * `signal` to a peer, and the provider's `admit`, `notice` (a short message to someone waiting) and `end`.
 */
export const VideoClientMessageSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('join'), token: videoToken('Token', 2_000), pageId: videoToken('Page', 64, 8) }),
  z.object({ type: z.literal('signal'), to: PeerIdSchema, data: SignalDataSchema }),
  z.object({ type: z.literal('admit'), peerId: PeerIdSchema }),
  z.object({
    type: z.literal('notice'),
    peerId: PeerIdSchema,
    text: WaitingNoticeSchema,
  }),
  z.object({ type: z.literal('recording-consent'), recordingId: z.string().uuid(), agree: z.boolean() }),
  z.object({ type: z.literal('leave') }),
  z.object({ type: z.literal('end') }),
  z.object({ type: z.literal('ping') }),
]);
export type VideoClientMessage = z.infer<typeof VideoClientMessageSchema>;

export interface VideoPeer {
  /** Stable for the person within the visit (not an account id). */
  peerId: string;
  name: string;
  role: VideoRole;
  presence: VideoPresence;
}

/** Someone in the waiting room of one of a provider's visits (the name is the one they gave). */
export interface VideoWaitingEntry {
  appointmentId: string;
  peerId: string;
  name: string;
  role: VideoRole;
  patientName: string;
  since: string;
  startsAt: string;
}

/** Why the server closed a visit's socket or refused a join (a VIDEO_MESSAGES key or a generic code). */
export type VideoRefusal =
  | 'tokenInvalid'
  | 'notYourVisit'
  | 'cancelled'
  | 'tooEarly'
  | 'tooLate'
  | 'finished'
  | 'roomFull'
  | 'replaced'
  | 'notVideo'
  | 'notFound'
  /** The practice asks for a signed telehealth consent before a video visit, and the patient has none (decision 069). */
  | 'consentRequired';

/**
 * What the server sends. `joined` answers `join` (who I am, whether I wait, the people present); `peer`
 * says someone arrived, changed (admitted) or left; `polite` is decided by the server for each pair: the one
 * already in the call makes the offer (impolite), the newcomer answers (polite).
 */
export type VideoServerMessage =
  | { type: 'joined'; self: VideoPeer; peers: (VideoPeer & { polite: boolean })[]; resumed: boolean }
  | { type: 'peer-joined'; peer: VideoPeer; polite: boolean }
  | { type: 'peer-updated'; peer: VideoPeer }
  | { type: 'peer-left'; peerId: string }
  | { type: 'admitted'; peers: (VideoPeer & { polite: boolean })[] }
  | { type: 'signal'; from: string; data: SignalData }
  | { type: 'notice'; from: string; text: string }
  | { type: 'recording'; recording: RecordingState | null }
  | { type: 'ended'; reason: 'provider-ended' | VideoRefusal }
  | { type: 'pong' }
  | {
      type: 'error';
      code:
        | 'BAD_MESSAGE'
        | 'NOT_ADMITTED'
        | 'PROVIDER_ONLY'
        | 'NOT_JOINED'
        | 'UNKNOWN_PEER'
        | 'NO_RECORDING'
        /** The admitted patient has not signed the telehealth consent (decision 069); they were asked to. */
        | 'CONSENT_REQUIRED';
    };

/** Close codes of the signalling socket (4000–4999 are the application's). */
export const VIDEO_CLOSE_CODES = {
  /** Refused or ended for a reason given in the last `ended` message: do not reconnect. */
  final: 4403,
} as const;

/** STUN/TURN servers for RTCPeerConnection, as the server hands them out with a token. */
export interface VideoIceServer {
  urls: string[];
  username?: string;
  credential?: string;
}
