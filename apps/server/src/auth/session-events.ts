import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import { SESSION_END_REASONS, type SessionEndReason } from '@telehealth/shared';
import { SESSION_ENDED_CHANNEL, type SessionEndedNotice } from './sessions.repository.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface SessionEndedListenerOptions {
  /** The connection settings of the pool: LISTEN holds a connection of its own, outside the pool. */
  connection: pg.ClientConfig;
  log: Log;
  onEnded(sessionIds: string[], reason: SessionEndReason): void;
  /** Called after a lost connection is back: notices sent meanwhile are lost, so look again. */
  onReconnected(): void;
}

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;

/**
 * Hears SESSION_ENDED_CHANNEL: whichever instance ended a session (sign-out, expiry, password reset, ...),
 * every instance learns it here and closes its WebSockets of that session. Reconnects with backoff.
 */
export class SessionEndedListener {
  readonly #options: SessionEndedListenerOptions;
  #client: pg.Client | undefined;
  #retryMs = RETRY_MIN_MS;
  #retry: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: SessionEndedListenerOptions) {
    this.#options = options;
  }

  /** Connects and listens; throws if the first connection fails (the database was just reachable). */
  async start(): Promise<void> {
    await this.#connect();
  }

  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#retry);
    const client = this.#client;
    this.#client = undefined;
    await client?.end().catch(() => undefined);
  }

  async #connect(): Promise<void> {
    const client = new pg.Client(this.#options.connection);
    client.on('notification', (message) => {
      if (message.channel !== SESSION_ENDED_CHANNEL || !message.payload) return;
      const notice = parseNotice(message.payload);
      if (notice) this.#options.onEnded(notice.sessionIds, notice.reason);
      else this.#options.log.warn('ignored a malformed session_ended notice');
    });
    // An error is followed by 'end'; reconnecting happens there, once.
    client.on('error', (error) => this.#options.log.warn({ err: error }, 'session_ended listener lost its connection'));
    client.on('end', () => {
      if (this.#client !== client || this.#stopped) return;
      this.#client = undefined;
      this.#scheduleReconnect();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${SESSION_ENDED_CHANNEL}`);
    } catch (error) {
      await client.end().catch(() => undefined);
      throw error;
    }
    if (this.#stopped) {
      await client.end().catch(() => undefined);
      return;
    }
    this.#client = client;
  }

  #scheduleReconnect(): void {
    this.#retry = setTimeout(() => {
      this.#connect().then(
        () => {
          if (this.#stopped) return;
          this.#retryMs = RETRY_MIN_MS;
          this.#options.log.info('session_ended listener reconnected');
          this.#options.onReconnected();
        },
        (error: unknown) => {
          this.#options.log.warn({ err: error }, 'session_ended listener could not reconnect');
          this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
          if (!this.#stopped) this.#scheduleReconnect();
        },
      );
    }, this.#retryMs);
    this.#retry.unref();
  }
}

function parseNotice(payload: string): SessionEndedNotice | null {
  try {
    const value = JSON.parse(payload) as Partial<SessionEndedNotice>;
    const reason = SESSION_END_REASONS.find((r) => r === value.reason);
    const ids = Array.isArray(value.sessionIds) ? value.sessionIds.filter((id) => typeof id === 'string') : [];
    return reason ? { reason, sessionIds: ids } : null;
  } catch {
    return null;
  }
}
