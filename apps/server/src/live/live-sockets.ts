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
  /** The live channels (not the video signalling sockets) by account: what `sendToUsers` reaches. */
  readonly #byUser = new Map<string, Set<WebSocket>>();
  /** Sockets that answered the last heartbeat ping. */
  readonly #alive = new WeakSet<WebSocket>();

  get size(): number {
    let count = 0;
    for (const sockets of this.#bySession.values()) count += sockets.size;
    return count;
  }

  /**
   * Keeps a socket until it closes, to close it when its session ends. With `userId` (the live channel), it
   * also receives the messages sent to that account (`sendToUsers`).
   */
  add(sessionId: string, socket: WebSocket, options: { userId?: string } = {}): void {
    addTo(this.#bySession, sessionId, socket);
    if (options.userId) addTo(this.#byUser, options.userId, socket);
    this.#alive.add(socket);
    socket.on('pong', () => this.#alive.add(socket));
    socket.once('close', () => {
      removeFrom(this.#bySession, sessionId, socket);
      if (options.userId) removeFrom(this.#byUser, options.userId, socket);
    });
  }

  /** Sends a message to the live channels this instance holds for these accounts. */
  sendToUsers(userIds: Iterable<string>, message: LiveServerMessage): void {
    for (const id of userIds) {
      for (const socket of this.#byUser.get(id) ?? []) sendLive(socket, message);
    }
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
    this.#byUser.clear();
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

function addTo(map: Map<string, Set<WebSocket>>, key: string, socket: WebSocket): void {
  let set = map.get(key);
  if (!set) {
    set = new Set();
    map.set(key, set);
  }
  set.add(socket);
}

function removeFrom(map: Map<string, Set<WebSocket>>, key: string, socket: WebSocket): void {
  const set = map.get(key);
  set?.delete(socket);
  if (set?.size === 0) map.delete(key);
}
