import { SESSION_END_REASONS } from '@telehealth/shared';
import type { SessionEndedNotice } from './sessions.repository.ts';

/**
 * A notice of SESSION_ENDED_CHANNEL (whichever instance ended a session: sign-out, expiry, password reset, ...),
 * or null when it is malformed. Every instance hears it (plugins/websocket.ts) and closes its sockets of those
 * sessions.
 */
export function parseSessionEndedNotice(payload: string): SessionEndedNotice | null {
  try {
    const value = JSON.parse(payload) as Partial<SessionEndedNotice>;
    const reason = SESSION_END_REASONS.find((r) => r === value.reason);
    const ids = Array.isArray(value.sessionIds) ? value.sessionIds.filter((id) => typeof id === 'string') : [];
    return reason ? { reason, sessionIds: ids } : null;
  } catch {
    return null;
  }
}
