import { randomUUID } from 'node:crypto';
import { and, desc, eq, isNull } from 'drizzle-orm';
import { AcknowledgeAlertInputSchema } from '@telehealth/shared';
import { scopeOf, systemScope, type Scope } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import { badUserInput, parseInput } from '../errors.ts';
import { addJob } from '../jobs/add-job.ts';
import { safetyAlertsEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { publishToUsers } from '../live/live-events.ts';
import type { MailService } from '../mail/mail.service.ts';
import { safetyAlertEscalationMail, safetyAlertMail } from '../mail/templates.ts';
import { findPatientOwnerIds, patientRecords } from '../patients/patients.repository.ts';
import { activeUsersContact, userNameOrNullOf } from '../users/users.repository.ts';
import { measures, safetyAlerts } from './measures.table.ts';

const patient = patientRecords('patient');

export interface AlertView {
  alert: typeof safetyAlerts.$inferSelect;
  firstName: string;
  lastName: string;
  total: number | null;
  acknowledgedByName: string | null;
}

/**
 * The safety path of a questionnaire (decision 028): an alert raised in the transaction of the answers, the
 * provider's list and acknowledgement, and its two jobs, the e-mail to the patient's provider
 * (`safety-alert:notify`) and the administrators' after SAFETY_ALERT_ESCALATION_MINUTES unacknowledged
 * (`safety-alert:escalate`), neither with clinical content. Built by MeasuresService, which passes its calls through.
 */
export class SafetyAlerts {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #mail: MailService;
  readonly #config: Config;

  constructor(options: { db: Database; keyring: Keyring; mail: MailService; config: Config }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#mail = options.mail;
    this.#config = options.config;
  }

  /** Open safety alerts of the caller's patients (or of one of them), newest first. Audited when any. */
  async list(caller: Caller, options: { patientId?: string | null; includeAcknowledged?: boolean } = {}) {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('alert:acknowledge');
    if (options.patientId && !isUuid(options.patientId)) return [];
    return this.#db.transaction(async (tx) => {
      const rows = await this.#selectAlerts(tx)
        .where(
          and(
            reach.kind === 'own' ? eq(patient.ownerId, reach.callerId) : undefined,
            options.patientId ? eq(safetyAlerts.patientId, options.patientId) : undefined,
            options.includeAcknowledged ? undefined : isNull(safetyAlerts.acknowledgedAt),
          ),
        )
        .orderBy(desc(safetyAlerts.createdAt))
        .limit(100);
      if (rows.length > 0) {
        await scope.audit(tx, 'SAFETY_ALERT_VIEW', {
          alertIds: rows.map((r) => r.alert.id),
          patientIds: [...new Set(rows.map((r) => r.alert.patientId))],
        });
      }
      return rows.map((r) => this.#openAlert(r));
    });
  }

  async acknowledge(caller: Caller, input: unknown): Promise<AlertView> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('alert:acknowledge');
    const { id, note } = parseInput(AcknowledgeAlertInputSchema, input);
    await scope.transaction(async (tx, scoped) => {
      const row = await scoped.find('alert:acknowledge', id, {
        read: async (db) => {
          const [inReach] = await this.#selectAlerts(db)
            .where(and(eq(safetyAlerts.id, id), reach.kind === 'own' ? eq(patient.ownerId, reach.callerId) : undefined))
            .for('update', { of: safetyAlerts });
          return inReach;
        },
        exists: async (db) =>
          (await db.select({ id: safetyAlerts.id }).from(safetyAlerts).where(eq(safetyAlerts.id, id))).length > 0,
        missing: 'measureMessages.alertNotFound',
        denial: { alertIds: [id] },
      });
      if (row.alert.acknowledgedAt) throw badUserInput('measureMessages.alertAlreadyAcknowledged');
      await tx
        .update(safetyAlerts)
        .set({
          ...safetyAlertsEncrypted.seal(this.#keyring, id, { acknowledgement: note }),
          acknowledgedAt: new Date(),
          acknowledgedBy: caller.user.id,
        })
        .where(eq(safetyAlerts.id, id));
      await scope.audit(tx, 'SAFETY_ALERT_ACKNOWLEDGED', { alertId: id, patientIds: [row.alert.patientId] });
      await publishToUsers(tx, await this.#providersOf(tx, row.alert.patientId), { type: 'safety-alerts-changed' });
    });
    const [row] = await this.#selectAlerts(this.#db).where(eq(safetyAlerts.id, id));
    return this.#openAlert(row!);
  }

  /**
   * Raises the alert of a questionnaire answered with the safety path, in the transaction of the answers: its
   * e-mail and escalation are jobs added with it, and the provider's screens hear of it at once.
   */
  async raise(tx: Executor, scope: Scope, measure: { id: string; patientId: string }): Promise<void> {
    const alertId = randomUUID();
    await tx.insert(safetyAlerts).values({ id: alertId, patientId: measure.patientId, measureId: measure.id });
    await scope.audit(
      tx,
      'SAFETY_ALERT_RAISED',
      { alertId, measureId: measure.id, patientIds: [measure.patientId] },
      { level: 'WARNING' },
    );
    await addJob(tx, 'safety-alert:notify', { alertId }, { jobKey: `safety-alert:notify:${alertId}` });
    await addJob(
      tx,
      'safety-alert:escalate',
      { alertId },
      { jobKey: `safety-alert:escalate:${alertId}`, delayMs: this.#config.safetyAlertEscalationMinutes * 60_000 },
    );
    await publishToUsers(tx, await this.#providersOf(tx, measure.patientId), { type: 'safety-alerts-changed' });
  }

  // Jobs ---------------------------------------------------------------------------------------------------
  // They act as SYSTEM, without a session: their entries are written through `systemScope()`.

  /** `safety-alert:notify`: e-mails the patient's provider (or, without one, the administrators). Once. */
  async notify(alertId: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const [alert] = await tx
        .select()
        .from(safetyAlerts)
        .where(and(eq(safetyAlerts.id, alertId), isNull(safetyAlerts.notifiedAt)))
        .for('update');
      if (!alert) return;
      const providerIds = await this.#providersOf(tx, alert.patientId);
      const recipients = providerIds.length > 0 ? await activeUsersContact(tx, providerIds) : [];
      const to = recipients.length > 0 ? recipients : await this.#mail.adminRecipients(tx);
      await this.#mail.enqueue(
        tx,
        to.map((r) => {
          const language = r.language === 'es' ? 'es' : 'en';
          return {
            to: r.email,
            kind: 'safety-alert' as const,
            language,
            content: safetyAlertMail(this.#mail.context, language),
          };
        }),
      );
      await tx.update(safetyAlerts).set({ notifiedAt: new Date() }).where(eq(safetyAlerts.id, alertId));
      await systemScope().audit(tx, 'SAFETY_ALERT_NOTIFIED', {
        alertId,
        recipients: to.length,
        to: recipients.length > 0 ? 'providers' : 'administrators',
        patientIds: [alert.patientId],
      });
    });
  }

  /** `safety-alert:escalate`: still not acknowledged, so the administrators are told. Once. */
  async escalate(alertId: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const [alert] = await tx
        .select()
        .from(safetyAlerts)
        .where(and(eq(safetyAlerts.id, alertId), isNull(safetyAlerts.acknowledgedAt), isNull(safetyAlerts.escalatedAt)))
        .for('update');
      if (!alert) return;
      const admins = await this.#mail.adminRecipients(tx);
      const minutes = this.#config.safetyAlertEscalationMinutes;
      await this.#mail.enqueue(
        tx,
        admins.map((admin) => ({
          to: admin.email,
          kind: 'safety-alert-escalation' as const,
          language: admin.language,
          content: safetyAlertEscalationMail(this.#mail.context, admin.language, minutes),
        })),
      );
      await tx.update(safetyAlerts).set({ escalatedAt: new Date() }).where(eq(safetyAlerts.id, alertId));
      await systemScope().audit(
        tx,
        'SAFETY_ALERT_ESCALATED',
        { alertId, recipients: admins.length, afterMinutes: minutes, patientIds: [alert.patientId] },
        { level: 'WARNING' },
      );
    });
  }

  // ------------------------------------------------------------------------------------------------------

  /** The patient's primary provider (who sees and acknowledges their alerts). */
  async #providersOf(executor: Executor, patientId: string): Promise<string[]> {
    return findPatientOwnerIds(executor, patientId);
  }

  #selectAlerts(executor: Executor) {
    return executor
      .select({
        alert: safetyAlerts,
        firstName: patient.firstName,
        lastName: patient.lastName,
        total: measures.total,
        acknowledgedByName: userNameOrNullOf(safetyAlerts.acknowledgedBy),
      })
      .from(safetyAlerts)
      .innerJoin(patient, eq(patient.id, safetyAlerts.patientId))
      .innerJoin(measures, eq(measures.id, safetyAlerts.measureId))
      .$dynamic();
  }

  /** The alert with its acknowledgement readable (decrypted only if a field asks for it). */
  #openAlert(row: AlertView): AlertView {
    return { ...row, alert: safetyAlertsEncrypted.open(this.#keyring, row.alert) };
  }
}
