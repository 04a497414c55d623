import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import {
  AcceptIntakeInputSchema,
  defaultIntakeFieldChoice,
  INTAKE_DETAIL_FIELDS,
  INTAKE_SECTION_SCHEMAS,
  IntakeCardSideSchema,
  intakeSteps,
  PatientIntakeInputSchema,
  ReturnIntakeInputSchema,
  SaveIntakeSectionInputSchema,
  type IntakeAnswers,
  type IntakeDetailField,
  type IntakeSection,
  type IntakeStatus,
} from '@telehealth/shared';
import type { Reach } from '../access/authorize.ts';
import type { Caller } from '../access/caller.ts';
import { emergencyAuditDetails } from '../access/emergency-grants.ts';
import { scopeOf, type Scope } from '../access/scope.ts';
import type { SealedBlobs } from '../blobs/sealed-blobs.ts';
import type { AllergiesService } from '../clinical-record/allergies.service.ts';
import type { MedicationsService } from '../clinical-record/medications.service.ts';
import type { Database, Executor } from '../db/client.ts';
import { badUserInput, fieldError, notFound, parseInput } from '../errors.ts';
import { checkUpload, type DownloadableFile } from '../http/encrypted-files.ts';
import type { Keyring } from '../keys/keyring.ts';
import type { MeasuresService } from '../measures/measures.service.ts';
import { findLinkedPatient } from '../patients/patient-accounts.repository.ts';
import {
  findVisiblePatient,
  isVisiblePatient,
  patientExists,
  updatePatientRow,
  type PatientRow,
} from '../patients/patients.repository.ts';
import type { SettingsService } from '../settings/settings.service.ts';
import {
  cardPhotoDataContext,
  cardPhotoPatient,
  findCardPhoto,
  findIntake,
  findIntakeOfPatient,
  findIntakeStatuses,
  insertIntake,
  intakePatient,
  listCardPhotos,
  markIntakeAccepted,
  markIntakeReturned,
  markIntakeSubmitted,
  replaceCardPhoto,
  updateIntakeAnswers,
  type CardPhotoInfo,
  type IntakeRecord,
} from './intake.repository.ts';

export type { CardPhotoInfo };

/** One field of the patient's details: what the record holds and what the patient reported. */
export interface IntakeDetailChange {
  field: IntakeDetailField;
  current: string | null;
  reported: string | null;
  /** What acceptance does unless the provider chooses: fill an empty field, keep what is there. */
  defaultChoice: 'current' | 'reported';
}

/** An intake as its patient or their provider sees it. */
export interface IntakeView {
  id: string | null;
  patientId: string;
  status: IntakeStatus;
  /** The steps of the practice's intake, in order. */
  steps: IntakeSection[];
  /** The step to come back to (the first when not started). */
  currentSection: IntakeSection;
  answers: IntakeAnswers;
  /** The details as the patient record holds them: the details step's starting values. */
  recordDetails: Record<IntakeDetailField, string | null>;
  /** For a submitted intake: the details that differ from the record. */
  detailChanges: IntakeDetailChange[];
  cardPhotos: CardPhotoInfo[];
  submittedAt: Date | null;
  acceptedAt: Date | null;
  returnedAt: Date | null;
  returnReason: string | null;
}

/** What accepting an intake did to the record. */
export interface IntakeAcceptance {
  intake: IntakeView;
  fieldsUpdated: IntakeDetailField[];
  medicationsAdded: number;
  /** The reported medications already on the list (skipped), as the patient named them. */
  medicationsSkipped: string[];
  allergiesAdded: number;
  allergiesSkipped: string[];
}

/** The baseline questionnaires of the intake's last step. */
const BASELINE_INSTRUMENTS = ['phq9', 'gad7'] as const;

/**
 * The intake packet (issue 28, decision 067). The patient fills in their own intake in the portal, one section at a
 * time (each saved, encrypted, with the step to come back to), uploads the insurance card's photos, and submits it.
 * Their provider reads it from the chart (an emergency grant reads it too) and accepts it: then, in one transaction,
 * the details the provider chose update the patient record, the reported medications and allergies join the record
 * as "reported by patient" (an entry already there is skipped, none is changed), and the intake is kept as the
 * patient's reported history. Or the provider sends it back with a reason. Every read and change is audited with ids.
 */
