import { z } from 'zod';
import type { Role } from './roles.ts';
import type { VideoWaitingEntry } from './video.ts';

/**
 * The live channel: one WebSocket per signed-in tab at LIVE_PATH, opened with the session cookie. Video
 * signalling and live updates will travel on it. Decision 017.
 */
export const LIVE_PATH = '/api/live';

/** The largest message either side may send, in bytes (a WebRTC offer is a few kilobytes). */
export const LIVE_MAX_MESSAGE_BYTES = 65_536;

/** Why the server ends a live channel; sent in the `bye` message and as the close frame's reason. */
export const SESSION_END_REASONS = [
  'SIGNED_OUT',
  /** Idle logoff or the longest session time reached. */
  'EXPIRED',
  /** A sign-in in the same browser started a new session. */
  'REPLACED',
  /** The account was deactivated or lost its role. */
  'ACCOUNT_DISABLED',
  /** A password reset ended every session of the account. */
  'PASSWORD_RESET',
  /** The session is gone for a reason this server did not see (ended on another path). */
  'ENDED',
  // The person signed out their other sessions (sign out everywhere else, a password change).
  'SIGNED_OUT_ELSEWHERE',
  /** Two-factor became required for the account's role, and the account has not set it up (decision 019). */
  'TWO_FACTOR_REQUIRED',
] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

export const LIVE_CLOSE_CODES = {
  /** The session ended: the browser shows the sign-in page (the reason says why). */
  sessionEnded: 4401,
  /** The server is stopping: the browser may reconnect after a moment. */
  serverStopping: 1001,
} as const;

export type LiveServerMessage =
  | { type: 'hello'; userId: string; role: Role }
  | { type: 'pong' }
  | { type: 'bye'; reason: SessionEndReason | 'SERVER_STOPPING' }
  | { type: 'error'; code: 'BAD_MESSAGE' }
  /** Who waits in the provider's video visits now (sent to the provider whenever it changes). */
  | { type: 'video-waiting'; waiting: VideoWaitingEntry[] }
  /** A safety alert was raised or acknowledged for one of the provider's patients: read the alerts again. */
  | { type: 'safety-alerts-changed' }
  /** A questionnaire was sent to the patient: read the pending ones again. */
  | { type: 'questionnaires-changed' }
  /** One of the provider's appointments changed (a patient booked, asked, moved or cancelled): read them again. */
  | { type: 'appointments-changed' }
  // Ids only, never a subject or text; the browser reads again.
  /** A message arrived in one of the caller's conversations (or the caller sent one from another tab). */
  | { type: 'message-new'; conversationId: string }
  /** The other side read a conversation (read receipts), or the caller read or archived it elsewhere. */
  | { type: 'messages-read'; conversationId: string }
  /** To administrators: an emergency access was used or reviewed; read the ones awaiting review again. */
  | { type: 'emergency-access-changed' };

/** What a browser may send. Unknown shapes are answered with `{ type: 'error', code: 'BAD_MESSAGE' }`. */
export const LiveClientMessageSchema = z.discriminatedUnion('type', [z.object({ type: z.literal('ping') })]);
export type LiveClientMessage = z.infer<typeof LiveClientMessageSchema>;
