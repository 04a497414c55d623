import { VIDEO_DEBUG_LOG_SIZE, type RecordingState, type VideoPeer, type VideoServerMessage } from '@telehealth/shared';

import type { CallSnapshot, RemoteParticipant } from './call-snapshot.ts';
import { PeerLink } from './peer-mesh.ts';
import { qualityBetween, sampleStats, type QualitySample } from './network-quality.ts';
import { SignallingClient } from './signalling.ts';
import { VisitRecorder } from './visit-recorder.ts';

export interface VideoCallOptions {
  localStream: MediaStream;
  /** A fresh token (and the ICE servers) for each connection of the signalling socket. */
  getToken(): Promise<{ token: string; iceServers: RTCIceServer[] }>;
  /** Tests force TURN relays ('relay'); normally every candidate ('all'). */
  iceTransportPolicy?: RTCIceTransportPolicy;
  /** The guests' signalling socket instead of the signed-in one. */
  signallingPath?: string;
  /** The provider's start and stop calls (the specification's shapes); absent for anyone else. */
  recordingCalls?: { start(): Promise<string>; stop(recordingId: string): Promise<void> };
}

const STATS_MS = 2_000;

/**
 * One person's side of a video visit, outside React: the signalling socket, one peer connection per other
 * person, the local tracks and what the screens show (a snapshot React subscribes to). Waiting people get no
 * peer connection: the server relays nothing for them until the provider lets them in.
 */
export class VideoCallSession {
  readonly localStream: MediaStream;
  readonly #options: VideoCallOptions;
  readonly #links = new Map<string, PeerLink>();
  readonly #samples = new Map<string, QualitySample>();
  readonly #listeners = new Set<() => void>();
  readonly #signalling: SignallingClient;
  #iceServers: RTCIceServer[] = [];
  #snapshot: CallSnapshot;
  #peers = new Map<string, { peer: VideoPeer; polite: boolean }>();
  #statsTimer: ReturnType<typeof setInterval> | undefined;
  #cameraTrack: MediaStreamTrack | null;
  #recorder: VisitRecorder | null = null;

