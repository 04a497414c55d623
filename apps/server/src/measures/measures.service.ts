import { randomUUID } from 'node:crypto';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import {
  INSTRUMENT_DEFINITIONS,
  MEASURE_LEAD_HOURS,
  MeasureScheduleInputSchema,
  needsSafetyPath,
  scoreAnswers,
  SendQuestionnaireInputSchema,
  SubmitQuestionnaireInputSchema,
  type Instrument,
} from '@telehealth/shared';
import { emergencyAuditDetails, orEmergencyGrants } from '../access/emergency-grants.ts';
import type { Reach } from '../access/authorize.ts';
import { scopeOf, systemScope, type Scope } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import { appointments } from '../appointments/appointments.table.ts';
import { measures, measureSchedules, safetyAlerts } from './measures.table.ts';
import { badUserInput, fieldError, notFound, parseInput } from '../errors.ts';
import { recordIdempotencyKey } from '../idempotency/idempotency-keys.ts';
import { measuresEncrypted } from '../keys/encrypted-columns.ts';
import type { Keyring } from '../keys/keyring.ts';
import { publishToUsers } from '../live/live-events.ts';
import type { MailService } from '../mail/mail.service.ts';
import {
  findVisiblePatient,
  isVisiblePatient,
  patientAccountIdOf,
  patientExists,
  patientRecords,
} from '../patients/patients.repository.ts';
import { storedAnswersOf, type StoredAnswers } from './measures.repository.ts';
import { SafetyAlerts, type AlertView } from './safety-alerts.ts';

export type { AlertView };

type MeasureRow = typeof measures.$inferSelect;

const patient = patientRecords('patient');

export interface MeasureView {
  row: MeasureRow;
  patientName: string;
  answers: StoredAnswers | null;
}

/**
 * Rating scales and the safety path (decision 028). A provider sends a PHQ-9 or GAD-7 to one of their patients,
 * or sets it to go out before each visit (the `measures:before-visits` job); the patient fills it in; the server
 * scores it. A PHQ-9 with item 9 above 0 raises a safety alert: the patient's provider sees it at once (live) and
 * is e-mailed within a minute (a job, no health information in the mail); if nobody acknowledges it in
 * SAFETY_ALERT_ESCALATION_MINUTES the administrators are e-mailed too (without clinical content). The questionnaires
 * are here; the alerts in `safety-alerts.ts`, whose calls this service passes through.
 */
