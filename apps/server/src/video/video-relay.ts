import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { VideoServerMessage } from '@telehealth/shared';
import type { Database, Executor } from '../db/client.ts';
import type { NotificationHub } from '../db/notification-hub.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

/** The channel that announces a message waiting for a connection: its payload is the connection id. */
export const VIDEO_SIGNAL_CHANNEL = 'video_signal';

/**
 * Who gets a message: everyone connected to the visit, its admitted people, its provider (who alone hears of
 * the waiting room), or some peers.
 */
export type VideoAudience =
  | { appointmentId: string; to: 'all' | 'admitted' | 'provider' }
  | { appointmentId: string; to: 'peers'; peerIds: string[] }
  | { connectionId: string };

/**
 * Sends a message to the connections of an audience: written to `video_signals` and announced with NOTIFY in
 * the caller's transaction, so it leaves exactly when the change that caused it commits, and whichever instance
 * holds the socket delivers it. `fromConnection`: only if that connection is an admitted person of the visit
 * (what keeps a waiting patient's signalling from reaching anyone). Answers how many connections it reached.
 */
export async function sendVideoMessage(
  tx: Executor,
  audience: VideoAudience,
  message: VideoServerMessage,
  options: { fromConnection?: string; exceptPeer?: string; onlyAdmitted?: boolean } = {},
): Promise<number> {
  const json = JSON.stringify(message);
  let targets;
  if ('connectionId' in audience) {
    targets = sql`SELECT ${audience.connectionId}::uuid AS connection_id`;
  } else {
    const who =
      audience.to === 'peers'
        ? sql`AND p.peer_id = ANY(${sql.param(audience.peerIds)}::text[])`
        : audience.to === 'admitted'
          ? sql`AND p.presence = 'admitted'`
          : audience.to === 'provider'
            ? sql`AND p.role = 'provider'`
            : sql``;
    const admitted = options.onlyAdmitted ? sql`AND p.presence = 'admitted'` : sql``;
    const except = options.exceptPeer ? sql`AND p.peer_id <> ${options.exceptPeer}` : sql``;
    const sender = options.fromConnection
      ? sql`AND EXISTS (SELECT 1 FROM video_participants s WHERE s.appointment_id = p.appointment_id
              AND s.connection_id = ${options.fromConnection}::uuid AND s.presence = 'admitted')`
      : sql``;
    targets = sql`SELECT p.connection_id FROM video_participants p
      WHERE p.appointment_id = ${audience.appointmentId}::uuid AND p.connection_id IS NOT NULL
      ${who} ${admitted} ${except} ${sender}`;
  }
  const result = await tx.execute(sql`
    WITH targets AS (${targets}),
    written AS (
      INSERT INTO video_signals (connection_id, message)
      SELECT connection_id, ${json}::jsonb FROM targets
      RETURNING connection_id
    )
    SELECT pg_notify(${VIDEO_SIGNAL_CHANNEL}, connection_id::text) FROM written`);
  return result.rows.length;
}

interface LocalConnection {
  deliver(message: VideoServerMessage): void;
}

/**
 * This instance's signalling sockets by connection id, and the listener that hands them their messages: on a
 * notice for a connection held here, every message waiting for it is taken (deleted) in the order written and
 * delivered. One drain at a time per instance keeps each connection's messages in order.
 */
export class VideoRelay {
  readonly #db: Database;
  readonly #log: Log;
  readonly #connections = new Map<string, LocalConnection>();
  #queue: Promise<void> = Promise.resolve();

  /** `notifications`: the instance's LISTEN connection (plugins/websocket.ts), which hears VIDEO_SIGNAL_CHANNEL. */
  constructor(options: { db: Database; notifications: NotificationHub; log: Log }) {
    this.#db = options.db;
    this.#log = options.log;
    options.notifications.on(VIDEO_SIGNAL_CHANNEL, (connectionId) => {
      if (this.#connections.has(connectionId)) this.#drain([connectionId]);
    });
    // Notices sent while the listener was down are lost: take whatever waits for our connections.
    options.notifications.onReconnected(() => this.#drain([...this.#connections.keys()]));
  }

  get size(): number {
    return this.#connections.size;
  }

  /** Waits for the deliveries under way. */
  async stop(): Promise<void> {
    await this.#queue;
  }

  add(connectionId: string, connection: LocalConnection): void {
    this.#connections.set(connectionId, connection);
    // A message may have been written before the socket was registered here.
    this.#drain([connectionId]);
  }

  /** Forgets a connection and drops what still waits for it. */
  remove(connectionId: string): void {
    this.#connections.delete(connectionId);
    this.#enqueue(async () => {
      await this.#db.execute(sql`DELETE FROM video_signals WHERE connection_id = ${connectionId}::uuid`);
    });
  }

  #drain(connectionIds: string[]): void {
    if (connectionIds.length === 0) return;
    this.#enqueue(async () => {
      const taken = await this.#db.execute<{ connection_id: string; message: VideoServerMessage }>(sql`
        WITH taken AS (
          DELETE FROM video_signals WHERE connection_id = ANY(${sql.param(connectionIds)}::uuid[])
          RETURNING id, connection_id, message
        )
        SELECT connection_id, message FROM taken ORDER BY id`);
      for (const row of taken.rows) this.#connections.get(row.connection_id)?.deliver(row.message);
    });
  }

  #enqueue(work: () => Promise<void>): void {
    this.#queue = this.#queue.then(work).catch((error: unknown) => {
      this.#log.warn({ err: error }, 'video relay: delivery failed');
    });
  }
}
