import { recordingChunkPath } from '@telehealth/shared';

const WIDTH = 1280;
const HEIGHT = 720;
const FRAME_MS = 1000 / 15;
/** A part goes up every few seconds: closing the tab loses at most that much. */
const TIMESLICE_MS = 2_000;

export interface RecorderSources {
  local: MediaStream;
  remotes: () => MediaStream[];
}

/**
 * The provider's browser records the visit: everyone's picture drawn side by side on a canvas (paced by a
 * worker's timer, which a background tab does not slow) and everyone's sound mixed, recorded as WebM and
 * uploaded part by part while recording. The sources change inside the mix (people come and go) without
 * touching the recorder's own tracks, which would stop it.
 */
export class VisitRecorder {
  readonly #recordingId: string;
  readonly #sources: RecorderSources;
  readonly #log: (line: string) => void;
  readonly #canvas = document.createElement('canvas');
  readonly #videos = new Map<MediaStream, HTMLVideoElement>();
  readonly #audio = new AudioContext();
  readonly #mix = this.#audio.createMediaStreamDestination();
  readonly #mixed = new Set<MediaStream>();
  #worker: Worker | null = null;
  #recorder: MediaRecorder | null = null;
  #seq = 0;
  #uploads: Promise<void> = Promise.resolve();

  constructor(recordingId: string, sources: RecorderSources, log: (line: string) => void) {
    this.#recordingId = recordingId;
    this.#sources = sources;
    this.#log = log;
    this.#canvas.width = WIDTH;
    this.#canvas.height = HEIGHT;
  }

  start(): void {
    const worker = new Worker(new URL('./tick-worker.ts', import.meta.url), { type: 'module' });
    worker.addEventListener('message', () => this.#draw());
    worker.postMessage({ intervalMs: FRAME_MS });
    this.#worker = worker;
    this.#draw();
    const [video] = this.#canvas.captureStream(15).getVideoTracks();
    const tracks = [...(video ? [video] : []), ...this.#mix.stream.getAudioTracks()];
    const mimeType = ['video/webm;codecs=vp8,opus', 'video/webm'].find((t) => MediaRecorder.isTypeSupported(t));
    const recorder = new MediaRecorder(new MediaStream(tracks), {
      ...(mimeType ? { mimeType } : {}),
      videoBitsPerSecond: 1_000_000,
    });
    recorder.addEventListener('dataavailable', (event) => {
      if (event.data.size > 0) this.#upload(event.data);
    });
    recorder.start(TIMESLICE_MS);
    this.#recorder = recorder;
    this.#log('recording started');
  }

  pause(): void {
    if (this.#recorder?.state === 'recording') this.#recorder.pause();
  }

  resume(): void {
    if (this.#recorder?.state === 'paused') this.#recorder.resume();
  }

  /** Stops, and resolves once every part is uploaded. */
  async stop(): Promise<void> {
    const recorder = this.#recorder;
    if (recorder && recorder.state !== 'inactive') {
      await new Promise<void>((resolve) => {
        recorder.addEventListener('stop', () => resolve(), { once: true });
        recorder.stop();
      });
    }
    this.#worker?.postMessage('stop');
    this.#worker?.terminate();
    for (const video of this.#videos.values()) video.srcObject = null;
    await this.#uploads;
    await this.#audio.close().catch(() => undefined);
    this.#log('recording stopped');
  }

  #draw(): void {
    const streams = [this.#sources.local, ...this.#sources.remotes()];
    this.#syncAudio(streams);
    const context = this.#canvas.getContext('2d');
    if (!context) return;
    context.fillStyle = '#111';
    context.fillRect(0, 0, WIDTH, HEIGHT);
    const columns = streams.length > 2 ? 2 : streams.length;
    const rows = Math.ceil(streams.length / Math.max(1, columns));
    const w = WIDTH / Math.max(1, columns);
    const h = HEIGHT / Math.max(1, rows);
    streams.forEach((stream, i) => {
      const video = this.#videoOf(stream);
      if (video.readyState < 2) return;
      context.drawImage(video, (i % columns) * w, Math.floor(i / columns) * h, w, h);
    });
  }

  #videoOf(stream: MediaStream): HTMLVideoElement {
    let video = this.#videos.get(stream);
    if (!video) {
      video = document.createElement('video');
      video.muted = true;
      video.playsInline = true;
      video.srcObject = stream;
      void video.play().catch(() => undefined);
      this.#videos.set(stream, video);
    }
    return video;
  }

  #syncAudio(streams: MediaStream[]): void {
    for (const stream of streams) {
      if (this.#mixed.has(stream) || stream.getAudioTracks().length === 0) continue;
      this.#audio.createMediaStreamSource(stream).connect(this.#mix);
      this.#mixed.add(stream);
    }
  }

  #upload(part: Blob): void {
    const seq = this.#seq++;
    this.#uploads = this.#uploads.then(async () => {
      for (let attempt = 1; attempt <= 3; attempt++) {
        try {
          const response = await fetch(recordingChunkPath(this.#recordingId, seq), {
            method: 'PUT',
            credentials: 'same-origin',
            headers: { 'content-type': 'application/octet-stream' },
            body: part,
          });
          if (response.ok) return;
          this.#log(`recording part ${seq} refused (${response.status})`);
          if (response.status < 500) return;
        } catch {
          this.#log(`recording part ${seq} failed (attempt ${attempt})`);
        }
        await new Promise((resolve) => setTimeout(resolve, 500 * attempt));
      }
    });
  }
}
