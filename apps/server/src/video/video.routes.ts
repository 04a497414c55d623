import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { WebSocket } from 'ws';
import {
  VIDEO_CLOSE_CODES,
  VIDEO_SIGNAL_PATH,
  VideoClientMessageSchema,
  type VideoClientMessage,
  type VideoServerMessage,
} from '@telehealth/shared';
import type { Database } from '../db/client.ts';
import { requiredSession } from '../plugins/session.ts';
import { VideoRelay } from './video-relay.ts';
import type { JoinedConnection, VideoService } from './video.service.ts';

function send(socket: WebSocket, message: VideoServerMessage): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
}

/**
 * GET /api/video/signal: the signalling socket of video visits (decision 026). Opened by a signed-in browser
 * of our own site (the WebSocket and session plugins refuse the rest before upgrading), closed with its session.
 * The first message is `join` with a token from requestVideoToken; after that the socket relays WebRTC messages
 * between the admitted people of one visit, through the database so they may sit on different instances. Each
 * socket's messages are handled one after another, in order.
 */
export function registerVideoRoutes(app: FastifyInstance, deps: { video: VideoService; db: Database }): void {
  const relay = new VideoRelay({ db: deps.db, notifications: app.notifications, log: app.log });
  app.addHook('onClose', () => relay.stop());

  app.route({
    method: 'GET',
    url: VIDEO_SIGNAL_PATH,
    config: { session: 'required' },
    handler: async (_request, reply) =>
      reply
        .code(426)
        .header('upgrade', 'websocket')
        .send({
          statusCode: 426,
          error: 'Upgrade Required',
          message: `${VIDEO_SIGNAL_PATH} is a WebSocket.`,
        }),
    wsHandler: (socket, request) => {
      const session = requiredSession(request);
      const actor = request.actor;
      const connectionId = randomUUID();
      let joined: JoinedConnection | null = null;
      let finished = false;

      const finish = (message: VideoServerMessage & { type: 'ended' }) => {
        finished = true;
        send(socket, message);
        socket.close(VIDEO_CLOSE_CODES.final, message.reason);
      };

      const handle = async (message: VideoClientMessage): Promise<void> => {
        if (finished) return;
        if (message.type === 'ping') {
          send(socket, { type: 'pong' });
          if (joined) await deps.video.seen(joined);
          return;
        }
        if (message.type === 'join') {
          if (joined) return;
          relay.add(connectionId, {
            deliver: (delivered) => {
              if (delivered.type === 'ended') finish(delivered);
              else send(socket, delivered);
            },
          });
          const result = await deps.video.join({
            token: message.token,
            pageId: message.pageId,
            connectionId,
            sessionUserId: session.user.id,
            actor,
          });
          if (result.ok) joined = result.joined;
          else finish({ type: 'ended', reason: result.reason });
          return;
        }
        if (!joined) {
          send(socket, { type: 'error', code: 'NOT_JOINED' });
          return;
        }
        switch (message.type) {
          case 'signal':
            if (!(await deps.video.signal(joined, message.to, message.data))) {
              send(socket, { type: 'error', code: 'NOT_ADMITTED' });
            }
            break;
          case 'admit':
          case 'notice': {
            const outcome =
              message.type === 'admit'
                ? await deps.video.admit(joined, message.peerId)
                : await deps.video.notice(joined, message.peerId, message.text);
            if (outcome !== 'ok') send(socket, { type: 'error', code: outcome });
            break;
          }
          case 'end': {
            const outcome = await deps.video.end(joined);
            if (outcome !== 'ok') send(socket, { type: 'error', code: outcome });
            break;
          }
          case 'leave':
            await deps.video.leave(joined);
            joined = null;
            finished = true;
            socket.close(1000, 'left');
            break;
        }
      };

      // One message at a time, in the order received.
      let chain: Promise<void> = Promise.resolve();
      socket.on('message', (data, isBinary) => {
        const text = !isBinary && Buffer.isBuffer(data) ? data.toString('utf8') : null;
        const parsed = text === null ? null : VideoClientMessageSchema.safeParse(parseJson(text));
        if (!parsed?.success) {
          send(socket, { type: 'error', code: 'BAD_MESSAGE' });
          return;
        }
        chain = chain
          .then(() => handle(parsed.data))
          .catch((error: unknown) => {
            request.log.warn({ err: error }, 'video signalling: a message failed');
          });
      });
      socket.once('close', () => {
        chain = chain
          .then(async () => {
            relay.remove(connectionId);
            if (joined) await deps.video.disconnected(joined);
          })
          .catch((error: unknown) => request.log.warn({ err: error }, 'video signalling: leaving failed'));
      });
      app.liveSockets.add(session.id, socket);
    },
  });
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
