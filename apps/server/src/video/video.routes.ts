import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { AuditActor } from '../audit/audit.repository.ts';
import type { WebSocket } from 'ws';
import {
  RECORDING_CHUNK_MAX_BYTES,
  RECORDING_UPLOAD_TYPES,
  VIDEO_CLOSE_CODES,
  VIDEO_GUEST_SIGNAL_PATH,
  VIDEO_SIGNAL_PATH,
  VideoClientMessageSchema,
  type VideoClientMessage,
  type VideoServerMessage,
} from '@telehealth/shared';
import type { Database } from '../db/client.ts';
import { parseJson, upgradeRequired } from '../live/live.routes.ts';
import { requiredSession } from '../plugins/session.ts';
import { badRequest } from '../errors.ts';
import { logRefusal, requestErrorBody } from '../http/request-errors.ts';
import { callerOfRequest } from '../access/caller.ts';
import { VideoRelay } from './video-relay.ts';
import type { RecordingFiles } from './recording-files.ts';
import type { RecordingsService } from './recordings.service.ts';
import type { JoinedConnection } from './joined-connection.ts';
import type { VideoSignalling } from './video-signalling.ts';

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
export function registerVideoRoutes(
  app: FastifyInstance,
  deps: {
    videoSignalling: VideoSignalling;
    recordings: RecordingsService;
    recordingFiles: RecordingFiles;
    db: Database;
  },
): void {
  registerRecordingRoutes(app, deps.recordingFiles);
  const relay = new VideoRelay({ db: deps.db, notifications: app.notifications, log: app.log });
  app.addHook('onClose', () => relay.stop());

  // Signed-in people (the provider, the patient): the socket lives as long as the session.
  app.route({
    method: 'GET',
    url: VIDEO_SIGNAL_PATH,
    config: { session: 'required' },
    handler: upgradeRequired(VIDEO_SIGNAL_PATH),
    wsHandler: (socket, request) => {
      const session = requiredSession(request);
      serveSignalling(socket, { sessionUserId: session.user.id, actor: request.actor }, deps, relay, request.log);
      app.liveSockets.add(session.id, socket);
    },
  });
  // Guests (no account): only a guest's token joins, for the visit of their invitation.
  app.route({
    method: 'GET',
    url: VIDEO_GUEST_SIGNAL_PATH,
    config: { session: 'optional' },
    handler: upgradeRequired(VIDEO_GUEST_SIGNAL_PATH),
    wsHandler: (socket, request) => {
      serveSignalling(socket, { sessionUserId: null, actor: request.actor }, deps, relay, request.log);
    },
  });
}

/** One signalling socket: `join` first, then its messages one after another, in the order received. */
function serveSignalling(
  socket: WebSocket,
  person: { sessionUserId: string | null; actor: AuditActor },
  { videoSignalling: signalling, recordings }: { videoSignalling: VideoSignalling; recordings: RecordingsService },
  relay: VideoRelay,
  log: FastifyBaseLogger,
): void {
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
      if (joined) await signalling.seen(joined);
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
      const result = await signalling.join({
        token: message.token,
        pageId: message.pageId,
        connectionId,
        sessionUserId: person.sessionUserId,
        actor: person.actor,
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
        if (!(await signalling.signal(joined, message.to, message.data))) {
          send(socket, { type: 'error', code: 'NOT_ADMITTED' });
        }
        break;
      case 'admit':
      case 'notice': {
        const outcome =
          message.type === 'admit'
            ? await signalling.admit(joined, message.peerId)
            : await signalling.notice(joined, message.peerId, message.text);
        if (outcome !== 'ok') send(socket, { type: 'error', code: outcome });
        break;
      }
      case 'end': {
        const outcome = await signalling.end(joined);
        if (outcome !== 'ok') send(socket, { type: 'error', code: outcome });
        break;
      }
      case 'recording-consent':
        if (!(await recordings.consent(joined, message.recordingId, message.agree))) {
          send(socket, { type: 'error', code: 'NO_RECORDING' });
        }
        break;
      case 'leave':
        await signalling.leave(joined);
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
        log.warn({ err: error }, 'video signalling: a message failed');
      });
  });
  socket.once('close', () => {
    chain = chain
      .then(async () => {
        relay.remove(connectionId);
        if (joined) await signalling.disconnected(joined);
      })
      .catch((error: unknown) => log.warn({ err: error }, 'video signalling: leaving failed'));
  });
}

/**
 * The recorder's uploads (PUT, raw WebM bytes) and playback (GET, streamed from the blob store with byte ranges so
 * the player seeks), for the appointment's provider only. The recording's id in the path names no one.
 */
function registerRecordingRoutes(app: FastifyInstance, files: RecordingFiles): void {
  void app.register((scope, _options, done) => {
    scope.addContentTypeParser(
      [...RECORDING_UPLOAD_TYPES],
      { parseAs: 'buffer', bodyLimit: RECORDING_CHUNK_MAX_BYTES },
      (_request, body, parsed) => parsed(null, body),
    );
    scope.put<{ Params: { id: string; seq: string } }>(
      '/api/recordings/:id/chunks/:seq',
      { config: { session: 'required', uploadTypes: RECORDING_UPLOAD_TYPES }, bodyLimit: RECORDING_CHUNK_MAX_BYTES },
      async (request, reply) => {
        const seq = Number(request.params.seq);
        if (!Number.isInteger(seq) || seq < 0 || seq > 1_000_000 || !Buffer.isBuffer(request.body)) {
          const refused = badRequest('recordingChunkInvalid');
          logRefusal(request.log, refused);
          return reply.code(400).send(requestErrorBody(refused));
        }
        await files.appendChunk(callerOfRequest(request, 'uploadRecordingChunk'), request.params.id, seq, request.body);
        return reply.code(204).send();
      },
    );
    scope.get<{ Params: { id: string }; Querystring: { download?: string } }>(
      '/api/recordings/:id/file',
      { config: { session: 'required' }, logLevel: 'warn' },
      async (request, reply) => {
        const range = parseRange(request.headers.range);
        const file = await files.read(callerOfRequest(request, 'playRecording'), request.params.id, range);
        void reply
          .header('content-type', file.mimeType)
          .header('accept-ranges', 'bytes')
          .header('content-length', file.end - file.start + 1)
          .header('cache-control', 'no-store')
          .header(
            'content-disposition',
            request.query.download === '1' ? `attachment; filename="visit-recording.webm"` : 'inline',
          );
        if (range) {
          void reply.code(206).header('content-range', `bytes ${file.start}-${file.end}/${file.size}`);
        }
        return reply.send(file.body);
      },
    );
    done();
  });
}

/** `bytes=START-END` or `bytes=START-` (one range); anything else is the whole file. */
function parseRange(header: string | undefined): { start: number; end: number } | null {
  const match = header ? /^bytes=(\d+)-(\d*)$/.exec(header.trim()) : null;
  if (!match) return null;
  const start = Number(match[1]);
  const end = match[2] ? Number(match[2]) : Number.MAX_SAFE_INTEGER;
  return end >= start ? { start, end } : null;
}
