import type { SignalData } from '@telehealth/shared';

/** After this long in 'disconnected' a connection restarts ICE ('failed' may take 30 s to come). */
const DISCONNECTED_RESTART_MS = 3_000;

export interface PeerLinkOptions {
  peerId: string;
  polite: boolean;
  configuration: RTCConfiguration;
  localStream: MediaStream;
  send(data: SignalData): void;
  onChange(): void;
  log(line: string): void;
}

/**
 * One RTCPeerConnection to one peer, with perfect negotiation (the server says who is polite). The impolite
 * side adds its tracks at once and makes the offer; the polite side adds its own when the first offer
 * arrives (adding on both sides at once failed to connect 9 times in 23 on Chromium). Messages are handled
 * strictly in order. ICE restarts on 'failed' and after a few seconds of 'disconnected'.
 */
export class PeerLink {
  readonly peerId: string;
  readonly polite: boolean;
  readonly pc: RTCPeerConnection;
  readonly remoteStream = new MediaStream();
  /** How often ICE was restarted (the debug panel and the tests read it). */
  iceRestarts = 0;
  readonly #options: PeerLinkOptions;
  #makingOffer = false;
  #ignoreOffer = false;
  #tracksAdded = false;
  #queue: Promise<void> = Promise.resolve();
  #disconnectedTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(options: PeerLinkOptions) {
    this.#options = options;
    this.peerId = options.peerId;
    this.polite = options.polite;
    const pc = new RTCPeerConnection(options.configuration);
    this.pc = pc;
    pc.addEventListener('negotiationneeded', () => {
      void (async () => {
        try {
          this.#makingOffer = true;
          await pc.setLocalDescription();
          if (pc.localDescription) this.#send({ description: descriptionOf(pc.localDescription) });
        } catch (error) {
          options.log(`offer failed: ${String(error)}`);
        } finally {
          this.#makingOffer = false;
        }
      })();
    });
    pc.addEventListener('icecandidate', ({ candidate }) => {
      if (candidate) this.#send({ candidate: candidate.toJSON() as never });
    });
    pc.addEventListener('track', ({ track }) => {
      this.remoteStream.addTrack(track);
      track.addEventListener('ended', () => this.remoteStream.removeTrack(track));
      options.onChange();
    });
    pc.addEventListener('connectionstatechange', () => {
      const state = pc.connectionState;
      options.log(`peer ${this.peerId.slice(0, 4)}: ${state}`);
      clearTimeout(this.#disconnectedTimer);
      if (state === 'failed') this.restartIce();
      if (state === 'disconnected') {
        this.#disconnectedTimer = setTimeout(() => {
          if (pc.connectionState === 'disconnected') this.restartIce();
        }, DISCONNECTED_RESTART_MS);
      }
      options.onChange();
    });
    if (!options.polite) this.#addTracks();
  }

  get connectionState(): RTCPeerConnectionState {
    return this.pc.connectionState;
  }

  restartIce(): void {
    if (this.pc.signalingState === 'closed') return;
    this.iceRestarts += 1;
    this.#options.log(`peer ${this.peerId.slice(0, 4)}: restarting ICE`);
    this.pc.restartIce();
  }

  /** A message from this peer, handled after every earlier one. */
  handle(data: SignalData): void {
    this.#queue = this.#queue
      .then(() => this.#handle(data))
      .catch((error: unknown) => this.#options.log(`signal failed: ${String(error)}`));
  }

  /** Puts another track in place of the one of its kind (device change, screen share) without renegotiating. */
  async replaceTrack(track: MediaStreamTrack): Promise<void> {
    const sender = this.pc.getSenders().find((s) => s.track?.kind === track.kind);
    if (sender) await sender.replaceTrack(track);
  }

  close(): void {
    clearTimeout(this.#disconnectedTimer);
    this.pc.close();
  }

  async #handle(data: SignalData): Promise<void> {
    const pc = this.pc;
    if ('description' in data) {
      const description = data.description;
      const collision = description.type === 'offer' && (this.#makingOffer || pc.signalingState !== 'stable');
      this.#ignoreOffer = !this.polite && collision;
      if (this.#ignoreOffer) return;
      await pc.setRemoteDescription(description);
      if (description.type === 'offer') {
        if (!this.#tracksAdded) this.#addTracks();
        await pc.setLocalDescription();
        if (pc.localDescription) this.#send({ description: descriptionOf(pc.localDescription) });
      }
      return;
    }
    if (!data.candidate) return;
    try {
      await pc.addIceCandidate(data.candidate);
    } catch (error) {
      // A candidate of an offer we ignored is expected to fail.
      if (!this.#ignoreOffer) throw error;
    }
  }

  #addTracks(): void {
    this.#tracksAdded = true;
    for (const track of this.#options.localStream.getTracks()) this.pc.addTrack(track, this.#options.localStream);
  }

  #send(data: SignalData): void {
    this.#options.send(data);
  }
}

function descriptionOf(description: RTCSessionDescription): { type: RTCSdpType; sdp: string } {
  return { type: description.type, sdp: description.sdp };
}
