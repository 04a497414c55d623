import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, LIVE_PATH, LiveClientMessageSchema } from '@telehealth/shared';
import { RequestError } from '../errors.ts';
import { logRefusal, requestErrorBody } from '../http/request-errors.ts';
import { requiredSession } from '../plugins/session.ts';
import { sendLive } from './live-sockets.ts';

/**
 * GET /api/live: the live channel (decision 017). Only a signed-in browser of our own site gets it (the session
 * and websocket plugins refuse the rest before upgrading). It greets with who is connected (user id and
 * role, nothing about health), answers pings, carries the messages sent to the account (live-events.ts: who
 * waits in a provider's video visits), and is closed with a reason when the session ends.
 */
export function registerLiveRoutes(app: FastifyInstance): void {
  app.route({
    method: 'GET',
    url: LIVE_PATH,
    config: { session: 'required' },
    handler: upgradeRequired(LIVE_PATH),
    wsHandler: (socket, request) => {
      const session = requiredSession(request);
      // Message handlers first: nothing the browser sends right after opening may be lost.
      socket.on('message', (data, isBinary) => {
        const text = !isBinary && Buffer.isBuffer(data) ? data.toString('utf8') : null;
        const parsed = text === null ? null : LiveClientMessageSchema.safeParse(parseJson(text));
        if (!parsed?.success) {
          sendLive(socket, { type: 'error', code: 'BAD_MESSAGE' });
          return;
        }
        switch (parsed.data.type) {
          case 'ping':
            sendLive(socket, { type: 'pong' });
            break;
        }
      });
      app.liveSockets.add(session.id, socket, { userId: session.user.id });
      sendLive(socket, { type: 'hello', userId: session.user.id, role: session.user.role });
    },
  });
}

/** The answer of a WebSocket route to a plain HTTP request: 426, naming the path. */
export function upgradeRequired(path: string) {
  return async (request: FastifyRequest, reply: FastifyReply) => {
    const refused = new RequestError(426, ERROR_CODES.upgradeRequired, 'webSocketOnly', { path });
    logRefusal(request.log, refused);
    return reply.code(426).header('upgrade', 'websocket').send(requestErrorBody(refused));
  };
}

/** A message's JSON, or undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
