import {
  FIRST_VISIT_MAX_REMINDERS,
  FIRST_VISIT_REMINDER_DAYS,
  intakeBadgeOf,
  intakeOutstandingForPatient,
  PatientReadinessInputSchema,
  type FirstVisitItemKind,
  type IntakeBadge,
  type IntakeStatus,
  type Instrument,
  type PracticeDocumentKind,
} from '@telehealth/shared';
import type { Reach } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { scopeOf, systemScope } from '../access/scope.ts';
import type { AppointmentsService } from '../appointments/appointments.service.ts';
import type { Config } from '../config.ts';
import type { Database, Executor } from '../db/client.ts';
import { isUuid } from '../db/ids.ts';
import { notFound, parseInput } from '../errors.ts';
import type { IntakeService } from '../intake/intake.service.ts';
import { addJob } from '../jobs/add-job.ts';
import type { MailService } from '../mail/mail.service.ts';
import { firstVisitReminderMail } from '../mail/templates.ts';
import type { MeasuresService } from '../measures/measures.service.ts';
import type { Log } from '../modules/domain-module.ts';
import { findLinkedPatient, findPatientAccountId } from '../patients/patient-accounts.repository.ts';
import { patientExists, visiblePatientIds, type PatientScope } from '../patients/patients.repository.ts';
import type { PracticeDocumentsService } from '../practice-documents/practice-documents.service.ts';
import { activeUsersContact } from '../users/users.repository.ts';
import { claimReminder, lockSentReminders } from './first-visit.repository.ts';

/** One thing the patient still has to do before the first visit. */
export interface FirstVisitItem {
  kind: FirstVisitItemKind;
  /** The document's, the questionnaire's or the intake's own id (the intake: the patient's id). */
  id: string;
  documentKind: PracticeDocumentKind | null;
  /** A document's version to sign. */
  versionId: string | null;
  titleEn: string | null;
  titleEs: string | null;
  /** document: to-sign or newer-version; intake: not-started or in-progress; questionnaire: pending. */
  status: string;
  instrument: Instrument | null;
}

/** Whether a patient is ready for the visit, as staff see it on the calendar and the chart. */
export interface PatientReadiness {
  patientId: string;
  intakeStatus: IntakeStatus;
  intakeBadge: IntakeBadge;
  consentMissing: boolean;
}

/** The job key of a patient's e-mails before the first visit: one pending per patient. */
export const remindJobKey = (patientId: string) => `first-visit:remind:${patientId}`;

const DAY_MS = 86_400_000;

/**
 * Before the first visit (issue 28, decision 068): the patient's list of what is outstanding (documents to sign,
 * the intake, questionnaires), the e-mail and at most two reminders that say only that something waits, and the
 * staff's readiness badges (intake, telehealth consent). It reads the other domains through their services.
 */
export class FirstVisitService {
  readonly #db: Database;
  readonly #config: Config;
  readonly #mail: MailService;
  readonly #appointments: AppointmentsService;
  readonly #documents: PracticeDocumentsService;
  readonly #intake: IntakeService;
  readonly #measures: MeasuresService;
  readonly #log: Log;

  constructor(options: {
    db: Database;
    config: Config;
    mail: MailService;
    appointments: AppointmentsService;
    practiceDocuments: PracticeDocumentsService;
    intake: IntakeService;
    measures: MeasuresService;
    log: Log;
  }) {
    this.#db = options.db;
    this.#config = options.config;
    this.#mail = options.mail;
    this.#appointments = options.appointments;
    this.#documents = options.practiceDocuments;
    this.#intake = options.intake;
    this.#measures = options.measures;
    this.#log = options.log;
  }

  // ---- The patient ----

