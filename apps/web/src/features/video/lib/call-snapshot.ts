import type { RecordingState, VideoPeer } from '@telehealth/shared';

import type { NetworkQuality } from './network-quality.ts';
import type { SignallingState } from './signalling.ts';

/** What the call screens show of a video visit: the snapshot a VideoCallSession publishes to React. */
export type CallPhase = 'loading' | 'waiting' | 'in-call' | 'ended' | 'error';

export interface RemoteParticipant {
  peer: VideoPeer;
  stream: MediaStream | null;
  connectionState: RTCPeerConnectionState | 'new';
  quality: NetworkQuality | null;
  iceRestarts: number;
  /** The selected candidate pair's types (host, srflx, relay), once connected. */
  candidateTypes: { local: string | null; remote: string | null };
}

export interface CallSnapshot {
  phase: CallPhase;
  self: VideoPeer | null;
  participants: RemoteParticipant[];
  /** People waiting to be let in (the provider sees them). */
  waiting: VideoPeer[];
  /** Messages the provider sent to someone waiting. */
  notices: string[];
  signalling: SignallingState;
  audioOn: boolean;
  videoOn: boolean;
  sharingScreen: boolean;
  /** Why the call ended: 'left', 'provider-ended' or a VideoRefusal. */
  endedReason: string | null;
  /** The error screen's message. */
  error: string | null;
  /** The visit's recording as the server tells it (consents and state), or null. */
  recording: RecordingState | null;
  /** The provider left the call without ending it (the visit goes on; they may come back). */
  providerStepOut: boolean;
  log: string[];
}