export class IntakeService {
  readonly #db: Database;
  readonly #keyring: Keyring;
  readonly #settings: SettingsService;
  readonly #medications: MedicationsService;
  readonly #allergies: AllergiesService;
  readonly #measures: MeasuresService;
  readonly #blobs: SealedBlobs;

  constructor(options: {
    db: Database;
    keyring: Keyring;
    settings: SettingsService;
    medications: MedicationsService;
    allergies: AllergiesService;
    measures: MeasuresService;
    blobs: SealedBlobs;
  }) {
    this.#db = options.db;
    this.#keyring = options.keyring;
    this.#settings = options.settings;
    this.#medications = options.medications;
    this.#allergies = options.allergies;
    this.#measures = options.measures;
    this.#blobs = options.blobs;
  }

  // ---- For the flow built next (calendar cards, chart badges): no audit entries of their own. ----

  /** The status of the patient's intake. */
  async statusFor(patientId: string): Promise<IntakeStatus> {
    return (await this.statusesFor([patientId])).get(patientId) ?? 'not-started';
  }

  /** The statuses of the patients' intakes, in one query; every id given is in the map. */
  async statusesFor(patientIds: readonly string[]): Promise<Map<string, IntakeStatus>> {
    const rows = await findIntakeStatuses(this.#db, patientIds);
    const statuses = new Map<string, IntakeStatus>(patientIds.map((id) => [id, 'not-started']));
    for (const row of rows) statuses.set(row.patientId, row.status as IntakeStatus);
    return statuses;
  }

  // ---- The patient ----

  /** The caller's own intake (started or not), with their record's details to start from. Audited. */
  async mine(caller: Caller): Promise<IntakeView> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('intake:fill');
    const patientId = await this.#ownPatientId(caller);
    return this.#db.transaction(async (tx) => {
      const view = await this.#viewOf(tx, patientId);
      await scope.audit(tx, 'INTAKE_VIEW', { intakeId: view.id, patientIds: [patientId] });
      return view;
    });
  }

  /** Saves one section of the caller's intake (starting it if need be) and the step to come back to. */
  async saveSection(caller: Caller, input: unknown): Promise<IntakeView> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('intake:fill');
    const data = parseInput(SaveIntakeSectionInputSchema, input);
    const steps = this.#steps();
    if (!steps.includes(data.section)) throw fieldError('section', 'intakeMessages.sectionOff');
    const answers = parseInput(INTAKE_SECTION_SCHEMAS[data.section], data.answers);
    const next = data.nextSection && steps.includes(data.nextSection) ? data.nextSection : data.section;
    const patientId = data.patientId;
    await this.#reachPatient(scope, 'intake:fill', reach, patientId);
    return this.#db.transaction(async (tx) => {
      const intake = await findIntakeOfPatient(tx, this.#keyring, patientId, { lock: true });
      let id: string;
      if (!intake) {
        id = await insertIntake(tx, this.#keyring, {
          patientId,
          answers: { [data.section]: answers },
          currentSection: next,
        });
      } else {
        if (intake.row.status !== 'in-progress') throw badUserInput('intakeMessages.notEditable');
        id = intake.row.id;
        await updateIntakeAnswers(tx, this.#keyring, id, {
          answers: { ...intake.answers, [data.section]: answers },
          currentSection: next,
        });
      }
      await scope.audit(tx, 'INTAKE_SAVE', { intakeId: id, section: data.section, patientIds: [patientId] });
      return this.#viewOf(tx, patientId);
    });
  }

  /** Sends the baseline PHQ-9 and GAD-7 the patient has not got pending (the intake's last step). */
  async requestQuestionnaires(caller: Caller, input: unknown): Promise<number> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('intake:fill');
    const { patientId } = parseInput(PatientIntakeInputSchema, input);
    if (!this.#steps().includes('questionnaires')) throw badUserInput('intakeMessages.sectionOff');
    await this.#reachPatient(scope, 'intake:fill', reach, patientId);
    return this.#db.transaction((tx) =>
      this.#measures.sendForIntake(tx, scope, {
        patientId,
        accountId: caller.user.id,
        instruments: BASELINE_INSTRUMENTS,
      }),
    );
  }

  /** Submits the caller's intake to their provider: it can no longer be changed, unless it is sent back. */
  async submit(caller: Caller, input: unknown): Promise<IntakeView> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('intake:fill');
    const { patientId } = parseInput(PatientIntakeInputSchema, input);
    await this.#reachPatient(scope, 'intake:fill', reach, patientId);
    return this.#db.transaction(async (tx) => {
      const intake = await findIntakeOfPatient(tx, this.#keyring, patientId, { lock: true });
      if (!intake?.answers.details) throw badUserInput('intakeMessages.detailsMissing');
      if (intake.row.status !== 'in-progress') throw badUserInput('intakeMessages.notEditable');
      await markIntakeSubmitted(tx, intake.row.id);
      await scope.audit(tx, 'INTAKE_SUBMIT', { intakeId: intake.row.id, patientIds: [patientId] });
      return this.#viewOf(tx, patientId);
    });
  }

  /**
   * Keeps the photo of one side of the caller's insurance card (a new one replaces the old, whose blob goes once
   * the new row is in). The body streams into the blob store; a refusal or a failed row leaves no blob.
   */
  async uploadCardPhoto(caller: Caller, sideInput: unknown, body: Readable): Promise<CardPhotoInfo> {
    const scope = scopeOf(this.#db, caller);
    await scope.reach('intake:fill');
    const side = parseInput(IntakeCardSideSchema, sideInput);
    const patientId = await this.#ownPatientId(caller);
    // Refused before the file is read when the intake cannot change (checked again under the lock below).
    const before = await findIntakeOfPatient(this.#db, this.#keyring, patientId);
    if (before && before.row.status !== 'in-progress') throw badUserInput('intakeMessages.notEditable');
    const id = randomUUID();
    const checked = checkUpload(body);
    const written = await this.#blobs.write(checked, cardPhotoDataContext(id));
    // Known once the file passed its checks (the write failed otherwise).
    const mediaType = checked.mediaType!;
    let saved: Awaited<ReturnType<typeof replaceCardPhoto>>;
    try {
      saved = await this.#db.transaction(async (tx) => {
        const intake = await findIntakeOfPatient(tx, this.#keyring, patientId, { lock: true });
        if (intake && intake.row.status !== 'in-progress') throw badUserInput('intakeMessages.notEditable');
        const replaced = await replaceCardPhoto(tx, {
          id,
          patientId,
          side,
          mediaType,
          file: written,
          uploadedBy: caller.user.id,
        });
        await scope.audit(tx, 'INTAKE_CARD_PHOTO_UPLOAD', {
          photoId: id,
          side,
          mediaType,
          sizeBytes: replaced.photo.sizeBytes,
          patientIds: [patientId],
        });
        return replaced;
      });
    } catch (error) {
      await this.#blobs.remove(written);
      throw error;
    }
    for (const blobKey of saved.replacedBlobKeys) await this.#blobs.remove({ blobKey });
    return saved.photo;
  }

  /** A card photo to send, whole or by byte ranges: for the patient and those who read their intake. Audited. */
  async downloadCardPhoto(caller: Caller, id: string): Promise<CardPhotoInfo & DownloadableFile> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('intake:read', { emergency: true });
    const patientReach = intakePatientReach(reach);
    const found = await scope.find('intake:read', id, {
      read: async (db) => {
        const photo = await cardPhotoPatient(db, id);
        return photo && (await isVisiblePatient(db, photo.patientId, patientReach)) ? findCardPhoto(db, id) : undefined;
      },
      exists: (db) => cardPhotoPatient(db, id),
      missing: 'intakeMessages.cardPhotoNotFound',
      denial: (existing) => ({ photoIds: [id], patientIds: [existing.patientId] }),
    });
    const { stored, ...photo } = found;
    const open = this.#blobs.openerOf(stored, cardPhotoDataContext(id));
    await scope.audit(this.#db, 'INTAKE_CARD_PHOTO_DOWNLOAD', {
      photoId: id,
      patientIds: [photo.patientId],
      ...(reach.kind === 'own' ? emergencyAuditDetails(reach.emergency, [photo.patientId]) : {}),
    });
    const extension = photo.mediaType === 'application/pdf' ? 'pdf' : photo.mediaType === 'image/png' ? 'png' : 'jpg';
    return { ...photo, fileName: `insurance-card-${photo.side}.${extension}`, open };
  }

  // ---- The provider ----

  /** A patient's intake, from their chart: their provider's, an emergency grant's, the patient's own. Audited. */
  async forPatient(caller: Caller, patientId: string): Promise<IntakeView> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('intake:read', { emergency: true });
    await this.#reachPatient(scope, 'intake:read', reach, patientId);
    return this.#db.transaction(async (tx) => {
      const view = await this.#viewOf(tx, patientId);
      await scope.audit(tx, 'INTAKE_VIEW', {
        intakeId: view.id,
        patientIds: [patientId],
        ...(reach.kind === 'own' ? emergencyAuditDetails(reach.emergency, [patientId]) : {}),
      });
      return view;
    });
  }

  /**
   * Accepts a submitted intake into the record, in one transaction: the details chosen (by default an empty field
   * is filled, a filled one kept), the reported medications and allergies (skipped when already listed), and the
   * intake kept as the reported history. Each change audited with ids only.
   */
  async accept(caller: Caller, input: unknown): Promise<IntakeAcceptance> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('intake:review');
    const data = parseInput(AcceptIntakeInputSchema, input);
    const result = await scope.transaction(async (tx, scoped) => {
      const intake = await scoped.find('intake:review', data.intakeId, this.#intakeSpec(data.intakeId, reach));
      const locked = (await findIntake(tx, this.#keyring, intake.row.id, { lock: true }))!;
      if (locked.row.status === 'accepted') throw badUserInput('intakeMessages.alreadyAccepted');
      if (locked.row.status !== 'submitted') throw badUserInput('intakeMessages.notSubmitted');
      const patientId = locked.row.patientId;
      const by = caller.user.id;
      const patient = (await findVisiblePatient(tx, patientId, { kind: 'any' }, this.#keyring))!;

      const chosen = new Map(data.choices.map((c) => [c.field, c.choice]));
      const values: Partial<Record<IntakeDetailField, string | null>> = {};
      for (const change of detailChangesOf(patient, locked.answers)) {
        if ((chosen.get(change.field) ?? change.defaultChoice) === 'reported') values[change.field] = change.reported;
      }
      // The record's required fields are never emptied.
      for (const field of ['firstName', 'lastName', 'dateOfBirth'] as const) {
        if (values[field] === null) delete values[field];
      }
      const fieldsUpdated = Object.keys(values) as IntakeDetailField[];
      if (fieldsUpdated.length > 0) {
        await updatePatientRow(tx, patientId, values as Partial<PatientRow>, this.#keyring);
        await scope.audit(tx, 'PATIENT_UPDATE', {
          patientIds: [patientId],
          fields: fieldsUpdated,
          intakeId: locked.row.id,
        });
      }
      const reported = locked.answers.medications;
      const medications = await this.#medications.addReported(tx, scope, {
        patientId,
        intakeId: locked.row.id,
        medications: reported?.medications ?? [],
        by,
      });
      const allergies = await this.#allergies.addReported(tx, scope, {
        patientId,
        intakeId: locked.row.id,
        allergies: reported?.allergies ?? [],
        by,
      });
      await markIntakeAccepted(tx, locked.row.id, by);
      await scope.audit(tx, 'INTAKE_ACCEPT', {
        intakeId: locked.row.id,
        patientIds: [patientId],
        fields: fieldsUpdated,
        medicationIds: medications.added,
        medicationsSkipped: medications.skipped.length,
        allergyIds: allergies.added,
        allergiesSkipped: allergies.skipped.length,
      });
      return { patientId, fieldsUpdated, medications, allergies };
    });
    return {
      intake: await this.#viewOf(this.#db, result.patientId),
      fieldsUpdated: result.fieldsUpdated,
      medicationsAdded: result.medications.added.length,
      medicationsSkipped: result.medications.skipped,
      allergiesAdded: result.allergies.added.length,
      allergiesSkipped: result.allergies.skipped,
    };
  }

  /** Sends a submitted intake back to the patient with a short reason; it is theirs to change again. */
  async returnToPatient(caller: Caller, input: unknown): Promise<IntakeView> {
    const scope = scopeOf(this.#db, caller);
    const reach = await scope.reach('intake:review');
    const data = parseInput(ReturnIntakeInputSchema, input);
    const patientId = await scope.transaction(async (tx, scoped) => {
      const intake = await scoped.find('intake:review', data.intakeId, this.#intakeSpec(data.intakeId, reach));
      const locked = (await findIntake(tx, this.#keyring, intake.row.id, { lock: true }))!;
      if (locked.row.status === 'accepted') throw badUserInput('intakeMessages.alreadyAccepted');
      if (locked.row.status !== 'submitted') throw badUserInput('intakeMessages.notSubmitted');
      await markIntakeReturned(tx, this.#keyring, locked.row.id, data.reason, caller.user.id);
      await scope.audit(tx, 'INTAKE_RETURN', { intakeId: locked.row.id, patientIds: [locked.row.patientId] });
      return locked.row.patientId;
    });
    return this.#viewOf(this.#db, patientId);
  }

  // ---- Parts ----

  #steps(): IntakeSection[] {
    return intakeSteps(this.#settings.current().intakeSections);
  }

  /** The patient record linked to the caller's account; none: the intake is not found. */
  async #ownPatientId(caller: Caller): Promise<string> {
    const linked = await findLinkedPatient(this.#db, caller.user.id);
    if (!linked) throw notFound('intakeMessages.notFound');
    return linked.id;
  }

  async #reachPatient(
    scope: Scope,
    action: 'intake:fill' | 'intake:read' | 'intake:review',
    reach: Reach<'intake'>,
    patientId: string,
  ): Promise<void> {
    const patientReach = intakePatientReach(reach);
    await scope.find(action, patientId, {
      read: (db: Executor) => isVisiblePatient(db, patientId, patientReach),
      exists: (db: Executor) => patientExists(db, patientId),
      missing: 'patientMessages.notFound',
      denial: { patientIds: [patientId] },
    });
  }

  /** How `Scope.find` reaches one intake: through its patient. */
  #intakeSpec(id: string, reach: Reach<'intake'>) {
    const patientReach = intakePatientReach(reach);
    return {
      read: async (db: Executor): Promise<IntakeRecord | undefined> => {
        const intake = await findIntake(db, this.#keyring, id);
        return intake && (await isVisiblePatient(db, intake.row.patientId, patientReach)) ? intake : undefined;
      },
      exists: (db: Executor) => intakePatient(db, id),
      missing: 'intakeMessages.notFound' as const,
      denial: (existing: { patientId: string }) => ({ intakeIds: [id], patientIds: [existing.patientId] }),
    };
  }

  async #viewOf(executor: Executor, patientId: string): Promise<IntakeView> {
    const steps = this.#steps();
    const intake = await findIntakeOfPatient(executor, this.#keyring, patientId);
    const patient = (await findVisiblePatient(executor, patientId, { kind: 'any' }, this.#keyring))!;
    const answers = intake?.answers ?? {};
    const current = intake?.row.currentSection as IntakeSection | undefined;
    return {
      id: intake?.row.id ?? null,
      patientId,
      status: (intake?.row.status as IntakeStatus | undefined) ?? 'not-started',
      steps,
      currentSection: current && steps.includes(current) ? current : steps[0]!,
      answers,
      recordDetails: recordDetailsOf(patient),
      detailChanges: intake?.row.status === 'submitted' ? detailChangesOf(patient, answers) : [],
      cardPhotos: await listCardPhotos(executor, patientId),
      submittedAt: intake?.row.submittedAt ?? null,
      acceptedAt: intake?.row.acceptedAt ?? null,
      returnedAt: intake?.row.status === 'in-progress' ? (intake.row.returnedAt ?? null) : null,
      returnReason: intake?.row.status === 'in-progress' ? (intake.row.returnReason ?? null) : null,
    };
  }
}

/** The patients an intake reach reaches: a provider's own patients, a patient's own record. */
function intakePatientReach(reach: Reach<'intake'>): Reach<'patient'> {
  if (reach.kind === 'any') return reach;
  return { ...reach, field: reach.field === 'patientOwnerId' ? 'ownerId' : 'accountId' };
}

function recordDetailsOf(patient: PatientRow): Record<IntakeDetailField, string | null> {
  return Object.fromEntries(INTAKE_DETAIL_FIELDS.map((field) => [field, patient[field] ?? null])) as Record<
    IntakeDetailField,
    string | null
  >;
}

/** The detail fields where what the patient reported differs from the record. */
function detailChangesOf(patient: PatientRow, answers: IntakeAnswers): IntakeDetailChange[] {
  const reported = answers.details;
  if (!reported) return [];
  const current = recordDetailsOf(patient);
  return INTAKE_DETAIL_FIELDS.flatMap((field) => {
    const now = current[field] ?? null;
    const told = reported[field] ?? null;
    if (now === told) return [];
    return [{ field, current: now, reported: told, defaultChoice: defaultIntakeFieldChoice(now) }];
  });
}
