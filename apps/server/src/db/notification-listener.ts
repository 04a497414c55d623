import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface NotificationListenerOptions {
  /** The connection settings of the pool: LISTEN holds a connection of its own, outside the pool. */
  connection: pg.ClientConfig;
  /** The channels to LISTEN on (plain identifiers). */
  channels: readonly string[];
  /** For log lines: what listens. */
  name: string;
  log: Log;
  onNotification(channel: string, payload: string): void;
  /** Called after a lost connection is back: notices sent meanwhile are lost, so look again. */
  onReconnected(): void;
}

const RETRY_MIN_MS = 500;
const RETRY_MAX_MS = 30_000;
const CHANNEL = /^[a-z_][a-z0-9_]*$/;

/**
 * One connection that LISTENs on PostgreSQL channels, outside the pool, and reconnects with backoff: how an
 * instance hears what another instance did (sessions ended, video signalling). Notices are delivered in the
 * order their transactions committed; those sent while the connection was down are lost (`onReconnected`).
 */
export class NotificationListener {
  readonly #options: NotificationListenerOptions;
  #client: pg.Client | undefined;
  #retryMs = RETRY_MIN_MS;
  #retry: NodeJS.Timeout | undefined;
  #stopped = false;

  constructor(options: NotificationListenerOptions) {
    for (const channel of options.channels) {
      if (!CHANNEL.test(channel)) throw new Error(`"${channel}" is not a plain channel name`);
    }
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
    const { channels, log, name } = this.#options;
    const client = new pg.Client(this.#options.connection);
    client.on('notification', (message) => {
      if (!channels.includes(message.channel) || message.payload === undefined) return;
      this.#options.onNotification(message.channel, message.payload);
    });
    // An error is followed by 'end'; reconnecting happens there, once.
    client.on('error', (error) => log.warn({ err: error }, `${name} listener lost its connection`));
    client.on('end', () => {
      if (this.#client !== client || this.#stopped) return;
      this.#client = undefined;
      this.#scheduleReconnect();
    });
    try {
      await client.connect();
      for (const channel of channels) await client.query(`LISTEN ${channel}`);
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
    const { log, name } = this.#options;
    this.#retry = setTimeout(() => {
      this.#connect().then(
        () => {
          if (this.#stopped) return;
          this.#retryMs = RETRY_MIN_MS;
          log.info(`${name} listener reconnected`);
          this.#options.onReconnected();
        },
        (error: unknown) => {
          log.warn({ err: error }, `${name} listener could not reconnect`);
          this.#retryMs = Math.min(this.#retryMs * 2, RETRY_MAX_MS);
          if (!this.#stopped) this.#scheduleReconnect();
        },
      );
    }, this.#retryMs);
    this.#retry.unref();
  }
}
