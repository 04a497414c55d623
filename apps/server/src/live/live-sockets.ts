import type { WebSocket } from 'ws';
import { LIVE_CLOSE_CODES, type LiveServerMessage, type SessionEndReason } from '@telehealth/shared';

/** Sends one message of the live protocol; a socket already closing is left alone. */
export function sendLive(socket: WebSocket, message: LiveServerMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

/**
 * The open WebSockets of this instance, by session id: when a session ends (here or on another instance),
 * its sockets are told why and closed.
 */
export class LiveSockets {
  readonly #bySession = new Map<string, Set<WebSocket>>();
  /** Sockets that answered the last heartbeat ping. */
  readonly #alive = new WeakSet<WebSocket>();

  get size(): number {
    let count = 0;
    for (const sockets of this.#bySession.values()) count += sockets.size;
    return count;
  }

  add(sessionId: string, socket: WebSocket): void {
    let sockets = this.#bySession.get(sessionId);
    if (!sockets) {
      sockets = new Set();
      this.#bySession.set(sessionId, sockets);
    }
    sockets.add(socket);
    this.#alive.add(socket);
    socket.on('pong', () => this.#alive.add(socket));
    socket.once('close', () => {
      const set = this.#bySession.get(sessionId);
      set?.delete(socket);
      if (set?.size === 0) this.#bySession.delete(sessionId);
    });
  }

  /** The sessions this instance holds sockets for. */
  sessionIds(): string[] {
    return [...this.#bySession.keys()];
  }

  /** Tells each socket of these sessions why, then closes it with 4401. Unknown ids are ignored. */
  endSessions(sessionIds: Iterable<string>, reason: SessionEndReason): void {
    for (const id of sessionIds) {
      const sockets = this.#bySession.get(id);
      if (!sockets) continue;
      this.#bySession.delete(id);
      for (const socket of sockets) {
        sendLive(socket, { type: 'bye', reason });
        socket.close(LIVE_CLOSE_CODES.sessionEnded, reason);
      }
    }
  }

  /** Every socket, as the server stops: the browser may reconnect to another instance. */
  closeAll(): void {
    for (const sockets of this.#bySession.values()) {
      for (const socket of sockets) {
        sendLive(socket, { type: 'bye', reason: 'SERVER_STOPPING' });
        socket.close(LIVE_CLOSE_CODES.serverStopping, 'SERVER_STOPPING');
      }
    }
    this.#bySession.clear();
  }

  /**
   * Pings every socket and drops those that did not answer the previous ping: a browser that vanished
   * without closing (sleep, lost network) leaves no entry behind, and proxies see traffic.
   */
  heartbeat(): void {
    for (const sockets of this.#bySession.values()) {
      for (const socket of sockets) {
        if (!this.#alive.has(socket)) {
          socket.terminate();
          continue;
        }
        this.#alive.delete(socket);
        socket.ping();
      }
    }
  }
}
