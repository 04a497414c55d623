import { sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { holdsSlot, type AppointmentStatus, type Locale } from '@telehealth/shared';
import { mailFromOf, type Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { addJob } from '../jobs/add-job.ts';
import type { MailService, OutgoingMail } from '../mail/mail.service.ts';
import type { MailContent } from '../mail/mail-content.ts';
import { appointmentEventSummary, appointmentMail, type AppointmentMailFacts } from '../mail/templates.ts';
import type { AppointmentChange, AppointmentListener } from './appointments.service.ts';
import { claimReminder, lockAppointmentForMail, markInvitationQueued } from './appointments.repository.ts';
import { calendarEvent } from './calendar-invite.ts';

type Log = Pick<FastifyBaseLogger, 'info' | 'warn'>;
type Locked = NonNullable<Awaited<ReturnType<typeof lockAppointmentForMail>>>;

/** The invitation job of an appointment: one pending per appointment, moved on every change. */
export const notifyJobKey = (appointmentId: string) => `appointment:notify:${appointmentId}`;
/** A reminder job: one per appointment and hours before. */
export const reminderJobKey = (appointmentId: string, hoursBefore: number) =>
  `appointment:remind:${appointmentId}:${hoursBefore}`;

/**
 * Statuses for which a reminder still makes sense. Not a patient's request still pending (decision 030): its
 * reminders are set when the provider confirms it (a change of status reschedules them).
 */
const REMINDED: readonly AppointmentStatus[] = ['scheduled', 'confirmed'];

/**
 * The mail that follows appointments (decision 024): iCalendar invitations that calendars update in place, and
 * reminders before the visit.
 *
 * Every change queues, in its own transaction, one `appointment:notify` job per appointment after a short grace
 * period (BOOKING_MAIL_GRACE_SECONDS); a later change replaces the pending job, so a burst of changes sends one
 * mail. When it runs, the job compares the appointment's SEQUENCE with the last one it sent: a visit booked and
 * cancelled within the grace period was never announced, so nothing goes out; otherwise the patient and the
 * provider get REQUEST (booked or changed) or CANCEL. Reminders are jobs at start minus each of
 * APPOINTMENT_REMINDER_HOURS, moved by a reschedule and removed by a cancellation; the one that runs records
 * itself in `appointment_reminders`, so a job that runs twice or again after a restart sends once.
 */
export class AppointmentNotifications implements AppointmentListener {
  readonly #db: Database;
  readonly #mail: MailService;
  readonly #config: Config;
  readonly #log: Log;

  constructor(options: { db: Database; mail: MailService; config: Config; log: Log }) {
    this.#db = options.db;
    this.#mail = options.mail;
    this.#config = options.config;
    this.#log = options.log;
  }

  async appointmentsChanged(tx: Executor, change: AppointmentChange, appointmentIds: string[]): Promise<void> {
    for (const appointmentId of appointmentIds) {
      // A change of status queues the job too: a request confirmed by the provider is announced then (the job
      // sends nothing for any other status change, whose SEQUENCE it has already sent).
      await addJob(
        tx,
        'appointment:notify',
        { appointmentId },
        { jobKey: notifyJobKey(appointmentId), delayMs: this.#config.bookingMailGraceSeconds * 1000 },
      );
      await this.#scheduleReminders(tx, appointmentId);
    }
  }

  /** Puts each reminder job at its time for the appointment as it now is, or removes it. */
  async #scheduleReminders(tx: Executor, appointmentId: string): Promise<void> {
    const result = await tx.execute<{ starts_at: string; status: string; now: string }>(
      sql`SELECT starts_at, status, now() AS now FROM appointments WHERE id = ${appointmentId}`,
    );
    const row = result.rows[0];
    if (!row) return;
    const startsAt = new Date(row.starts_at);
    const now = new Date(row.now);
    for (const hours of this.#config.settings.current().reminderHours) {
      const runAt = new Date(startsAt.getTime() - hours * 3_600_000);
      const key = reminderJobKey(appointmentId, hours);
      if (REMINDED.includes(row.status as AppointmentStatus) && runAt > now) {
        await addJob(
          tx,
          'appointment:remind',
          { appointmentId, hoursBefore: hours },
          { jobKey: key, runAt, maxAttempts: 5 },
        );
      } else {
        await tx.execute(sql`SELECT graphile_worker.remove_job(${key})`);
      }
    }
  }

  /** The `appointment:notify` job: the invitation or cancellation the appointment's state calls for, or nothing. */
  async notify(appointmentId: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const found = await lockAppointmentForMail(tx, appointmentId);
      if (!found) return;
      const { appointment } = found;
      const sent = appointment.invitationSequence;
      if (sent === appointment.sequence) return;
      const status = appointment.status as AppointmentStatus;
      let event: AppointmentMailFacts['event'];
      if (status === 'cancelled') {
        // Never announced (undone within the grace period): nothing to take back.
        if (sent === null) return;
        event = 'cancelled';
      } else if (status === 'pending') {
        // A patient's request (decision 030): announced once the provider confirms it.
        return;
      } else if (holdsSlot(status)) {
        event = sent === null ? 'booked' : 'changed';
      } else {
        return;
      }
      await this.#mail.enqueue(tx, this.#mails(found, event));
      await markInvitationQueued(tx, appointmentId, appointment.sequence);
      this.#log.info({ appointmentId, event, sequence: appointment.sequence }, 'appointment mail queued');
    });
  }

  /** The `appointment:remind` job: the reminder, if the visit is still on at the time it was set for. */
  async remind(appointmentId: string, hoursBefore: number): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const found = await lockAppointmentForMail(tx, appointmentId);
      if (!found) return;
      const { appointment } = found;
      if (!REMINDED.includes(appointment.status as AppointmentStatus)) return;
      // Late by more than half the lead time (a server away for hours): the reminder would mislead; skip it.
      const due = appointment.startsAt.getTime() - hoursBefore * 3_600_000;
      if (Date.now() > due + (hoursBefore * 3_600_000) / 2) return;
      if (!(await claimReminder(tx, { appointmentId, hoursBefore, startsAt: appointment.startsAt }))) return;
      await this.#mail.enqueue(tx, this.#mails(found, 'reminder'));
      this.#log.info({ appointmentId, hoursBefore }, 'appointment reminder queued');
    });
  }

  /** The patient's and the provider's mail, each in their own language. */
  #mails(found: Locked, event: AppointmentMailFacts['event']): OutgoingMail[] {
    const recipients: { recipient: 'patient' | 'provider'; to: string; name: string; language: Locale }[] = [
      {
        recipient: 'patient',
        to: found.patientEmail,
        name: `${found.patientFirstName} ${found.patientLastName}`,
        language: found.patientLanguage === 'es' ? 'es' : 'en',
      },
      {
        recipient: 'provider',
        to: found.providerEmail,
        name: `${found.providerFirstName} ${found.providerLastName}`,
        language: found.providerLanguage === 'es' ? 'es' : 'en',
      },
    ];
    const kind =
      event === 'reminder'
        ? 'appointment-reminder'
        : event === 'cancelled'
          ? 'appointment-cancelled'
          : 'appointment-invitation';
    return recipients.map(({ recipient, to, name, language }) => {
      const facts = this.#facts(found, event, recipient, language);
      const content: MailContent = appointmentMail(this.#mail.context, language, facts);
      if (event !== 'reminder') content.calendar = this.#calendar(found, facts, language, { name, email: to });
      return { to, kind, language, content };
    });
  }

  #facts(
    found: Locked,
    event: AppointmentMailFacts['event'],
    recipient: 'patient' | 'provider',
    language: Locale,
  ): AppointmentMailFacts {
    const { appointment } = found;
    const video = appointment.appointmentType === 'video';
    return {
      event,
      recipient,
      when: formatWhen(appointment.startsAt, this.#config.settings.current().timeZone, language),
      providerName: `${found.providerFirstName} ${found.providerLastName}`,
      patientInitials: `${found.patientFirstName.charAt(0)}. ${found.patientLastName.charAt(0)}.`,
      video,
      link: video
        ? `${this.#config.publicUrl}/video-call/${appointment.id}`
        : `${this.#config.publicUrl}/${recipient === 'provider' ? 'calendar' : 'dashboard'}`,
    };
  }

  #calendar(
    found: Locked,
    facts: AppointmentMailFacts,
    language: Locale,
    attendee: { name: string; email: string },
  ): NonNullable<MailContent['calendar']> {
    const { appointment } = found;
    const method = facts.event === 'cancelled' ? 'CANCEL' : 'REQUEST';
    const ctx = this.#mail.context;
    const description =
      facts.recipient === 'patient'
        ? `${language === 'es' ? 'Profesional' : 'Provider'}: ${facts.providerName}${facts.video ? `\n${facts.link}` : ''}`
        : `${language === 'es' ? 'Paciente' : 'Patient'}: ${facts.patientInitials}\n${this.#config.publicUrl}/calendar`;
    return {
      method,
      ics: calendarEvent({
        method,
        uid: `${appointment.id}@${new URL(this.#config.publicUrl).hostname}`,
        sequence: appointment.sequence,
        startsAt: appointment.startsAt,
        endsAt: appointment.endsAt,
        timeZone: this.#config.settings.current().timeZone,
        summary: appointmentEventSummary(ctx, language, facts),
        description,
        location: facts.video ? facts.link : ctx.practiceName,
        url: facts.video ? facts.link : null,
        organizer: { name: ctx.practiceName, email: senderAddress(mailFromOf(this.#config)) },
        attendee,
      }),
    };
  }
}

/** "Tuesday, December 8, 2026 at 9:00 AM (America/New_York)", in the recipient's language. */
export function formatWhen(instant: Date, zone: string, language: Locale): string {
  const formatted = new Intl.DateTimeFormat(language === 'es' ? 'es' : 'en-US', {
    timeZone: zone,
    dateStyle: 'full',
    timeStyle: 'short',
  }).format(instant);
  return `${formatted} (${zone})`;
}

/** The address inside MAIL_FROM (`"Name" <address>` or a bare address). */
function senderAddress(mailFrom: string): string {
  return /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom.trim();
}
