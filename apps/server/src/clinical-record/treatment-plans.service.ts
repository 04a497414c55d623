import {
  SaveTreatmentPlanInputSchema,
  seesRecordPart,
  SignTreatmentPlanInputSchema,
  todayIn,
  zonedInstant,
  type SaveTreatmentPlanData,
} from '@telehealth/shared';
import { emergencyAuditDetails } from '../access/emergency-grants.ts';
import type { Reach } from '../access/authorize.ts';
import { scopeOf, systemScope } from '../access/scope.ts';
import type { Caller } from '../access/caller.ts';
import type { RequestMeta } from '../auth/auth.service.ts';
import type { Database, Executor } from '../db/client.ts';
import { badUserInput, fieldError, notFound, parseInput } from '../errors.ts';
import { addJob } from '../jobs/add-job.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { MailService } from '../mail/mail.service.ts';
import { treatmentPlanReviewDueMail } from '../mail/templates.ts';
import { findPatientOwnerIds } from '../patients/patients.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import { activeUsersContact } from '../users/users.repository.ts';
import { listDiagnoses } from './diagnoses.repository.ts';
import { entryThroughPatient, reachRecordPatient, recordPatientReach } from './record-access.ts';
import {
  acknowledgeVersion,
  findPlan,
  findPlanOfPatient,
  findVersion,
  findVersionOwner,
  insertDraft,
  latestSignedVersionId,
  listPlansDueForReview,
  listVersions,
  lockDraft,
  lockPlanOfPatient,
  lockVersion,
  signVersion,
  updateDraft,
  type TreatmentPlanDue,
  type TreatmentPlanValues,
  type TreatmentPlanVersionRecord,
} from './treatment-plans.repository.ts';

export type { TreatmentPlanDue, TreatmentPlanVersionRecord };

/** Re-confirms the signed-in person (password, or a current authenticator code) before a signature. */
export type ConfirmPlanSigner = (
  caller: Caller,
  meta: RequestMeta,
  proof: { password?: string | null | undefined; code?: string | null | undefined },
) => Promise<void>;

/** The hour of the review date at which the provider is reminded, in the practice's time zone. */
const REVIEW_REMINDER_TIME = '09:00';

/**
 * The treatment plan (issue 27, point 3; decision 065): one per patient, kept as versions. The provider writes a
 * draft (saving again rewrites it) and signs it with their password or code; a signed version never changes, so
 * editing after a signature starts the next draft. The patient reads the latest signed version and acknowledges it
 * once. At the review date the provider is e-mailed (a job per plan). Every read and change is audited with ids
 * only; the content is encrypted; emergency access reads; administrators get nothing.
 */
