import websocket from '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type pg from 'pg';
import { ERROR_CODES, LIVE_MAX_MESSAGE_BYTES } from '@telehealth/shared';
import type { SessionLifetime } from '../auth/session-lifetime.ts';
import { parseSessionEndedNotice } from '../auth/session-events.ts';
import { SESSION_ENDED_CHANNEL } from '../auth/sessions.repository.ts';
import { NotificationHub } from '../db/notification-hub.ts';
import { NotificationListener } from '../db/notification-listener.ts';
import { LIVE_USER_CHANNEL, parseLiveUserNotice } from '../live/live-events.ts';
import { VIDEO_SIGNAL_CHANNEL } from '../video/video-relay.ts';
import type { Config } from '../config.ts';
import { RequestError } from '../errors.ts';
import { logRefusal, requestErrorBody } from '../http/request-errors.ts';
import { safeOrigin } from './same-origin.ts';
import { LiveSockets } from '../live/live-sockets.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** This instance's open WebSockets by session id (decision 017). */
    liveSockets: LiveSockets;
    /** This instance's one LISTEN connection: other parts hear their channels through it. */
    notifications: NotificationHub;
  }
}

/** Server pings: a browser answers at once, so a socket silent for two rounds is gone. */
const HEARTBEAT_MS = 30_000;

export interface WebsocketPluginOptions {
  config: Config;
  sessions: SessionLifetime;
  pool: pg.Pool;
}

/**
 * WebSockets that live exactly as long as their session. An upgrade must come from our own origin (403
 * otherwise: cross-site WebSocket hijacking, as browsers send the cookie with any site's upgrade); a route
 * asks the session plugin for a live session (401 before upgrading). Then each socket is closed, with the
 * reason, when its session ends: on this instance or another (LISTEN session_ended), or when a look at the
 * sessions this instance holds finds one over (idle deadline passed, account deactivated by any path).
 * Registered before the session plugin and every route.
 */
export const websocketPlugin = fp<WebsocketPluginOptions>(
  async (app: FastifyInstance, { config, sessions: sessionLifetime, pool }) => {
    const sockets = new LiveSockets();
    app.decorate('liveSockets', sockets);

    await app.register(websocket, {
      options: { maxPayload: LIVE_MAX_MESSAGE_BYTES },
      // Told why, then closed; the default would close without a word.
      preClose: () => {
        sockets.closeAll();
        for (const client of app.websocketServer.clients) client.close();
        return new Promise<void>((resolve) => app.websocketServer.close(() => resolve()));
      },
      errorHandler: (error, socket, request) => {
        request.log.warn({ err: error }, 'live socket error');
        socket.terminate();
      },
    });

    const ownOrigin = new URL(config.publicUrl).origin;
    app.addHook('onRequest', async (request, reply) => {
      if (!request.ws) return;
      const origin = request.headers.origin;
      if (typeof origin === 'string' && safeOrigin(origin) === ownOrigin) return;
      // The same answer as any other request from another site (plugins/same-origin.ts); an upgrade without an
      // Origin is refused too, as every browser sends one and nothing else opens these sockets.
      const refused = new RequestError(403, ERROR_CODES.crossOriginRequest, 'crossOrigin');
      logRefusal(request.log, refused);
      return reply.code(403).header('cache-control', 'no-store').send(requestErrorBody(refused));
    });

    // One look at a time; a tick that finds the previous still running skips.
    let reviewing: Promise<void> | undefined;
    const review = () => {
      if (reviewing || sockets.size === 0) return;
      reviewing = sessionLifetime
        .reviewSessions(sockets.sessionIds())
        .then((over) => {
          for (const [id, reason] of over) sockets.endSessions([id], reason);
        })
        .catch((error: unknown) => app.log.warn({ err: error }, 'live sockets: session review failed'))
        .finally(() => {
          reviewing = undefined;
        });
    };

    // Sessions ended anywhere close their sockets here; messages for accounts reach their live channels here.
    const hub = new NotificationHub();
    app.decorate('notifications', hub);
    hub.onReconnected(review);
    const listener = new NotificationListener({
      connection: pool.options,
      channels: [SESSION_ENDED_CHANNEL, LIVE_USER_CHANNEL, VIDEO_SIGNAL_CHANNEL],
      name: 'notifications',
      log: app.log,
      onNotification: (channel, payload) => {
        if (channel === VIDEO_SIGNAL_CHANNEL) {
          hub.dispatch(channel, payload);
        } else if (channel === SESSION_ENDED_CHANNEL) {
          const notice = parseSessionEndedNotice(payload);
          if (notice) sockets.endSessions(notice.sessionIds, notice.reason);
          else app.log.warn('ignored a malformed session_ended notice');
        } else {
          const notice = parseLiveUserNotice(payload);
          if (notice) sockets.sendToUsers(notice.userIds, notice.message);
        }
      },
      onReconnected: () => hub.reconnected(),
    });
    await listener.start();

    // As often as the idle deadline moves (SessionLifetime.resolveSession), and never busier than 4 times a second.
    const reviewEveryMs = Math.min(10_000, Math.max(250, (config.settings.current().sessionIdleMinutes * 60_000) / 20));
    const reviewTimer = setInterval(review, reviewEveryMs);
    reviewTimer.unref();
    const heartbeatTimer = setInterval(() => sockets.heartbeat(), HEARTBEAT_MS);
    heartbeatTimer.unref();

    app.addHook('onClose', async () => {
      clearInterval(reviewTimer);
      clearInterval(heartbeatTimer);
      await listener.stop();
      await reviewing;
    });
  },
  { name: 'websocket-sessions' },
);
