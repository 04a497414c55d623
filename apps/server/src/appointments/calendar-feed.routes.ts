import type { FastifyInstance } from 'fastify';
import { ERROR_CODES } from '@telehealth/shared';
import { RequestError } from '../errors.ts';
import { requestErrorBody } from '../http/request-errors.ts';
import type { CalendarFeedService } from './calendar-feed.service.ts';

const TOKEN_FILE = /^([A-Za-z0-9_-]{20,100})\.ics$/;

/**
 * `GET /api/calendar/<token>.ics`: a provider's private feed for another calendar application, which cannot send
 * our session cookie; the token in the URL is the credential (decision 024). Unknown and revoked tokens get
 * the same 404.
 */
export function registerCalendarFeedRoute(app: FastifyInstance, feeds: CalendarFeedService): void {
  // Its path holds the token: the route's own requests are not logged (warnings and errors still are).
  app.get<{ Params: { file: string } }>('/api/calendar/:file', { logLevel: 'warn' }, async (request, reply) => {
    const token = TOKEN_FILE.exec(request.params.file)?.[1];
    const body = token ? await feeds.render(token) : null;
    void reply.header('cache-control', 'private, no-store').header('x-robots-tag', 'noindex');
    if (body === null) {
      return reply
        .code(404)
        .send(requestErrorBody(new RequestError(404, ERROR_CODES.notFound, 'calendarFeedNotFound')));
    }
    return reply.type('text/calendar; charset=utf-8').send(body);
  });
}