export class MeasuresService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #alerts: SafetyAlerts;

  constructor(options: { db: Database; keyring: Keyring; mail: MailService; config: Config }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#alerts = new SafetyAlerts(options);
  }

  async send(caller: Caller, input: unknown): Promise<MeasureView> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('measure:send');
    const { patientId, instrument } = parseInput(SendQuestionnaireInputSchema, input);
    const patient = await this.#providersPatient(caller, reach, patientId);
    const id = randomUUID();
    await this.#db.transaction(async (tx) => {
      await tx.insert(measures).values({ id, patientId, instrument, requestedBy: caller.user.id });
      await scope.audit(tx, 'QUESTIONNAIRE_SENT', {
        measureId: id,
        instrument,
        patientIds: [patientId],
      });
      await this.#tellPatient(tx, patient.accountId);
      await recordIdempotencyKey(tx, caller, id);
    });
    return this.#viewOf(id);
  }

  /** A questionnaire the caller sent, answered again for a retried sendQuestionnaire (decision 044). Audited. */
  async sent(caller: Caller, id: string): Promise<MeasureView> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('measure:send');
    const [row] = isUuid(id) ? await this.#select(this.#db).where(eq(measures.id, id)) : [];
    if (!row) throw notFound('measureMessages.notFound');
    await this.#providersPatient(caller, reach, row.measure.patientId);
    await scope.audit(this.#db, 'QUESTIONNAIRE_VIEW', {
      patientIds: [row.measure.patientId],
      measureIds: [id],
    });
    return this.#toView(row);
  }

  /**
   * A questionnaire the caller submitted, answered again for a retried submitQuestionnaire (decision 044): its
   * result and whether it raised the safety path, as the first answer said. Audited.
   */
  async submitted(caller: Caller, id: string): Promise<{ view: MeasureView; safetyAlert: boolean }> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('measure:respond');
    const [row] = isUuid(id)
      ? await this.#select(this.#db).where(and(eq(measures.id, id), this.#reachCondition(reach)))
      : [];
    if (!row) throw notFound('measureMessages.notFound');
    const alerts = await this.#db
      .select({ id: safetyAlerts.id })
      .from(safetyAlerts)
      .where(eq(safetyAlerts.measureId, id));
    await scope.audit(this.#db, 'QUESTIONNAIRE_VIEW', {
      patientIds: [row.measure.patientId],
      measureIds: [id],
    });
    return { view: this.#toView(row), safetyAlert: alerts.length > 0 };
  }

  /** Sets (or stops) the standing order: this questionnaire before each of the patient's visits. */
  async setSchedule(caller: Caller, input: unknown): Promise<Instrument[]> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('measure:send');
    const { patientId, instrument, beforeEachVisit } = parseInput(MeasureScheduleInputSchema, input);
    await this.#providersPatient(caller, reach, patientId);
    await this.#db.transaction(async (tx) => {
      if (beforeEachVisit) {
        await tx
          .insert(measureSchedules)
          .values({ patientId, instrument, createdBy: caller.user.id })
          .onConflictDoNothing();
      } else {
        await tx
          .delete(measureSchedules)
          .where(and(eq(measureSchedules.patientId, patientId), eq(measureSchedules.instrument, instrument)));
      }
      await scope.audit(tx, 'QUESTIONNAIRE_SCHEDULED', {
        instrument,
        beforeEachVisit,
        patientIds: [patientId],
      });
    });
    return this.#schedulesOf(patientId);
  }

  async schedules(caller: Caller, patientId: string): Promise<Instrument[]> {
    await this.#providersPatient(caller, await scopeOf(this.#db, caller).reach('measure:send'), patientId);
    return this.#schedulesOf(patientId);
  }

  async #schedulesOf(patientId: string): Promise<Instrument[]> {
    const rows = await this.#db
      .select({ instrument: measureSchedules.instrument })
      .from(measureSchedules)
      .where(eq(measureSchedules.patientId, patientId))
      .orderBy(asc(measureSchedules.instrument));
    return rows.map((r) => r.instrument as Instrument);
  }

  /** How many questionnaires wait for this patient's answers (the first-visit flow, decision 068; callers audit). */
  async pendingCountFor(patientId: string): Promise<number> {
    const rows = await this.#db
      .select({ id: measures.id })
      .from(measures)
      .where(and(eq(measures.patientId, patientId), eq(measures.status, 'pending')));
    return rows.length;
  }

  /** The caller's questionnaires waiting to be filled in (a patient's own). */
  async pending(caller: Caller): Promise<MeasureView[]> {
    const reach = await scopeOf(this.#db, caller).reach('measure:respond');
    const rows = await this.#select(this.#db)
      .where(and(this.#reachCondition(reach), eq(measures.status, 'pending')))
      .orderBy(asc(measures.createdAt));
    return rows.map((r) => this.#toView(r));
  }

  /**
   * Completed questionnaires of one patient, oldest first (the chart over time), with their answers: the
   * patient's provider, or the patient themselves. Audited.
   */
  async results(caller: Caller, patientId: string): Promise<MeasureView[]> {
    // Emergency access (decision 036) opens the results of that patient too.
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('measure:read', { emergency: true });
    await scope.find('measure:read', patientId, {
      read: (db) => isVisiblePatient(db, patientId, patientReachOf(reach)),
      exists: (db) => patientExists(db, patientId),
      missing: 'patientMessages.notFound',
      denial: { patientIds: [patientId] },
    });
    return this.#db.transaction(async (tx) => {
      const rows = await this.#select(tx)
        .where(and(this.#reachCondition(reach), eq(measures.patientId, patientId), eq(measures.status, 'completed')))
        .orderBy(asc(measures.completedAt));
      await scope.audit(tx, 'QUESTIONNAIRE_VIEW', {
        patientIds: [patientId],
        measureIds: rows.map((r) => r.measure.id),
        ...(reach.kind === 'own' ? emergencyAuditDetails(reach.emergency, [patientId]) : {}),
      });
      return rows.map((r) => this.#toView(r));
    });
  }

  /**
   * The patient's answers: scored on the server; item 9 of a PHQ-9 above 0 raises the safety alert in the same
   * transaction (its e-mail and escalation are jobs added with it). An incomplete form is refused, never scored.
   */
  async submit(caller: Caller, input: unknown): Promise<{ view: MeasureView; safetyAlert: boolean }> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('measure:respond');
    const { id, answers, difficulty } = parseInput(SubmitQuestionnaireInputSchema, input);
    const raised = await scope.transaction(async (tx, scoped) => {
      const found = await scoped.find('measure:respond', id, {
        read: async (db) => {
          const [inReach] = await this.#select(db)
            .where(and(eq(measures.id, id), this.#reachCondition(reach)))
            .for('update', { of: measures });
          return inReach;
        },
        exists: (db) => this.#exists(db, id),
        missing: 'measureMessages.notFound',
        denial: { measureIds: [id] },
      });
      const measure = found.measure;
      if (measure.status !== 'pending') throw badUserInput('measureMessages.alreadyCompleted');
      const instrument = measure.instrument as Instrument;
      const score = scoreAnswers(instrument, answers);
      if (!score) {
        // Every item answered but one off its own scale (a 4 on the PHQ-9) is not a missing answer.
        const complete = answers.length === INSTRUMENT_DEFINITIONS[instrument].items.length;
        throw fieldError('answers', complete ? 'measureMessages.answerOffScale' : 'measureMessages.answerEveryItem');
      }
      const stored = storedAnswersOf(instrument, answers, difficulty);
      await tx
        .update(measures)
        .set({
          ...measuresEncrypted.seal(this.#keyring, id, { answers: JSON.stringify(stored) }),
          status: 'completed',
          total: score.total,
          band: score.band,
          completedAt: new Date(),
        })
        .where(eq(measures.id, id));
      await scope.audit(tx, 'QUESTIONNAIRE_SUBMITTED', {
        measureId: id,
        instrument,
        patientIds: [measure.patientId],
      });
      const safetyPath = needsSafetyPath(instrument, answers);
      if (safetyPath) await this.#alerts.raise(tx, scope, measure);
      await recordIdempotencyKey(tx, caller, id);
      return safetyPath;
    });
    return { view: await this.#viewOf(id), safetyAlert: raised };
  }

  // Safety alerts (safety-alerts.ts) -----------------------------------------------------------------------

  /** Open safety alerts of the caller's patients (or of one of them), newest first. Audited when any. */
  alerts(caller: Caller, options: { patientId?: string | null; includeAcknowledged?: boolean } = {}) {
    return this.#alerts.list(caller, options);
  }

  acknowledge(caller: Caller, input: unknown): Promise<AlertView> {
    return this.#alerts.acknowledge(caller, input);
  }

  // Jobs ---------------------------------------------------------------------------------------------------
  // They act as SYSTEM, without a session: their entries are written through `systemScope()`.

  /** `safety-alert:notify`: e-mails the patient's provider (or, without one, the administrators). Once. */
  notifyAlert(alertId: string): Promise<void> {
    return this.#alerts.notify(alertId);
  }

  /** `safety-alert:escalate`: still not acknowledged, so the administrators are told. Once. */
  escalateAlert(alertId: string): Promise<void> {
    return this.#alerts.escalate(alertId);
  }

  /**
   * `measures:before-visits` (every 15 minutes): each standing order gets its questionnaire for every visit of
   * the patient in the next MEASURE_LEAD_HOURS, once per visit (a unique index). Answers how many went out.
   */
  async sendBeforeVisits(now = new Date()): Promise<number> {
    return this.#db.transaction(async (tx) => {
      const horizon = new Date(now.getTime() + MEASURE_LEAD_HOURS * 3_600_000);
      const inserted = await tx.execute<{
        id: string;
        patient_id: string;
        instrument: string;
        account_id: string | null;
      }>(sql`
        WITH due AS (
          SELECT a.id AS appointment_id, a.patient_id, s.instrument
          FROM ${appointments} a
          JOIN ${measureSchedules} s ON s.patient_id = a.patient_id
          JOIN ${patientRecords('p')} ON p.id = a.patient_id AND p.deleted_at IS NULL
          WHERE a.starts_at > ${now.toISOString()}::timestamptz AND a.starts_at <= ${horizon.toISOString()}::timestamptz
            AND a.status NOT IN ('cancelled', 'no-show', 'completed')
        )
        INSERT INTO ${measures} (id, patient_id, instrument, appointment_id)
        SELECT gen_random_uuid(), due.patient_id, due.instrument, due.appointment_id FROM due
        ON CONFLICT (appointment_id, instrument) WHERE appointment_id IS NOT NULL DO NOTHING
        RETURNING id, patient_id, instrument,
          ${patientAccountIdOf(sql`${measures}.patient_id`)} AS account_id`);
      for (const row of inserted.rows) {
        await systemScope().audit(tx, 'QUESTIONNAIRE_SENT', {
          measureId: row.id,
          instrument: row.instrument,
          beforeVisit: true,
          patientIds: [row.patient_id],
        });
        await this.#tellPatient(tx, row.account_id);
      }
      return inserted.rows.length;
    });
  }

  /**
   * The intake's baseline questionnaires (decision 067): each of `instruments` the patient has no pending one of
   * is sent now, without a sender, in the caller's transaction, and the patient's lists are told. The patient then
   * answers them through the usual questionnaire screens. Answers how many were sent.
   */
  async sendForIntake(
    tx: Executor,
    scope: Pick<Scope, 'audit'>,
    values: { patientId: string; accountId: string | null; instruments: readonly Instrument[] },
  ): Promise<number> {
    const pending = await tx
      .select({ instrument: measures.instrument })
      .from(measures)
      .where(and(eq(measures.patientId, values.patientId), eq(measures.status, 'pending')));
    const missing = values.instruments.filter((i) => !pending.some((p) => p.instrument === i));
    for (const instrument of missing) {
      const id = randomUUID();
      await tx.insert(measures).values({ id, patientId: values.patientId, instrument });
      await scope.audit(tx, 'QUESTIONNAIRE_SENT', {
        measureId: id,
        instrument,
        intake: true,
        patientIds: [values.patientId],
      });
    }
    if (missing.length > 0) await this.#tellPatient(tx, values.accountId);
    return missing.length;
  }

  // ------------------------------------------------------------------------------------------------------

  /** The patient's live channels learn that their questionnaires changed (the dashboard reads them again). */
  async #tellPatient(tx: Executor, accountId: string | null) {
    if (accountId) await publishToUsers(tx, [accountId], { type: 'questionnaires-changed' });
  }

  /** The provider's own patient (a questionnaire goes to one's own patients); another's is recorded, answered not found. */
  async #providersPatient(caller: Caller, reach: Reach<'measure'>, patientId: string) {
    const scope: Reach<'patient'> =
      reach.kind === 'any' ? reach : { kind: 'own', field: 'ownerId', callerId: reach.callerId };
    return scopeOf(this.#db, caller).find('measure:send', patientId, {
      read: (db) => findVisiblePatient(db, patientId, scope, this.#keyring),
      exists: (db) => patientExists(db, patientId),
      missing: 'patientMessages.notFound',
      denial: { patientIds: [patientId] },
    });
  }

  #reachCondition(reach: Reach<'measure'>) {
    if (reach.kind === 'any') return isNull(patient.deletedAt);
    const column = reach.field === 'patientOwnerId' ? patient.ownerId : patient.accountId;
    return and(isNull(patient.deletedAt), orEmergencyGrants(eq(column, reach.callerId), patient.id, reach.emergency))!;
  }

  #select(executor: Executor) {
    return executor
      .select({ measure: measures, firstName: patient.firstName, lastName: patient.lastName })
      .from(measures)
      .innerJoin(patient, eq(patient.id, measures.patientId));
  }

  async #exists(executor: Executor, id: string) {
    return (await executor.select({ id: measures.id }).from(measures).where(eq(measures.id, id))).length > 0;
  }

  async #viewOf(id: string): Promise<MeasureView> {
    const [row] = await this.#select(this.#db).where(eq(measures.id, id));
    return this.#toView(row!);
  }

  #toView(row: { measure: MeasureRow; firstName: string; lastName: string }): MeasureView {
    const measure = measuresEncrypted.open(this.#keyring, row.measure);
    return {
      row: measure,
      patientName: `${row.firstName} ${row.lastName}`,
      get answers() {
        return measure.answers ? (JSON.parse(measure.answers) as StoredAnswers) : null;
      },
    };
  }
}

/** The patient records a questionnaire's reach reaches: a questionnaire is one's own when its patient's record is. */
function patientReachOf(reach: Reach<'measure'>): Reach<'patient'> {
  if (reach.kind === 'any') return reach;
  return { ...reach, field: reach.field === 'patientOwnerId' ? 'ownerId' : 'accountId' };
}