export class TreatmentPlansService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #mail: MailService;
  readonly #settings: SettingsService;
  readonly #confirmIdentity: ConfirmPlanSigner;

  constructor(options: {
    db: Database;
    keyring: Keyring;
    mail: MailService;
    settings: SettingsService;
    confirmIdentity: ConfirmPlanSigner;
  }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#mail = options.mail;
    this.#settings = options.settings;
    this.#confirmIdentity = options.confirmIdentity;
  }

  /**
   * The patient's current plan: for those who write the record, the latest version (a draft included); for the
   * patient, the latest signed one. Null when there is none. Audited as a read of the clinical record.
   */
  async current(caller: Caller, patientId: string): Promise<TreatmentPlanVersionRecord | null> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:read', { emergency: true });
    await reachRecordPatient(scope, 'clinical-record:read', reach, patientId);
    const signedOnly = !seesRecordPart(caller.user.role, 'treatment-plan:draft');
    return this.#db.transaction(async (tx) => {
      const plan = await findPlanOfPatient(tx, patientId);
      const [latest] = plan ? await listVersions(tx, this.#keyring, plan.id, { signedOnly, limit: 1 }) : [];
      await scope.audit(tx, 'CLINICAL_RECORD_VIEW', {
        part: 'treatment-plan',
        patientIds: [patientId],
        ...(plan ? { planId: plan.id } : {}),
        ...(latest ? { versionIds: [latest.row.id] } : {}),
        ...(reach.kind === 'own' ? emergencyAuditDetails(reach.emergency, [patientId]) : {}),
      });
      return latest ?? null;
    });
  }

  /** Every version of the plan, newest first (the patient: the signed ones). Audited. */
  async history(caller: Caller, planId: string): Promise<TreatmentPlanVersionRecord[]> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:read', { emergency: true });
    const plan = await scope.find('clinical-record:read', planId, this.#planSpec(planId, reach));
    const signedOnly = !seesRecordPart(caller.user.role, 'treatment-plan:draft');
    return this.#db.transaction(async (tx) => {
      const versions = await listVersions(tx, this.#keyring, planId, { signedOnly });
      await scope.audit(tx, 'CLINICAL_RECORD_VIEW', {
        part: 'treatment-plan-history',
        patientIds: [plan.patientId],
        planId,
        versionIds: versions.map((v) => v.row.id),
        ...(reach.kind === 'own' ? emergencyAuditDetails(reach.emergency, [plan.patientId]) : {}),
      });
      return versions;
    });
  }

  /**
   * Writes the plan as its open draft: the draft rewritten when there is one, else the next version (the first,
   * or the one after the signed version, which stays as it was).
   */
  async save(caller: Caller, input: unknown): Promise<TreatmentPlanVersionRecord> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:write');
    const data = parseInput(SaveTreatmentPlanInputSchema, input);
    await reachRecordPatient(scope, 'clinical-record:write', reach, data.patientId);
    const versionId = await this.#db.transaction(async (tx) => {
      const values = await this.#valuesOf(tx, data);
      const plan = await lockPlanOfPatient(tx, data.patientId, caller.user.id);
      const draft = await lockDraft(tx, plan.id);
      const written = draft
        ? (await updateDraft(tx, this.#keyring, draft.id, values, caller.user.id), draft)
        : await insertDraft(tx, this.#keyring, plan.id, values, caller.user.id);
      await scope.audit(tx, 'TREATMENT_PLAN_SAVE', {
        planId: plan.id,
        versionId: written.id,
        version: written.version,
        newVersion: !draft,
        patientIds: [data.patientId],
      });
      return written.id;
    });
    return (await findVersion(this.#db, this.#keyring, versionId))!;
  }

  /**
   * Signs the draft, the provider's identity confirmed again (password or code, as for a note), and schedules the
   * review reminder at the review date (replacing an earlier version's).
   */
  async sign(caller: Caller, meta: RequestMeta, input: unknown): Promise<TreatmentPlanVersionRecord> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:write');
    const { id, password, code } = parseInput(SignTreatmentPlanInputSchema, input);
    const found = await scope.find('clinical-record:write', id, this.#versionSpec(id, reach));
    if (found.row.signedAt) throw badUserInput('clinicalRecordMessages.planAlreadySigned');
    // The password or code is checked before the version is locked (a slow hash, no lock held).
    await this.#confirmIdentity(caller, meta, { password, code });
    await this.#db.transaction(async (tx) => {
      const locked = await lockVersion(tx, id);
      if (!locked || locked.signedAt) throw badUserInput('clinicalRecordMessages.planAlreadySigned');
      await signVersion(tx, id, caller.user.id);
      await scope.audit(tx, 'TREATMENT_PLAN_SIGN', {
        planId: locked.planId,
        versionId: id,
        version: locked.version,
        patientIds: [found.patientId],
        confirmedWith: password ? 'password' : 'totp',
      });
      const runAt = zonedInstant(locked.reviewDate, REVIEW_REMINDER_TIME, this.#settings.current().timeZone);
      // One pending reminder per plan: a newer signed version replaces the older one's.
      await addJob(
        tx,
        'treatment-plan:review-due',
        { versionId: id },
        { jobKey: `treatment-plan:review-due:${locked.planId}`, runAt },
      );
    });
    return (await findVersion(this.#db, this.#keyring, id))!;
  }

  /** The patient says they have read their plan: its latest signed version, once. */
  async acknowledge(caller: Caller, versionId: string): Promise<TreatmentPlanVersionRecord> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('treatment-plan:acknowledge');
    // A patient's own plan is of the record linked to their account (OWN_RECORDS['treatment-plan']).
    const patientReach: Reach<'patient'> = reach.kind === 'any' ? reach : { ...reach, field: 'accountId' };
    await scope.transaction(async (tx, scoped) => {
      const owner = await scoped.find(
        'treatment-plan:acknowledge',
        versionId,
        entryThroughPatient({
          id: versionId,
          patientReach,
          load: findVersionOwner,
          missing: 'clinicalRecordMessages.treatmentPlanNotFound',
          idsKey: 'versionIds',
        }),
      );
      const locked = await lockVersion(tx, versionId);
      // A draft is not the patient's to see: answered like a missing plan.
      if (!locked?.signedAt) throw notFound('clinicalRecordMessages.treatmentPlanNotFound');
      if ((await latestSignedVersionId(tx, owner.planId)) !== versionId)
        throw badUserInput('clinicalRecordMessages.planNotLatest');
      if (locked.acknowledgedAt) throw badUserInput('clinicalRecordMessages.planAlreadyAcknowledged');
      await acknowledgeVersion(tx, versionId, caller.user.id);
      await scope.audit(tx, 'TREATMENT_PLAN_ACKNOWLEDGE', {
        planId: owner.planId,
        versionId,
        version: locked.version,
        patientIds: [owner.patientId],
      });
    });
    return (await findVersion(this.#db, this.#keyring, versionId))!;
  }

  /**
   * The provider's patients' plans whose review date has come (today in the practice's time zone, or before), for
   * the dashboard. Audited with the patients' ids when there are any.
   */
  async dueForReview(caller: Caller): Promise<TreatmentPlanDue[]> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('clinical-record:write');
    // Only an own reach is a provider's list; no role writes every patient's record today.
    if (reach.kind !== 'own') return [];
    const today = todayIn(this.#settings.current().timeZone);
    return this.#db.transaction(async (tx) => {
      const due = await listPlansDueForReview(tx, caller.user.id, today);
      if (due.length > 0) {
        await scope.audit(tx, 'CLINICAL_RECORD_VIEW', {
          part: 'treatment-plans-due',
          patientIds: due.map((d) => d.patientId),
          planIds: due.map((d) => d.planId),
        });
      }
      return due;
    });
  }

  /**
   * `treatment-plan:review-due`: if the version is still its plan's latest signed one, and active, e-mails the
   * patient's provider (no patient, no clinical content) and records it. A newer signature has its own reminder.
   */
  async remindReview(versionId: string): Promise<void> {
    await this.#db.transaction(async (tx) => {
      const version = await lockVersion(tx, versionId);
      if (!version?.signedAt || version.status !== 'active') return;
      if ((await latestSignedVersionId(tx, version.planId)) !== versionId) return;
      const plan = (await findPlan(tx, version.planId))!;
      const providers = await activeUsersContact(tx, await findPatientOwnerIds(tx, plan.patientId));
      await this.#mail.enqueue(
        tx,
        providers.map((p) => {
          const language = p.language === 'es' ? 'es' : 'en';
          return {
            to: p.email,
            kind: 'treatment-plan-review-due' as const,
            language,
            content: treatmentPlanReviewDueMail(this.#mail.context, language),
          };
        }),
      );
      await systemScope('treatmentPlanReviewDue').audit(tx, 'TREATMENT_PLAN_REVIEW_DUE', {
        planId: plan.id,
        versionId,
        recipients: providers.length,
        patientIds: [plan.patientId],
      });
    });
  }

  /** The draft's values: the problems checked against the patient's list and kept with their code and title. */
  async #valuesOf(tx: Executor, data: SaveTreatmentPlanData): Promise<TreatmentPlanValues> {
    const diagnoses = new Map(
      (await listDiagnoses(tx, this.#keyring, data.patientId)).map((d) => [d.diagnosis.id, d.diagnosis]),
    );
    const problems = data.problemIds.map((diagnosisId) => {
      const diagnosis = diagnoses.get(diagnosisId);
      if (!diagnosis) throw fieldError('problemIds', 'clinicalRecordMessages.problemNotPatients');
      return { diagnosisId, code: diagnosis.code, title: diagnosis.title };
    });
    return {
      status: data.status,
      content: { problems, goals: data.goals, interventions: data.interventions },
      targetDate: data.targetDate,
      reviewDate: data.reviewDate,
    };
  }

  /** How `Scope.find` reaches a plan: through its patient (record-access.ts). */
  #planSpec(id: string, reach: Reach<'clinical-record'>) {
    return entryThroughPatient({
      id,
      patientReach: recordPatientReach(reach),
      load: findPlan,
      missing: 'clinicalRecordMessages.treatmentPlanNotFound',
      idsKey: 'planIds',
    });
  }

  /** How `Scope.find` reaches a version: through its plan's patient (record-access.ts). */
  #versionSpec(id: string, reach: Reach<'clinical-record'>) {
    return entryThroughPatient({
      id,
      patientReach: recordPatientReach(reach),
      load: (db, versionId) => findVersion(db, this.#keyring, versionId),
      exists: findVersionOwner,
      missing: 'clinicalRecordMessages.treatmentPlanNotFound',
      idsKey: 'versionIds',
    });
  }
}
