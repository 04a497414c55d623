/** The specification's local tracks: 640x480 video from the user-facing camera, and audio. */
export const MEDIA_CONSTRAINTS: MediaStreamConstraints = {
  audio: true,
  video: { width: { ideal: 640 }, height: { ideal: 480 }, facingMode: 'user' },
};

/** Why getUserMedia failed, for 'Cannot access camera/microphone: {reason}'. */
export function mediaErrorReason(error: unknown): string {
  if (error instanceof DOMException) return error.message || error.name;
  return error instanceof Error ? error.message : String(error);
}

/** A short tone on the speakers (the device check's speaker test). */
export async function playTestTone(): Promise<void> {
  const context = new AudioContext();
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.frequency.value = 660;
  gain.gain.setValueAtTime(0.2, context.currentTime);
  gain.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.6);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start();
  oscillator.stop(context.currentTime + 0.6);
  await new Promise((resolve) => setTimeout(resolve, 700));
  await context.close();
}

/**
 * Follows the microphone's level (0 to 1) while `onLevel` is wanted; answers a function that stops it. Reads
 * on a timer rather than on animation frames, which a hidden tab does not get.
 */
export function followAudioLevel(stream: MediaStream, onLevel: (level: number) => void): () => void {
  if (stream.getAudioTracks().length === 0) return () => undefined;
  const context = new AudioContext();
  const analyser = context.createAnalyser();
  analyser.fftSize = 512;
  context.createMediaStreamSource(stream).connect(analyser);
  const samples = new Uint8Array(analyser.fftSize);
  const timer = setInterval(() => {
    analyser.getByteTimeDomainData(samples);
    let peak = 0;
    for (const sample of samples) peak = Math.max(peak, Math.abs(sample - 128));
    onLevel(Math.min(1, peak / 64));
  }, 100);
  return () => {
    clearInterval(timer);
    void context.close();
  };
}

export type CheckVerdict = 'ok' | 'failed' | 'not-configured';

/**
 * Which kinds of ICE candidates the configured servers give within a few seconds: a server-reflexive one
 * means STUN answered, a relay one that TURN did.
 */
export async function checkIceServers(iceServers: RTCIceServer[]): Promise<{ stun: CheckVerdict; turn: CheckVerdict }> {
  const urls = iceServers.flatMap((s) => (Array.isArray(s.urls) ? s.urls : [s.urls]));
  const hasStun = urls.some((u) => u.startsWith('stun'));
  const hasTurn = urls.some((u) => u.startsWith('turn'));
  if (!hasStun && !hasTurn) return { stun: 'not-configured', turn: 'not-configured' };
  const pc = new RTCPeerConnection({ iceServers });
  const types = new Set<string>();
  pc.addEventListener('icecandidate', ({ candidate }) => {
    if (candidate?.type) types.add(candidate.type);
  });
  pc.createDataChannel('check');
  await pc.setLocalDescription(await pc.createOffer());
  await new Promise<void>((resolve) => {
    const done = () => resolve();
    const timer = setTimeout(done, 5_000);
    pc.addEventListener('icegatheringstatechange', () => {
      if (pc.iceGatheringState === 'complete') {
        clearTimeout(timer);
        done();
      }
    });
  });
  pc.close();
  // TURN also answers STUN requests: a relay candidate implies a reflexive address was found.
  const reflexive = types.has('srflx') || types.has('prflx') || types.has('relay');
  return {
    stun: hasStun ? (reflexive ? 'ok' : 'failed') : 'not-configured',
    turn: hasTurn ? (types.has('relay') ? 'ok' : 'failed') : 'not-configured',
  };
}
