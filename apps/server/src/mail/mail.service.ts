import { and, desc, eq, inArray, lt, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { MAX_PAGE_SIZE, PAGE_SIZE, rolesWith, type Locale, type MailKind } from '@telehealth/shared';
import { authorize, refuse } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf } from '../access/scope.ts';
import { mailFromOf, type Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { mailOutbox } from './mail.table.ts';
import { addJob } from '../jobs/add-job.ts';
import { CursorCodec } from '../db/cursor.ts';
import { findActiveUsersWithRoles } from '../users/users.repository.ts';
import type { MailContent, MailContext } from './mail-content.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface OutgoingMail {
  to: string;
  kind: MailKind;
  language: Locale;
  content: MailContent;
}

export type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * Delivery attempts before a mail is given up (and its body erased). The queue waits exp(attempt) seconds
 * between them (3 s, 7 s, 20 s, 55 s, 2.5 min, 7 min, 18 min, 50 min, 2 h 15): about three and a half hours.
 */
export const MAX_DELIVERY_ATTEMPTS = 10;

/** The job that delivers one mail: one per mail, so a mail's job can be found (and never added twice). */
export function deliveryJobKey(mailId: string): string {
  return `mail:deliver:${mailId}`;
}

/**
 * The transactional outbox. A mail is written in the same transaction as the change that causes it, so an
 * approval never loses its invitation and a rolled-back change never sends one. Without SMTP_URL the row is
 * the end of the road (status kept; administrators read it at /admin/outbox in demo mode). With it, the same
 * transaction adds a `mail:deliver` job; the job queue runs it on one instance, and retries it with backoff
 * when the mail server refuses or is away. The row stays the record of each mail and its status.
 */
export class MailService {
  readonly #db: Database;
  readonly #config: Config;
  readonly #log: Log;
  readonly #transport: Transporter | null;
  readonly #cursors: CursorCodec;

  constructor(options: { db: Database; config: Config; log: Log; secret: string }) {
    this.#db = options.db;
    this.#config = options.config;
    this.#log = options.log;
    this.#cursors = new CursorCodec(`${options.secret}:outbox`);
    this.#transport = options.config.smtpUrl
      ? nodemailer.createTransport({
          url: options.config.smtpUrl,
          connectionTimeout: 15_000,
          greetingTimeout: 15_000,
          socketTimeout: 30_000,
        })
      : null;
  }

  get context(): MailContext {
    const settings = this.#config.settings.current();
    return {
      practiceName: settings.practiceName,
      publicUrl: this.#config.publicUrl,
      clinicPhone: settings.clinicPhone,
    };
  }

  /** True when mail leaves the server (SMTP_URL is set); otherwise it is kept in the outbox. */
  get sends(): boolean {
    return this.#transport !== null;
  }

  /** Writes mails into the outbox, and with SMTP_URL their delivery jobs, inside the caller's transaction. */
  async enqueue(tx: Executor, mails: OutgoingMail[]): Promise<void> {
    if (mails.length === 0) return;
    const status = this.sends ? 'queued' : 'kept';
    const rows = await tx
      .insert(mailOutbox)
      .values(
        mails.map((mail) => ({
          toAddress: mail.to,
          subject: mail.content.subject,
          textBody: mail.content.text,
          htmlBody: mail.content.html,
          kind: mail.kind,
          language: mail.language,
          status,
          calendarMethod: mail.content.calendar?.method ?? null,
          calendarIcs: mail.content.calendar?.ics ?? null,
        })),
      )
      .returning({ id: mailOutbox.id, kind: mailOutbox.kind });
    if (!this.sends) {
      for (const row of rows)
        this.#log.info({ mailId: row.id, kind: row.kind }, 'mail kept in the outbox (SMTP_URL is not set)');
      return;
    }
    for (const row of rows) await this.#addDeliveryJob(tx, row.id);
  }

