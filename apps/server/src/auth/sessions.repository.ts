import { sql, type SQL } from 'drizzle-orm';
import type { SessionEndReason } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';
import { sessions } from './auth.table.ts';
import { userAccounts } from '../users/users.repository.ts';

/** The PostgreSQL channel on which every instance hears which sessions ended (decision 017). */
export const SESSION_ENDED_CHANNEL = 'session_ended';

/** What one notification on SESSION_ENDED_CHANNEL carries: ids only, never who the person is. */
export interface SessionEndedNotice {
  reason: SessionEndReason;
  sessionIds: string[];
}

/** A NOTIFY payload must stay under 8,000 bytes: 150 ids of 36 characters leave room to spare. */
const IDS_PER_NOTICE = 150;

export interface EndedSession {
  id: string;
  userId: string;
  role: string | null;
}

/**
 * Deletes the sessions `where` selects (a condition on `s`, the sessions row, and `u`, its user) and tells
 * every instance, so their WebSockets of those sessions close. Every path that ends a session goes through
 * here. Inside a transaction the notice is delivered only if it commits.
 */
export async function endSessions(executor: Executor, where: SQL, reason: SessionEndReason): Promise<EndedSession[]> {
  const result = await executor.execute<{ id: string; user_id: string; role: string | null }>(sql`
    DELETE FROM ${sessions} s USING ${userAccounts('u')}
    WHERE u.id = s.user_id AND (${where})
    RETURNING s.id, s.user_id, u.role`);
  const ended = result.rows.map((row) => ({ id: row.id, userId: row.user_id, role: row.role }));
  await notifySessionsEnded(
    executor,
    ended.map((session) => session.id),
    reason,
  );
  return ended;
}

/** Ends every session of one account (password reset, deactivation). */
export function endAccountSessions(
  executor: Executor,
  accountId: string,
  reason: SessionEndReason,
): Promise<EndedSession[]> {
  return endSessions(executor, sql`s.user_id = ${accountId}`, reason);
}

/**
 * Ends the sessions of accounts of these roles that have not set up two-factor: the rule that two-factor is required
 * for a role applies to sessions already open, not only to the next sign-in (decision 019).
 */
export function endSessionsWithoutTwoFactor(executor: Executor, roles: readonly string[]): Promise<EndedSession[]> {
  if (roles.length === 0) return Promise.resolve([]);
  return endSessions(
    executor,
    sql`u.role = ANY(${sql.param([...roles])}::text[]) AND NOT u.two_factor_enabled`,
    'TWO_FACTOR_REQUIRED',
  );
}

/** One statement however many notices; nothing at all when no session ended (the common request path). */
export async function notifySessionsEnded(
  executor: Executor,
  sessionIds: string[],
  reason: SessionEndReason,
): Promise<void> {
  if (sessionIds.length === 0) return;
  const payloads: string[] = [];
  for (let start = 0; start < sessionIds.length; start += IDS_PER_NOTICE) {
    const notice: SessionEndedNotice = { reason, sessionIds: sessionIds.slice(start, start + IDS_PER_NOTICE) };
    payloads.push(JSON.stringify(notice));
  }
  await executor.execute(
    sql`SELECT pg_notify(${SESSION_ENDED_CHANNEL}, payload) FROM unnest(${sql.param(payloads)}::text[]) AS payload`,
  );
}
