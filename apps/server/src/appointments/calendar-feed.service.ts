import { eq } from 'drizzle-orm';
import { addDays, RecordIdSchema, todayIn } from '@telehealth/shared';
import { authorize } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { actorScope, scopeOf } from '../access/scope.ts';
import { hashLinkToken, newLinkToken } from '../auth/account-tokens.ts';
import type { Config } from '../config.ts';
import type { Database } from '../db/client.ts';
import { findFeedAppointments } from './appointments.repository.ts';
import { calendarFeeds } from './appointments.table.ts';
import { providers } from '../providers/providers.table.ts';
import { notFound, parseInput } from '../errors.ts';
import { isActiveProvider } from '../providers/providers.repository.ts';
import { calendarFeed } from './calendar-invite.ts';
import { occurrence } from './schedule.ts';
import { isUuid } from '../db/ids.ts';

/** What a feed holds: the last 30 days and the next 180. */
const FEED_PAST_DAYS = 30;
const FEED_FUTURE_DAYS = 180;

/**
 * Each provider's private calendar feed (decision 024): a secret URL another calendar application subscribes to,
 * revocable at any time. It shows times, the kind of visit and the patient's initials; nothing else.
 */
export class CalendarFeedService {
  readonly #db: Database;
  readonly #config: Config;

  constructor(options: { db: Database; config: Config }) {
    this.#db = options.db;
    this.#config = options.config;
  }

  async status(caller: Caller, providerId: string): Promise<{ active: boolean; createdAt: Date | null }> {
    const id = await this.#authorize(caller, providerId);
    const [row] = await this.#db.select().from(calendarFeeds).where(eq(calendarFeeds.providerId, id));
    return { active: row !== undefined, createdAt: row?.createdAt ?? null };
  }

  /** A new feed URL (the token is shown this once); any earlier URL of the provider stops working. */
  async create(caller: Caller, providerId: string): Promise<{ url: string; createdAt: Date }> {
    const id = await this.#authorize(caller, providerId);
    const token = newLinkToken();
    const createdAt = new Date();
    await this.#db.transaction(async (tx) => {
      await tx
        .insert(calendarFeeds)
        .values({ providerId: id, tokenHash: hashLinkToken(token), createdAt })
        .onConflictDoUpdate({
          target: calendarFeeds.providerId,
          set: { tokenHash: hashLinkToken(token), createdAt, lastReadAt: null },
        });
      await scopeOf(this.#db, caller).audit(tx, 'AVAILABILITY_UPDATE', { providerId: id, calendarFeed: 'created' });
    });
    return { url: `${this.#config.publicUrl}/api/calendar/${token}.ics`, createdAt };
  }

  async revoke(caller: Caller, providerId: string): Promise<boolean> {
    const id = await this.#authorize(caller, providerId);
    return this.#db.transaction(async (tx) => {
      const removed = await tx
        .delete(calendarFeeds)
        .where(eq(calendarFeeds.providerId, id))
        .returning({ id: calendarFeeds.providerId });
      await scopeOf(this.#db, caller).audit(tx, 'AVAILABILITY_UPDATE', { providerId: id, calendarFeed: 'revoked' });
      return removed.length > 0;
    });
  }

  /** The feed behind a token, or null for a token that is not (or no longer) one. Audited as a read. */
  async render(token: string): Promise<string | null> {
    const [feed] = await this.#db
      .select({ providerId: calendarFeeds.providerId, firstName: providers.firstName, lastName: providers.lastName })
      .from(calendarFeeds)
      .innerJoin(providers, eq(providers.id, calendarFeeds.providerId))
      .where(eq(calendarFeeds.tokenHash, hashLinkToken(token)));
    if (!feed) return null;
    const zone = this.#config.settings.current().timeZone;
    const today = todayIn(zone);
    const from = occurrence(addDays(today, -FEED_PAST_DAYS), '00:00', 15, zone).startsAt;
    const to = occurrence(addDays(today, FEED_FUTURE_DAYS), '00:00', 15, zone).startsAt;
    return this.#db.transaction(async (tx) => {
      const rows = await findFeedAppointments(tx, feed.providerId, from, to);
      await tx
        .update(calendarFeeds)
        .set({ lastReadAt: new Date() })
        .where(eq(calendarFeeds.providerId, feed.providerId));
      // The provider whose feed it is, read by their calendar app through the link (no session).
      const provider = {
        sessionId: null,
        userId: feed.providerId,
        userRole: 'provider',
        clientIp: null,
        userAgent: 'calendar feed',
      };
      await actorScope(provider, '/api/calendar').audit(tx, 'APPOINTMENT_VIEW', {
        calendarFeed: true,
        count: rows.length,
        patientIds: [...new Set(rows.map((r) => r.patientId))],
      });
      const host = new URL(this.#config.publicUrl).hostname;
      return calendarFeed({
        name: `${this.#config.settings.current().practiceName}: ${feed.firstName} ${feed.lastName}`,
        timeZone: zone,
        events: rows
          .filter((r) => r.status !== 'no-show')
          .map((r) => ({
            uid: `${r.id}@${host}`,
            sequence: r.sequence,
            startsAt: r.startsAt,
            endsAt: r.endsAt,
            summary: `${r.firstName.charAt(0)}. ${r.lastName.charAt(0)}. (${r.appointmentType === 'video' ? 'video' : 'in person'})`,
            description: `${this.#config.publicUrl}/calendar`,
            cancelled: r.status === 'cancelled',
          })),
      });
    });
  }

  async #authorize(caller: Caller, providerId: string): Promise<string> {
    const id = parseInput(RecordIdSchema, providerId);
    await authorize(this.#db, caller, 'availability:manage', { record: { providerId: id } });
    if (!isUuid(id) || !(await isActiveProvider(this.#db, id))) throw notFound('appointmentMessages.providerNotFound');
    return id;
  }
}
