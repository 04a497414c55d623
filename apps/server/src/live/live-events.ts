import { sql } from 'drizzle-orm';
import type { LiveServerMessage } from '@telehealth/shared';
import type { Executor } from '../db/client.ts';

/** The channel that carries a message for the live channels of some accounts, to every instance. */
export const LIVE_USER_CHANNEL = 'live_user';

export interface LiveUserNotice {
  userIds: string[];
  message: LiveServerMessage;
}

/**
 * Sends a message to every open live channel of these accounts, on whichever instance holds it: a NOTIFY in
 * the caller's transaction, so it goes out exactly when the change it tells of commits. Keep it small
 * (PostgreSQL refuses a payload over 8,000 bytes). Socket traffic never extends a session (decision 017).
 */
export async function publishToUsers(tx: Executor, userIds: string[], message: LiveServerMessage): Promise<void> {
  if (userIds.length === 0) return;
  const notice: LiveUserNotice = { userIds, message };
  await tx.execute(sql`SELECT pg_notify(${LIVE_USER_CHANNEL}, ${JSON.stringify(notice)})`);
}

export function parseLiveUserNotice(payload: string): LiveUserNotice | null {
  try {
    const value = JSON.parse(payload) as Partial<LiveUserNotice>;
    if (!Array.isArray(value.userIds) || typeof value.message !== 'object' || value.message === null) return null;
    return { userIds: value.userIds.filter((id) => typeof id === 'string'), message: value.message };
  } catch {
    return null;
  }
}
