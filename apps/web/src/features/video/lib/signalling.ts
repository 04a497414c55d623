import {
  VIDEO_CLOSE_CODES,
  VIDEO_SIGNAL_PATH,
  type VideoClientMessage,
  type VideoServerMessage,
} from '@telehealth/shared';

export type SignallingState = 'connecting' | 'open' | 'reconnecting' | 'closed';

export interface SignallingOptions {
  /** A fresh token for each (re)connection; throwing `FinalError` stops trying. */
  getToken(): Promise<string>;
  /** This page's id: the same after a reconnect (the call resumes), a new one after a reload. */
  pageId: string;
  /** VIDEO_SIGNAL_PATH (signed-in people) or VIDEO_GUEST_SIGNAL_PATH (guests). */
  path?: string;
  onMessage(message: VideoServerMessage): void;
  onState(state: SignallingState): void;
  log(line: string): void;
}

/** A failure after which reconnecting makes no sense (the visit closed, the token was refused). */
export class FinalError extends Error {}

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 8_000;
/** The server counts a person present while it hears from them (PRESENCE_STALE_MS is 60 s). */
const PING_MS = 20_000;
/** The session ended (the live channel's code): the app's own handling signs the person out. */
const SESSION_ENDED = 4401;

/**
 * The signalling socket of a video visit: joins with a token, hands on what the server sends, and reconnects
 * by itself (with a new token, the same page id) after a network blip, so the call goes on without a
 * duplicate peer. A close with the final code (the visit ended, the join was refused) or a session end stops it.
 */
export class SignallingClient {
  readonly #options: SignallingOptions;
  #socket: WebSocket | null = null;
  #stopped = false;
  #retryMs = RETRY_MIN_MS;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #ping: ReturnType<typeof setInterval> | undefined;

  constructor(options: SignallingOptions) {
    this.#options = options;
  }

  start(): void {
    this.#options.onState('connecting');
    void this.#connect();
  }

  /** Sends when connected; answers false when the message could not go (reconnecting). */
  send(message: VideoClientMessage): boolean {
    if (this.#socket?.readyState !== WebSocket.OPEN) return false;
    this.#socket.send(JSON.stringify(message));
    return true;
  }

  /** Stops for good; with `leave`, tells the server first (the others then see the person go). */
  stop(leave: boolean): void {
    if (leave) this.send({ type: 'leave' });
    this.#stopped = true;
    clearTimeout(this.#retry);
    clearInterval(this.#ping);
    this.#socket?.close(1000, 'left');
    this.#socket = null;
    this.#options.onState('closed');
  }

  async #connect(): Promise<void> {
    let token: string;
    try {
      token = await this.#options.getToken();
    } catch (error) {
      if (error instanceof FinalError || this.#stopped) {
        this.#options.log(`cannot join: ${error instanceof Error ? error.message : String(error)}`);
        this.#finish();
        return;
      }
      this.#options.log(`token request failed: ${String(error)}`);
      this.#scheduleReconnect();
      return;
    }
    if (this.#stopped) return;
    const url = new URL(this.#options.path ?? VIDEO_SIGNAL_PATH, window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.#socket = socket;
    socket.addEventListener('open', () => {
      this.#retryMs = RETRY_MIN_MS;
      socket.send(JSON.stringify({ type: 'join', token, pageId: this.#options.pageId } satisfies VideoClientMessage));
      this.#options.onState('open');
      this.#options.log('signalling connected');
      clearInterval(this.#ping);
      this.#ping = setInterval(() => this.send({ type: 'ping' }), PING_MS);
    });
    socket.addEventListener('message', (event) => {
      try {
        this.#options.onMessage(JSON.parse(String(event.data)) as VideoServerMessage);
      } catch {
        this.#options.log('ignored a malformed signalling message');
      }
    });
    socket.addEventListener('close', (event) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      clearInterval(this.#ping);
      if (this.#stopped) return;
      if (event.code === VIDEO_CLOSE_CODES.final || event.code === SESSION_ENDED) {
        this.#options.log(`signalling closed: ${event.reason || event.code}`);
        this.#finish();
        return;
      }
      this.#options.log(`signalling lost (${event.code}); reconnecting`);
      this.#scheduleReconnect();
    });
  }

  #scheduleReconnect(): void {
    this.#options.onState('reconnecting');
    this.#retry = setTimeout(() => void this.#connect().catch(() => undefined), this.#retryMs);
    this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
  }

  #finish(): void {
    this.#stopped = true;
    clearInterval(this.#ping);
    this.#options.onState('closed');
  }
}