  constructor(options: VideoCallOptions) {
    this.#options = options;
    this.localStream = options.localStream;
    this.#cameraTrack = options.localStream.getVideoTracks()[0] ?? null;
    this.#snapshot = {
      phase: 'loading',
      self: null,
      participants: [],
      waiting: [],
      notices: [],
      signalling: 'connecting',
      audioOn: options.localStream.getAudioTracks().some((t) => t.enabled),
      videoOn: options.localStream.getVideoTracks().some((t) => t.enabled),
      sharingScreen: false,
      endedReason: null,
      error: null,
      recording: null,
      providerStepOut: false,
      log: [],
    };
    this.#signalling = new SignallingClient({
      pageId: crypto.randomUUID(),
      ...(options.signallingPath ? { path: options.signallingPath } : {}),
      getToken: async () => {
        const { token, iceServers } = await options.getToken();
        this.#iceServers = iceServers;
        return token;
      },
      onMessage: (message) => this.#onMessage(message),
      onState: (state) => {
        this.#update({ signalling: state });
        if (state === 'closed' && this.#snapshot.phase === 'loading') this.#fail('signalling closed');
      },
      log: (line) => this.log(line),
    });
  }

  subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  };

  getSnapshot = (): CallSnapshot => this.#snapshot;

  start(): void {
    this.log('joining');
    this.#signalling.start();
    this.#statsTimer = setInterval(() => void this.#measure(), STATS_MS);
  }

  log(line: string): void {
    const stamp = new Date().toLocaleTimeString();
    this.#update({ log: [...this.#snapshot.log, `${stamp} ${line}`].slice(-VIDEO_DEBUG_LOG_SIZE) });
  }

  admit(peerId: string): void {
    this.#signalling.send({ type: 'admit', peerId });
  }

  sendNotice(peerId: string, text: string): boolean {
    return this.#signalling.send({ type: 'notice', peerId, text });
  }

  setAudio(on: boolean): void {
    const tracks = this.localStream.getAudioTracks();
    if (tracks.length === 0) this.log('no local audio track to toggle');
    for (const track of tracks) track.enabled = on;
    this.#update({ audioOn: on });
  }

  setVideo(on: boolean): void {
    const tracks = this.localStream.getVideoTracks();
    if (tracks.length === 0) this.log('no local video track to toggle');
    for (const track of tracks) track.enabled = on;
    this.#update({ videoOn: on });
  }

  /** Uses another camera or microphone: the new track replaces the old one in every connection. */
  async useDevice(kind: 'audioinput' | 'videoinput', deviceId: string): Promise<void> {
    const stream = await navigator.mediaDevices.getUserMedia(
      kind === 'audioinput'
        ? { audio: { deviceId: { exact: deviceId } } }
        : { video: { deviceId: { exact: deviceId } } },
    );
    const [track] = kind === 'audioinput' ? stream.getAudioTracks() : stream.getVideoTracks();
    if (!track) return;
    const old = kind === 'audioinput' ? this.localStream.getAudioTracks()[0] : this.localStream.getVideoTracks()[0];
    track.enabled = kind === 'audioinput' ? this.#snapshot.audioOn : this.#snapshot.videoOn;
    if (kind === 'videoinput') this.#cameraTrack = track;
    if (!(kind === 'videoinput' && this.#snapshot.sharingScreen)) await this.#swapTrack(old ?? null, track);
    if (kind === 'videoinput' && this.#snapshot.sharingScreen) old?.stop();
  }

  /** Shares the screen instead of the camera; stopping (or the browser's Stop sharing) puts the camera back. */
  async shareScreen(on: boolean): Promise<void> {
    const current = this.localStream.getVideoTracks()[0] ?? null;
    if (on) {
      const display = await navigator.mediaDevices.getDisplayMedia({ video: true });
      const [track] = display.getVideoTracks();
      if (!track) return;
      track.addEventListener('ended', () => void this.shareScreen(false));
      await this.#swapTrack(current, track, false);
      this.#update({ sharingScreen: true });
    } else if (this.#snapshot.sharingScreen) {
      if (this.#cameraTrack) await this.#swapTrack(current, this.#cameraTrack);
      this.#update({ sharingScreen: false });
    }
  }

  /** The provider asks everyone to agree to a recording; throws the server's refusal (fewer than two, ...). */
  async requestRecording(): Promise<void> {
    if (!this.#options.recordingCalls) return;
    await this.#options.recordingCalls.start();
  }

  /** The provider stops the recording: the last parts go up, then the server is told. */
  async stopRecording(): Promise<void> {
    const id = this.#snapshot.recording?.id;
    if (!id || !this.#options.recordingCalls) return;
    await this.#stopRecorder();
    await this.#options.recordingCalls.stop(id);
  }

  /** This person's answer to the recording request; false withdraws consent and stops it. */
  consentToRecording(agree: boolean): void {
    const id = this.#snapshot.recording?.id;
    if (id) this.#signalling.send({ type: 'recording-consent', recordingId: id, agree });
  }

  /** The provider ends the visit for everyone; anyone else leaves it. */
  end(asProvider: boolean): void {
    if (asProvider && this.#signalling.send({ type: 'end' })) return;
    this.#finish('left', true);
  }

  /** Leaves the call without ending the visit: the others are told, and this person may join again. */
  leave(): void {
    this.#finish('left', true);
  }

  /** Stops everything without a word (the page goes away). */
  dispose(): void {
    this.#finish(this.#snapshot.endedReason ?? 'left', true);
  }

  #onMessage(message: VideoServerMessage): void {
    switch (message.type) {
      case 'joined': {
        this.log(message.resumed ? 'rejoined the visit' : `joined as ${message.self.role}`);
        if (message.resumed) {
          // The socket dropped while the call went on: keep every connection, and restart ICE in case the
          // network changed under it.
          for (const link of this.#links.values()) link.restartIce();
          this.#update({ self: message.self });
          for (const p of message.peers) this.#peerArrived(p, p.polite);
          return;
        }
        this.#closeLinks();
        this.#peers.clear();
        for (const p of message.peers) this.#peers.set(p.peerId, { peer: p, polite: p.polite });
        this.#update({ self: message.self, phase: message.self.presence === 'waiting' ? 'waiting' : 'in-call' });
        this.#syncLinks();
        return;
      }
      case 'admitted':
        this.log('admitted');
        for (const p of message.peers) this.#peers.set(p.peerId, { peer: p, polite: p.polite });
        this.#update({
          phase: 'in-call',
          self: this.#snapshot.self ? { ...this.#snapshot.self, presence: 'admitted' } : null,
        });
        this.#syncLinks();
        return;
      case 'peer-joined':
        this.#peerArrived(message.peer, message.polite);
        return;
      case 'peer-updated':
        this.#peerArrived(message.peer, this.#peers.get(message.peer.peerId)?.polite ?? true);
        return;
      case 'peer-left': {
        this.log(`peer ${message.peerId.slice(0, 4)} left`);
        const gone = this.#peers.get(message.peerId)?.peer;
        if (gone?.role === 'provider' && gone.presence === 'admitted') this.#update({ providerStepOut: true });
        this.#peers.delete(message.peerId);
        this.#links.get(message.peerId)?.close();
        this.#links.delete(message.peerId);
        this.#samples.delete(message.peerId);
        this.#publishPeers();
        return;
      }
      case 'signal': {
        const link = this.#links.get(message.from);
        if (link) link.handle(message.data);
        else this.log(`signal from an unknown peer ${message.from.slice(0, 4)}`);
        return;
      }
      case 'recording':
        this.#update({ recording: message.recording });
        this.#followRecording(message.recording);
        return;
      case 'notice':
        this.#update({ notices: [...this.#snapshot.notices, message.text].slice(-5) });
        return;
      case 'ended':
        this.log(`visit ended: ${message.reason}`);
        this.#finish(message.reason, false);
        return;
      case 'error':
        this.log(`server: ${message.code}`);
        return;
      case 'pong':
        return;
    }
  }

  /** The provider's recorder follows the server's word: record, pause until everyone agrees, stop. */
  #followRecording(recording: RecordingState | null): void {
    if (!this.#options.recordingCalls || !recording) return;
    if (recording.status === 'recording') {
      if (!this.#recorder) {
        this.#recorder = new VisitRecorder(
          recording.id,
          { local: this.localStream, remotes: () => this.#remoteStreams() },
          (line) => this.log(line),
        );
        this.#recorder.start();
      } else {
        this.#recorder.resume();
      }
    } else if (recording.status === 'paused') {
      this.#recorder?.pause();
    } else if (recording.status === 'stopped' || recording.status === 'refused') {
      void this.#stopRecorder();
    }
  }

  async #stopRecorder(): Promise<void> {
    const recorder = this.#recorder;
    this.#recorder = null;
    await recorder?.stop();
  }

  #remoteStreams(): MediaStream[] {
    return [...this.#links.values()].map((l) => l.remoteStream).filter((s) => s.getTracks().length > 0);
  }

  #peerArrived(peer: VideoPeer, polite: boolean): void {
    const known = this.#peers.get(peer.peerId);
    if (peer.role === 'provider' && peer.presence === 'admitted') this.#update({ providerStepOut: false });
    this.log(`peer ${peer.peerId.slice(0, 4)} ${peer.presence}`);
    this.#peers.set(peer.peerId, { peer, polite: known && this.#links.has(peer.peerId) ? known.polite : polite });
    this.#syncLinks();
  }

  /** One connection per admitted peer while this person is in the call; none for anyone waiting. */
  #syncLinks(): void {
    const inCall = this.#snapshot.self?.presence === 'admitted';
    for (const [peerId, { peer, polite }] of this.#peers) {
      if (!inCall || peer.presence !== 'admitted' || this.#links.has(peerId)) continue;
      const link = new PeerLink({
        peerId,
        polite,
        configuration: {
          iceServers: this.#iceServers,
          ...(this.#options.iceTransportPolicy ? { iceTransportPolicy: this.#options.iceTransportPolicy } : {}),
        },
        localStream: this.localStream,
        send: (data) => {
          if (!this.#signalling.send({ type: 'signal', to: peerId, data })) this.log('signal not sent (reconnecting)');
        },
        onChange: () => this.#publishPeers(),
        log: (line) => this.log(line),
      });
      this.#links.set(peerId, link);
    }
    this.#publishPeers();
  }

  #publishPeers(): void {
    const participants: RemoteParticipant[] = [];
    const waiting: VideoPeer[] = [];
    for (const [peerId, { peer }] of this.#peers) {
      if (peer.presence === 'waiting') {
        waiting.push(peer);
        continue;
      }
      const link = this.#links.get(peerId);
      const previous = this.#snapshot.participants.find((p) => p.peer.peerId === peerId);
      participants.push({
        peer,
        stream: link && link.remoteStream.getTracks().length > 0 ? link.remoteStream : null,
        connectionState: link?.connectionState ?? 'new',
        iceRestarts: link?.iceRestarts ?? 0,
        quality: previous?.quality ?? null,
        candidateTypes: previous?.candidateTypes ?? { local: null, remote: null },
      });
    }
    this.#update({ participants, waiting });
  }

  async #measure(): Promise<void> {
    if (this.#links.size === 0) return;
    const measured = new Map<string, Pick<RemoteParticipant, 'quality' | 'candidateTypes'>>();
    for (const [peerId, link] of this.#links) {
      if (link.connectionState !== 'connected') continue;
      const sample = await sampleStats(link.pc);
      const quality = qualityBetween(this.#samples.get(peerId) ?? null, sample);
      this.#samples.set(peerId, sample);
      measured.set(peerId, {
        quality,
        candidateTypes: { local: sample.localCandidateType, remote: sample.remoteCandidateType },
      });
    }
    if (this.#snapshot.phase !== 'in-call') return;
    // Into the participants as they are now: a state that changed while the statistics were read is kept.
    this.#update({
      participants: this.#snapshot.participants.map((p) => {
        const m = measured.get(p.peer.peerId);
        return m ? { ...p, quality: m.quality ?? p.quality, candidateTypes: m.candidateTypes } : p;
      }),
    });
  }

  async #swapTrack(old: MediaStreamTrack | null, next: MediaStreamTrack, stopOld = true): Promise<void> {
    for (const link of this.#links.values()) await link.replaceTrack(next);
    if (old) {
      this.localStream.removeTrack(old);
      if (stopOld) old.stop();
    }
    this.localStream.addTrack(next);
    this.#update({});
  }

  #fail(message: string): void {
    this.log(message);
    this.#update({ phase: 'error', error: message });
  }

  #finish(reason: string, leave: boolean): void {
    if (this.#snapshot.phase === 'ended') return;
    this.#signalling.stop(leave);
    void this.#stopRecorder();
    clearInterval(this.#statsTimer);
    this.#closeLinks();
    for (const track of this.localStream.getTracks()) track.stop();
    this.#cameraTrack?.stop();
    this.#update({ phase: 'ended', endedReason: reason });
  }

  #closeLinks(): void {
    for (const link of this.#links.values()) link.close();
    this.#links.clear();
  }

  #update(change: Partial<CallSnapshot>): void {
    this.#snapshot = { ...this.#snapshot, ...change };
    for (const listener of this.#listeners) listener();
  }
}
