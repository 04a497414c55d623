import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { WebSocket } from 'ws';
import { LIVE_PATH, type LiveServerMessage } from '@telehealth/shared';

/** Starts the app on a free port of 127.0.0.1 (once) and answers the ws:// address of its live channel. */
export async function liveUrl(app: FastifyInstance): Promise<string> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  return `ws://127.0.0.1:${port}${LIVE_PATH}`;
}

export interface Closed {
  code: number;
  reason: string;
}

/** A browser's end of the live channel: keeps every message, in order, from the moment it opens. */
export class LiveTestSocket<M extends { type: string } = LiveServerMessage> {
  readonly messages: M[] = [];
  readonly closed: Promise<Closed>;
  readonly #socket: WebSocket;
  #waiters: (() => void)[] = [];

  constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.on('message', (data: Buffer) => {
      this.messages.push(JSON.parse(data.toString('utf8')) as M);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.closed = new Promise((resolve) =>
      socket.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  send(message: unknown): void {
    this.#socket.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  /** The first message of this type, received already or still to come. */
  async next<T extends M['type']>(type: T, after = 0): Promise<Extract<M, { type: T }>> {
    for (;;) {
      const found = this.messages.slice(after).find((m): m is Extract<M, { type: T }> => m.type === type);
      if (found) return found;
      await new Promise<void>((resolve) => this.#waiters.push(resolve));
    }
  }

  close(): void {
    this.#socket.close();
  }

  /** Drops the connection without a closing handshake, as a lost network would. */
  terminate(): void {
    this.#socket.terminate();
  }
}

/**
 * Asks to upgrade as a browser would (the cookie and the page's Origin). Answers the open socket, or the
 * HTTP status of a refusal.
 */
export function openLive<M extends { type: string } = LiveServerMessage>(
  url: string,
  headers: { cookie?: string | undefined; origin?: string | undefined },
): Promise<LiveTestSocket<M> | { status: number }> {
  const socket = new WebSocket(url, {
    headers: {
      ...(headers.cookie ? { cookie: headers.cookie } : {}),
      ...(headers.origin ? { origin: headers.origin } : {}),
    },
  });
  const live = new LiveTestSocket<M>(socket);
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(live));
    socket.once('unexpected-response', (_request, response) => {
      resolve({ status: response.statusCode ?? 0 });
      response.resume();
      socket.terminate();
    });
    // Kept on (not once): a refused handshake may report an error after the status; the first one counts.
    socket.on('error', reject);
  });
}

/** openLive for a test that expects the upgrade to succeed. */
export async function openLiveOrFail<M extends { type: string } = LiveServerMessage>(
  url: string,
  headers: { cookie?: string | undefined; origin?: string | undefined },
): Promise<LiveTestSocket<M>> {
  const result = await openLive<M>(url, headers);
  if (!(result instanceof LiveTestSocket)) throw new Error(`upgrade refused with ${result.status}`);
  return result;
}
