import { and, desc, eq, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import nodemailer, { type Transporter } from 'nodemailer';
import { MAX_PAGE_SIZE, PAGE_SIZE, type Locale } from '@telehealth/shared';
import { authorize, refuse } from '../access/authorize.ts';
import { appendAuditEntry } from '../audit/audit.repository.ts';
import type { Caller } from '../access/caller.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { mailOutbox, users } from '../db/schema.ts';
import { CursorCodec } from '../patients/cursor.ts';
import type { MailContent, MailContext, MailKind } from './templates.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

export interface OutgoingMail {
  to: string;
  kind: MailKind;
  language: Locale;
  content: MailContent;
}

export type OutboxRow = typeof mailOutbox.$inferSelect;

/** A mail that failed this many times is given up (and its body erased). */
export const MAX_DELIVERY_ATTEMPTS = 5;
/** A mail claimed by an instance that died mid-send is tried again after this long. */
const STALE_SENDING_MINUTES = 10;
const BATCH_SIZE = 20;

export const OUTBOX_MESSAGES = {
  demoOnly: 'The outbox can be read only while demo mode is on.',
} as const;

/**
 * The transactional outbox. A mail is written in the same transaction as the change that causes it, so an
 * approval never loses its invitation and a rolled-back change never sends one. Without SMTP_URL the row is
 * the end of the road (status kept; administrators read it at /admin/outbox in demo mode). With it, a
 * deliverer claims queued rows (SKIP LOCKED, so several instances share the work), sends them and records
 * the outcome; failures are retried with a growing pause.
 */
export class MailService {
  readonly #db: Database;
  readonly #config: Config;
  readonly #log: Log;
  readonly #transport: Transporter | null;
  readonly #cursors: CursorCodec;
  #running: Promise<void> | null = null;
  #again = false;

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
    return { practiceName: this.#config.practiceName, publicUrl: this.#config.publicUrl };
  }

  /** True when mail leaves the server (SMTP_URL is set); otherwise it is kept in the outbox. */
  get sends(): boolean {
    return this.#transport !== null;
  }

  /** Writes mails into the outbox inside the caller's transaction. Call wake() after it commits. */
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
        })),
      )
      .returning({ id: mailOutbox.id, kind: mailOutbox.kind });
    if (!this.sends) {
      for (const row of rows)
        this.#log.info({ mailId: row.id, kind: row.kind }, 'mail kept in the outbox (SMTP_URL is not set)');
    }
  }

  /** Where notifications for administrators go: ADMIN_EMAIL, else every active administrator account. */
  async adminRecipients(tx: Executor): Promise<{ email: string; language: Locale }[]> {
    if (this.#config.adminEmails.length > 0)
      return this.#config.adminEmails.map((email) => ({ email, language: 'en' as const }));
    const rows = await tx
      .select({ email: users.email, language: users.language })
      .from(users)
      .where(and(eq(users.role, 'admin'), eq(users.isActive, true)));
    return rows.map((r) => ({ email: r.email, language: r.language === 'es' ? 'es' : 'en' }));
  }

  /** Starts delivering queued mail in the background; a call while a delivery runs makes it go round again. */
  wake(): void {
    if (!this.#transport) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#deliverUntilDone().finally(() => {
      this.#running = null;
    });
  }

  /** Resolves when no delivery is running (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.#running) await this.#running;
  }

  async close(): Promise<void> {
    await this.idle();
    this.#transport?.close();
  }

  async #deliverUntilDone(): Promise<void> {
    try {
      do {
        this.#again = false;
        while ((await this.deliverPending()) > 0) {
          // Keep going while there is work; a batch that found nothing ends the round.
        }
      } while (this.#again);
    } catch (error) {
      this.#log.error({ err: error }, 'mail delivery failed');
    }
  }

  /** Claims a batch of mail that is due and sends it. Answers how many were claimed. */
  async deliverPending(): Promise<number> {
    const transport = this.#transport;
    if (!transport) return 0;
    const claimed = await this.#db.execute<{
      id: string;
      to_address: string;
      subject: string;
      text_body: string | null;
      html_body: string | null;
      attempts: number;
      kind: string;
    }>(sql`
      UPDATE ${mailOutbox} SET status = 'sending', attempts = attempts + 1, last_attempt_at = now()
      WHERE id IN (
        SELECT id FROM ${mailOutbox}
        WHERE status = 'queued'
           OR (status = 'sending' AND last_attempt_at < now() - make_interval(mins => ${STALE_SENDING_MINUTES}))
           OR (status = 'failed' AND attempts < ${MAX_DELIVERY_ATTEMPTS} AND last_attempt_at < now() - make_interval(secs => 30 * power(2, attempts)::int))
        ORDER BY created_at
        LIMIT ${BATCH_SIZE}
        FOR UPDATE SKIP LOCKED)
      RETURNING id, to_address, subject, text_body, html_body, attempts, kind`);
    for (const mail of claimed.rows) {
      try {
        await transport.sendMail({
          from: this.#config.mailFrom,
          to: mail.to_address,
          subject: mail.subject,
          text: mail.text_body ?? '',
          ...(mail.html_body ? { html: mail.html_body } : {}),
        });
        // The body may hold a link that sets a password: once delivered, the copy here has no use.
        await this.#db
          .update(mailOutbox)
          .set({ status: 'sent', sentAt: new Date(), error: null, textBody: null, htmlBody: null })
          .where(eq(mailOutbox.id, mail.id));
      } catch (error) {
        const message = (error instanceof Error ? error.message : String(error)).slice(0, 500);
        const givenUp = mail.attempts >= MAX_DELIVERY_ATTEMPTS;
        await this.#db
          .update(mailOutbox)
          .set({ status: 'failed', error: message, ...(givenUp ? { textBody: null, htmlBody: null } : {}) })
          .where(eq(mailOutbox.id, mail.id));
        this.#log.warn(
          { mailId: mail.id, kind: mail.kind, attempt: mail.attempts, givenUp, reason: message },
          'mail delivery failed',
        );
      }
    }
    return claimed.rows.length;
  }

  /** The outbox, newest first: administrators only, and only while demo mode is on. */
  async listOutbox(
    caller: Caller,
    args: { limit?: number | null; nextToken?: string | null },
  ): Promise<{ items: OutboxRow[]; nextToken: string | null }> {
    await authorize(this.#db, caller, 'mail:read');
    // Outside demo mode the outbox holds real people's mail (invitation links among them): nobody reads it here.
    if (!this.#config.demoMode) {
      await refuse(this.#db, caller, OUTBOX_MESSAGES.demoOnly, { resource: 'mail outbox', reason: 'demo mode is off' });
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
      await appendAuditEntry(tx, {
        event: 'OUTBOX_VIEW',
        level: 'INFO',
        actor: caller.actor,
        url: caller.operation,
        details: { mailIds: page.map((r) => r.mail.id) },
      });
      return {
        items: page.map((r) => r.mail),
        nextToken: rows.length > limit && last ? this.#cursors.encode([last.sortKey, last.mail.id, 'outbox']) : null,
      };
    });
  }
}