  /** The signed-in patient's outstanding items (empty when nothing is left). Audited as the patient's own read. */
  async myChecklist(caller: Caller, namedPatientId?: string | null): Promise<FirstVisitItem[]> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('first-visit:read');
    const linked = await findLinkedPatient(this.#db, caller.user.id);
    // Naming a record is optional; naming one that is not the caller's own is answered like a missing one.
    if (namedPatientId != null && namedPatientId !== linked?.id) {
      if (isUuid(namedPatientId) && (await patientExists(this.#db, namedPatientId))) {
        await scope.recordOutOfReach('first-visit:read', { patientIds: [namedPatientId] });
      }
      throw notFound('patientMessages.notFound');
    }
    if (!linked) return [];
    const patientId = linked.id;
    const [documents, intakeStatus, questionnaires] = await Promise.all([
      this.#documents.outstandingFor(patientId),
      this.#intake.statusFor(patientId),
      this.#measures.pending(caller),
    ]);
    const items: FirstVisitItem[] = [
      ...documents.map((d): FirstVisitItem => ({
        kind: 'document',
        id: d.documentId,
        documentKind: d.kind,
        versionId: d.versionId,
        titleEn: d.titleEn,
        titleEs: d.titleEs,
        status: d.status,
        instrument: null,
      })),
      ...(intakeOutstandingForPatient(intakeStatus)
        ? [
            {
              kind: 'intake' as const,
              id: patientId,
              documentKind: null,
              versionId: null,
              titleEn: null,
              titleEs: null,
              status: intakeStatus,
              instrument: null,
            },
          ]
        : []),
      ...questionnaires.map((q): FirstVisitItem => ({
        kind: 'questionnaire',
        id: q.row.id,
        documentKind: null,
        versionId: null,
        titleEn: null,
        titleEs: null,
        status: 'pending',
        instrument: q.row.instrument as Instrument,
      })),
    ];
    await scope.audit(this.#db, 'FIRST_VISIT_CHECKLIST_VIEW', {
      patientIds: [patientId],
      documentIds: documents.map((d) => d.documentId),
      measureIds: questionnaires.map((q) => q.row.id),
      intakeStatus,
    });
    return items;
  }

  // ---- Staff ----

  /**
   * Readiness of the patients shown (the calendar's cards, the chart's header), in one call: a provider's own
   * patients, an administrator's any. A patient out of reach is answered like a missing one (the attempt recorded),
   * as every read of a patient by id is. Audited.
   */
  async readiness(caller: Caller, input: unknown): Promise<PatientReadiness[]> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('readiness:read');
    const { patientIds } = parseInput(PatientReadinessInputSchema, input);
    const patientReach = readinessPatientReach(reach);
    // A provider sees the readiness of their own patients and of every patient they have a visit with (their
    // calendar shows those visits, whoever the patient's own provider is).
    const withVisits =
      reach.kind === 'own' ? await this.#appointments.patientsWithVisitsOf(reach.callerId, patientIds) : new Set();
    const visible = await visiblePatientIds(this.#db, patientIds, patientReach);
    const reachable: string[] = [];
    const refused: string[] = [];
    for (const id of patientIds) {
      if (withVisits.has(id) || visible.has(id)) reachable.push(id);
      else if (await patientExists(this.#db, id)) refused.push(id);
    }
    if (refused.length > 0) await scope.recordOutOfReach('readiness:read', { patientIds: refused });
    if (reachable.length < patientIds.length) throw notFound('patientMessages.notFound');
    if (reachable.length === 0) return [];
    const statuses = await this.#intake.statusesFor(reachable);
    const consentMissing = await this.#documents.withoutValidSignature(reachable, 'telehealth-consent');
    const answers = reachable.map((patientId): PatientReadiness => {
      const intakeStatus = statuses.get(patientId) ?? 'not-started';
      return {
        patientId,
        intakeStatus,
        intakeBadge: intakeBadgeOf(intakeStatus),
        consentMissing: consentMissing.has(patientId),
      };
    });
    await scope.audit(this.#db, 'PATIENT_READINESS_VIEW', { patientIds: reachable });
    return answers;
  }

  // ---- The e-mail and its reminders ----

  /**
   * The appointments' listener, inside the booking's transaction: a patient's first booking (the new appointments
   * are all they have) queues the e-mail job. Later bookings queue nothing.
   */
  async appointmentsChanged(tx: Executor, change: string, appointmentIds: string[]): Promise<void> {
    if (change !== 'created' || appointmentIds.length === 0) return;
    const facts = await this.#appointments.visitFacts(tx, { appointmentIds });
    for (const f of facts) {
      if (f.asked > 0 && f.booked === f.asked && f.started === 0) await this.#queue(tx, f.patientId);
    }
  }

  /** An account set its first password: if it is a patient's, the e-mail job (a booking may have come first). */
  async accountActivated(tx: Executor, accountId: string): Promise<void> {
    const linked = await findLinkedPatient(tx, accountId);
    if (linked) await this.#queue(tx, linked.id);
  }

  async #queue(tx: Executor, patientId: string): Promise<void> {
    // preserve_run_at: a reminder already set for later keeps its time (a booking after activation sends no extra).
    await addJob(
      tx,
      'first-visit:remind',
      { patientId },
      {
        jobKey: remindJobKey(patientId),
        jobKeyMode: 'preserve_run_at',
        delayMs: this.#config.bookingMailGraceSeconds * 1000,
        maxAttempts: 5,
      },
    );
  }

  /** What the patient still has to do, counted (no names, no audit: the job says only that something waits). */
  async #outstandingCount(patientId: string): Promise<number> {
    const [documents, intakeStatus, questionnaires] = await Promise.all([
      this.#documents.outstandingFor(patientId),
      this.#intake.statusFor(patientId),
      this.#measures.pendingCountFor(patientId),
    ]);
    return documents.length + (intakeOutstandingForPatient(intakeStatus) ? 1 : 0) + questionnaires;
  }

  /**
   * The `first-visit:remind` job: the e-mail if something is outstanding and the first visit is not behind, then
   * the next one two days later while a visit is ahead, at most three in all. Each one sent is recorded first, so a
   * job that runs twice sends once.
   */
  async remind(patientId: string): Promise<void> {
    // Asked before the transaction, so it holds no second connection while it reads the other domains.
    if ((await this.#outstandingCount(patientId)) === 0) return;
    await this.#db.transaction(async (tx) => {
      const sent = await lockSentReminders(tx, patientId);
      if (sent.length >= FIRST_VISIT_MAX_REMINDERS) return;
      const [facts] = await this.#appointments.visitFacts(tx, { patientIds: [patientId] });
      if (!facts || facts.started > 0) return;
      const gap = FIRST_VISIT_REMINDER_DAYS * DAY_MS;
      const last = sent[0];
      if (last && Date.now() - last.sentAt.getTime() < gap - 3_600_000) {
        // Run again before its time (a retry, a second trigger): the next one stays where it belongs.
        if (facts.nextStartsAt) await this.#scheduleNext(tx, patientId, new Date(last.sentAt.getTime() + gap));
        return;
      }
      const accountId = await findPatientAccountId(tx, patientId);
      const [contact] = accountId ? await activeUsersContact(tx, [accountId]) : [];
      // No active account yet: its activation queues the job again.
      if (!contact) return;
      const number = sent.length + 1;
      if (!(await claimReminder(tx, patientId, number))) return;
      const language = contact.language === 'es' ? 'es' : 'en';
      await this.#mail.enqueue(tx, [
        {
          to: contact.email,
          kind: 'first-visit-reminder',
          language,
          content: firstVisitReminderMail(this.#mail.context, language),
        },
      ]);
      await systemScope('firstVisitReminder').audit(tx, 'FIRST_VISIT_REMINDER_SENT', {
        patientIds: [patientId],
        number,
      });
      this.#log.info({ patientId, number }, 'first-visit e-mail queued');
      if (number < FIRST_VISIT_MAX_REMINDERS && facts.nextStartsAt) {
        await this.#scheduleNext(tx, patientId, new Date(Date.now() + gap));
      }
    });
  }

  async #scheduleNext(tx: Executor, patientId: string, runAt: Date): Promise<void> {
    await addJob(tx, 'first-visit:remind', { patientId }, { jobKey: remindJobKey(patientId), runAt, maxAttempts: 5 });
  }
}

/** A provider reaches the readiness of the patients whose primary provider they are. */
function readinessPatientReach(reach: Reach<'readiness'>): PatientScope {
  if (reach.kind === 'any') return reach;
  return { kind: 'own', field: 'ownerId', callerId: reach.callerId };
}
