import { LIVE_CLOSE_CODES, LIVE_PATH, type LiveServerMessage } from '@telehealth/shared';
import { useEffect, useEffectEvent } from 'react';

type Handler = (message: LiveServerMessage) => void;

const RETRY_MIN_MS = 1_000;
const RETRY_MAX_MS = 30_000;

/**
 * The signed-in tab's live channel (GET /api/live, decision 017): opened while a screen listens, closed when none
 * does, reopened by itself after a network blip or a server restart. Its traffic never extends the session. A
 * close for an ended session is final: the app's session handling takes the person to sign-in.
 */
class LiveChannel {
  readonly #handlers = new Set<Handler>();
  #socket: WebSocket | null = null;
  #retry: ReturnType<typeof setTimeout> | undefined;
  #retryMs = RETRY_MIN_MS;

  subscribe(handler: Handler): () => void {
    this.#handlers.add(handler);
    if (this.#handlers.size === 1) this.#open();
    return () => {
      this.#handlers.delete(handler);
      if (this.#handlers.size === 0) this.#close();
    };
  }

  #open(): void {
    if (typeof WebSocket === 'undefined') return;
    const url = new URL(LIVE_PATH, window.location.href);
    url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
    const socket = new WebSocket(url);
    this.#socket = socket;
    socket.addEventListener('open', () => {
      this.#retryMs = RETRY_MIN_MS;
    });
    socket.addEventListener('message', (event) => {
      let message: LiveServerMessage;
      try {
        message = JSON.parse(String(event.data)) as LiveServerMessage;
      } catch {
        return;
      }
      for (const handler of this.#handlers) handler(message);
    });
    socket.addEventListener('close', (event) => {
      if (this.#socket !== socket) return;
      this.#socket = null;
      if (event.code === LIVE_CLOSE_CODES.sessionEnded || this.#handlers.size === 0) return;
      this.#retry = setTimeout(() => this.#open(), this.#retryMs);
      this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
    });
  }

  #close(): void {
    clearTimeout(this.#retry);
    const socket = this.#socket;
    this.#socket = null;
    socket?.close(1000, 'done');
  }
}

export const liveChannel = new LiveChannel();

/** Calls `handler` with every live message while the component is shown. */
export function useLiveMessages(handler: Handler, enabled = true): void {
  const onMessage = useEffectEvent(handler);
  useEffect(() => {
    if (!enabled) return;
    return liveChannel.subscribe((message) => onMessage(message));
  }, [enabled]);
}