  #addDeliveryJob(tx: Executor, mailId: string, mode?: 'unsafe_dedupe'): Promise<string | null> {
    return addJob(
      tx,
      'mail:deliver',
      { mailId },
      { jobKey: deliveryJobKey(mailId), maxAttempts: MAX_DELIVERY_ATTEMPTS, ...(mode ? { jobKeyMode: mode } : {}) },
    );
  }

  /**
   * Gives a delivery job to every mail still to be sent that has none: mail written before delivery became a
   * job. A mail whose job exists (pending, running, or given up) keeps it, so this is safe at every start and
   * on several instances at once.
   */
  async addMissingDeliveryJobs(): Promise<void> {
    if (!this.sends) return;
    const undelivered = await this.#db
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(
        and(
          inArray(mailOutbox.status, ['queued', 'sending', 'failed']),
          lt(mailOutbox.attempts, MAX_DELIVERY_ATTEMPTS),
        ),
      );
    for (const { id } of undelivered) await this.#addDeliveryJob(this.#db, id, 'unsafe_dedupe');
  }

  /**
   * Where notifications for administrators go: ADMIN_EMAIL, else every active account whose role may review
   * access requests (the administrators).
   */
  async adminRecipients(tx: Executor): Promise<{ email: string; language: Locale }[]> {
    if (this.#config.adminEmails.length > 0)
      return this.#config.adminEmails.map((email) => ({ email, language: 'en' as const }));
    const rows = await findActiveUsersWithRoles(tx, rolesWith('access-request:review:any'));
    return rows.map((r) => ({ email: r.email, language: r.language === 'es' ? 'es' : 'en' }));
  }

  /** Closes the mail server connection (after the job queue stopped). */
  close(): void {
    this.#transport?.close();
  }

  /**
   * Sends one mail from the outbox: the `mail:deliver` job. Throws when sending failed, so that the queue
   * retries it with backoff; `final` says this was the last attempt (the mail is then given up and its body
   * erased). `abort` rejects when the server is shutting down: the attempt then counts as failed and another
   * instance (or this one, back) retries it. A mail no longer waiting (sent, kept, removed) is left alone, so
   * a job that runs twice sends once.
   */
  async deliver(mailId: string, attempt: { final: boolean; abort?: Promise<void> }): Promise<void> {
    const [mail] = await this.#db
      .update(mailOutbox)
      .set({ status: 'sending', attempts: sql`${mailOutbox.attempts} + 1`, lastAttemptAt: sql`now()` })
      .where(and(eq(mailOutbox.id, mailId), inArray(mailOutbox.status, ['queued', 'sending', 'failed'])))
      .returning();
    if (!mail) return;
    const transport = this.#transport;
    if (!transport) {
      // Queued by an instance with SMTP_URL, run by one without: keep it, as this instance keeps its own mail.
      await this.#db.update(mailOutbox).set({ status: 'kept' }).where(eq(mailOutbox.id, mail.id));
      this.#log.warn({ mailId: mail.id, kind: mail.kind }, 'mail kept in the outbox (SMTP_URL is not set here)');
      return;
    }
    try {
      const sending = transport.sendMail({
        from: mailFromOf(this.#config),
        to: mail.toAddress,
        subject: mail.subject,
        text: mail.textBody ?? '',
        ...(mail.htmlBody ? { html: mail.htmlBody } : {}),
        // The calendar part carries the method in its content type (method=REQUEST or CANCEL), as calendars
        // require it to match the METHOD inside; nodemailer also attaches it as invite.ics.
        ...(mail.calendarIcs && mail.calendarMethod
          ? { icalEvent: { method: mail.calendarMethod, content: mail.calendarIcs, filename: 'invite.ics' } }
          : {}),
      });
      await (attempt.abort ? Promise.race([sending, attempt.abort]) : sending);
      // The body may hold a link that sets a password: once delivered, the copy here has no use.
      await this.#db
        .update(mailOutbox)
        .set({ status: 'sent', sentAt: sql`now()`, error: null, textBody: null, htmlBody: null, calendarIcs: null })
        .where(eq(mailOutbox.id, mail.id));
    } catch (error) {
      const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      await this.#db
        .update(mailOutbox)
        .set({
          status: 'failed',
          error: message,
          ...(attempt.final ? { textBody: null, htmlBody: null, calendarIcs: null } : {}),
        })
        .where(eq(mailOutbox.id, mail.id));
      this.#log.warn(
        { mailId: mail.id, kind: mail.kind, attempt: mail.attempts, givenUp: attempt.final, reason: message },
        'mail delivery failed',
      );
      // The reason stays in the outbox: a mail server's answer may quote the address, which the queue's
      // table and log should not hold (they take the message and stack, not the cause).
      throw new Error(`mail delivery failed (the reason is in mail_outbox.error of ${mail.id})`, { cause: error });
    }
  }

  /** The outbox, newest first: administrators only, and only while demo mode is on. */
  async listOutbox(
    caller: Caller,
    args: { limit?: number | null; nextToken?: string | null },
  ): Promise<{ items: OutboxRow[]; nextToken: string | null }> {
    await authorize(this.#db, caller, 'mail:read');
    // Outside demo mode the outbox holds real people's mail (invitation links among them): nobody reads it here.
    if (!this.#config.demoMode) {
      await refuse(this.#db, caller, 'messages.outboxDemoOnly', {
        resource: 'mail outbox',
        reason: 'demo mode is off',
      });
    }
    const limit = Math.min(Math.max(args.limit ?? PAGE_SIZE, 1), MAX_PAGE_SIZE);
    const after = args.nextToken ? this.#cursors.decode(args.nextToken) : null;
    const sortKey = sql<string>`${mailOutbox.createdAt}::text`;
    return this.#db.transaction(async (tx) => {
      const rows = await tx
        .select({ mail: mailOutbox, sortKey })
        .from(mailOutbox)
        .where(
          after
            ? sql`(${mailOutbox.createdAt}, ${mailOutbox.id}) < (${after[0]}::timestamptz, ${after[1]}::uuid)`
            : undefined,
        )
        .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
        .limit(limit + 1);
      const page = rows.slice(0, limit);
      const last = page.at(-1);
      await scopeOf(this.#db, caller).audit(tx, 'OUTBOX_VIEW', { mailIds: page.map((r) => r.mail.id) });
      return {
        items: page.map((r) => r.mail),
        nextToken: rows.length > limit && last ? this.#cursors.encode([last.sortKey, last.mail.id, 'outbox']) : null,
      };
    });
  }
}
