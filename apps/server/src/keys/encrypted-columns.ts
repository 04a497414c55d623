import { getTableName } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { accessRequests } from '../access-requests/access-requests.table.ts';
import { appointments, waitlistEntries } from '../appointments/appointments.table.ts';
import { allergies } from '../clinical-record/allergies.table.ts';
import { diagnoses, diagnosisRevisions } from '../clinical-record/diagnoses.table.ts';
import { medicationEvents, medications } from '../clinical-record/medications.table.ts';
import { treatmentPlanVersions } from '../clinical-record/treatment-plans.table.ts';
import { measures, safetyAlerts } from '../measures/measures.table.ts';
import { conversations, messages, messageAttachments } from '../messages/messages.table.ts';
import { noteAddenda, notes, noteUnlocks, noteVersions } from '../notes/notes.table.ts';
import { patients } from '../patients/patients.table.ts';
import { intakes } from '../intake/intake.table.ts';
import { recordCorrections } from '../portal-records/portal-records.table.ts';
import { storedTextFindings } from '../stored-text/stored-text.table.ts';
import { videoGuests, videoParticipants } from '../video/video.table.ts';
import type { Keyring } from './keyring.ts';
import { ledgerEntries } from '../billing/billing.table.ts';
import { emergencyAccessGrants } from '../emergency-access/emergency-access.table.ts';
import {
  practiceDocumentSignatures,
  practiceDocumentVersions,
} from '../practice-documents/practice-documents.table.ts';

/** Where an opened row keeps its stored values and those read so far (not enumerable: no copy or JSON sees it). */
const SEALED = Symbol('sealed values');
interface SealedValues {
  keyring: Keyring;
  stored: Partial<Record<string, string>>;
  plaintext: Partial<Record<string, string>>;
}

/**
 * The encrypted columns of one table, for its repository: `seal` encrypts the values about to be written,
 * `open` makes a row read back readable. Each value is bound to its table, column and row id, so the row id
 * must be known before an insert (repositories generate it).
 *
 * Every encrypted column also has a CHECK constraint `<table>_<column>_encrypted` (`IS NULL OR LIKE 'enc:%'`), so
 * no code path can write plain text into it; the start-up check refuses to run without one.
 */
export class EncryptedColumns<Field extends string> {
  readonly table: PgTable;
  readonly tableName: string;
  readonly idColumn: PgColumn;
  readonly columns: readonly { field: Field; column: PgColumn; name: string; constraint: string }[];
  /** Per encrypted field, the getter `open` gives every row. */
  readonly #readers: readonly { field: Field; getter: (this: { id: string; [SEALED]: SealedValues }) => string }[];

  constructor(table: PgTable, idColumn: PgColumn, columns: Record<Field, PgColumn>) {
    this.table = table;
    this.tableName = getTableName(table);
    this.idColumn = idColumn;
    this.columns = (Object.entries(columns) as [Field, PgColumn][]).map(([field, column]) => ({
      field,
      column,
      name: column.name,
      constraint: `${this.tableName}_${column.name}_encrypted`,
    }));
    const tableName = this.tableName;
    this.#readers = this.columns.map(({ field, name }) => ({
      field,
      getter(this: { id: string; [SEALED]: SealedValues }): string {
        const sealed = this[SEALED];
        return (sealed.plaintext[field] ??= sealed.keyring.decrypt(sealed.stored[field]!, {
          table: tableName,
          column: name,
          id: this.id,
        }));
      },
    }));
  }

  /** A copy of `values` with every encrypted field that holds text encrypted for the row `id`. */
  seal<T extends Partial<Record<Field, unknown>>>(keyring: Keyring, id: string, values: T): T {
    const sealed: Record<string, unknown> = { ...values };
    for (const { field, name } of this.columns) {
      const value = sealed[field];
      if (typeof value === 'string')
        sealed[field] = keyring.encrypt(value, { table: this.tableName, column: name, id });
    }
    return sealed as T;
  }

  /**
   * The row with its encrypted fields readable. Each is decrypted when first read (and then kept), so a list
   * that shows no clinical text decrypts nothing; a value that fails throws EncryptedValueError at that read.
   * Each field is an own enumerable getter shared by every row (the stored values sit in a hidden property of
   * the row), so the rows of a list keep one shape and no closure is made per row.
   */
  open<T extends { id: string } & Partial<Record<Field, unknown>>>(keyring: Keyring, row: T): T {
    let sealed: SealedValues | undefined;
    for (const { field, getter } of this.#readers) {
      const stored = row[field];
      if (typeof stored !== 'string') continue;
      sealed ??= { keyring, stored: {}, plaintext: {} };
      sealed.stored[field] = stored;
      Object.defineProperty(row, field, { enumerable: true, configurable: true, get: getter });
    }
    if (sealed) Object.defineProperty(row, SEALED, { value: sealed, configurable: true });
    return row;
  }

  /** One stored value, decrypted now. */
  decryptValue(keyring: Keyring, id: string, field: Field, stored: string): string {
    const column = this.columns.find((c) => c.field === field);
    if (!column) throw new Error(`${this.tableName}.${field} is not an encrypted column`);
    return keyring.decrypt(stored, { table: this.tableName, column: column.name, id });
  }
}

/** The patient's clinical free text. Names, e-mail and the rest stay plain: listing and searching need them. */
export const patientsEncrypted = new EncryptedColumns(patients, patients.id, {
  reasonForCare: patients.reasonForCare,
  allergies: patients.allergies,
  currentMedications: patients.currentMedications,
  medicalHistory: patients.medicalHistory,
  insurancePolicyNumber: patients.insurancePolicyNumber,
});

/** The stored form (JSON) and the administrator's reason for a decline. */
export const accessRequestsEncrypted = new EncryptedColumns(accessRequests, accessRequests.id, {
  form: accessRequests.form,
  declineReason: accessRequests.declineReason,
});

/** The value a stored-text finding replaced (decision 022): typed by a person, so as protected as the record. */
export const storedTextFindingsEncrypted = new EncryptedColumns(storedTextFindings, storedTextFindings.id, {
  originalValue: storedTextFindings.originalValue,
});

/** An appointment's reason for the visit, the staff's notes and the reason for a cancellation. */
export const appointmentsEncrypted = new EncryptedColumns(appointments, appointments.id, {
  reason: appointments.reason,
  notes: appointments.notes,
  cancelReason: appointments.cancelReason,
});

/** A waitlisted patient's reason for the visit (it becomes the appointment's). */
export const waitlistEntriesEncrypted = new EncryptedColumns(waitlistEntries, waitlistEntries.id, {
  reason: waitlistEntries.reason,
});

/** The name a person gave when joining a video visit. */
export const videoParticipantsEncrypted = new EncryptedColumns(videoParticipants, videoParticipants.id, {
  displayName: videoParticipants.displayName,
});

/** A video visit guest's name and e-mail address. */
export const videoGuestsEncrypted = new EncryptedColumns(videoGuests, videoGuests.id, {
  name: videoGuests.name,
  email: videoGuests.email,
});

/** A clinical note's title, content and tags (decision 027), and the same of each signed version. */
export const notesEncrypted = new EncryptedColumns(notes, notes.id, {
  title: notes.title,
  content: notes.content,
  tags: notes.tags,
});
export const noteVersionsEncrypted = new EncryptedColumns(noteVersions, noteVersions.id, {
  title: noteVersions.title,
  content: noteVersions.content,
  tags: noteVersions.tags,
});
export const noteUnlocksEncrypted = new EncryptedColumns(noteUnlocks, noteUnlocks.id, { reason: noteUnlocks.reason });
export const noteAddendaEncrypted = new EncryptedColumns(noteAddenda, noteAddenda.id, { content: noteAddenda.content });

/** A questionnaire's answers (decision 028) and what a provider wrote when acknowledging a safety alert. */
export const measuresEncrypted = new EncryptedColumns(measures, measures.id, { answers: measures.answers });
export const safetyAlertsEncrypted = new EncryptedColumns(safetyAlerts, safetyAlerts.id, {
  acknowledgement: safetyAlerts.acknowledgement,
});

// The psychiatric record (decision 062): a diagnosis' title and comment, and each revision's comment.
export const diagnosesEncrypted = new EncryptedColumns(diagnoses, diagnoses.id, {
  title: diagnoses.title,
  comment: diagnoses.comment,
});
export const diagnosisRevisionsEncrypted = new EncryptedColumns(diagnosisRevisions, diagnosisRevisions.id, {
  comment: diagnosisRevisions.comment,
});
// A medication's names, prescriber and as-needed reason; each event's reason and as-needed reason.
export const medicationsEncrypted = new EncryptedColumns(medications, medications.id, {
  drugName: medications.drugName,
  brandName: medications.brandName,
  prescriber: medications.prescriber,
  asNeededReason: medications.asNeededReason,
  reportedDose: medications.reportedDose,
});
export const medicationEventsEncrypted = new EncryptedColumns(medicationEvents, medicationEvents.id, {
  reason: medicationEvents.reason,
  asNeededReason: medicationEvents.asNeededReason,
});
// An allergy's substance, reaction and the reason it was removed.
export const allergiesEncrypted = new EncryptedColumns(allergies, allergies.id, {
  substance: allergies.substance,
  reaction: allergies.reaction,
  removalReason: allergies.removalReason,
});
// A treatment plan version's content (problems, goals, interventions) as JSON.
export const treatmentPlanVersionsEncrypted = new EncryptedColumns(treatmentPlanVersions, treatmentPlanVersions.id, {
  content: treatmentPlanVersions.content,
});

// A patient's correction request and the care team's answer (decision 031).
export const recordCorrectionsEncrypted = new EncryptedColumns(recordCorrections, recordCorrections.id, {
  request: recordCorrections.request,
  response: recordCorrections.response,
});

// A conversation's subject, a message's text, an attachment's name. The
// attachment's bytes are encrypted as bytes (Keyring.encryptBytes), bound to the attachment's id.
export const conversationsEncrypted = new EncryptedColumns(conversations, conversations.id, {
  subject: conversations.subject,
});
export const messagesEncrypted = new EncryptedColumns(messages, messages.id, { body: messages.body });
export const messageAttachmentsEncrypted = new EncryptedColumns(messageAttachments, messageAttachments.id, {
  fileName: messageAttachments.fileName,
});

/** An intake's answers (JSON, every section) and the provider's reason for sending it back (decision 067). */
export const intakesEncrypted = new EncryptedColumns(intakes, intakes.id, {
  answers: intakes.answers,
  returnReason: intakes.returnReason,
});

/** Why a provider used emergency access, and the administrator's review note (decision 036). */
export const emergencyAccessGrantsEncrypted = new EncryptedColumns(emergencyAccessGrants, emergencyAccessGrants.id, {
  reason: emergencyAccessGrants.reason,
  reviewNote: emergencyAccessGrants.reviewNote,
});

/** A practice document's texts, and a signature's facts: the typed name, client address and user agent (066). */
export const practiceDocumentVersionsEncrypted = new EncryptedColumns(
  practiceDocumentVersions,
  practiceDocumentVersions.id,
  {
    titleEn: practiceDocumentVersions.titleEn,
    titleEs: practiceDocumentVersions.titleEs,
    bodyEn: practiceDocumentVersions.bodyEn,
    bodyEs: practiceDocumentVersions.bodyEs,
  },
);
export const practiceDocumentSignaturesEncrypted = new EncryptedColumns(
  practiceDocumentSignatures,
  practiceDocumentSignatures.id,
  {
    typedName: practiceDocumentSignatures.typedName,
    clientAddress: practiceDocumentSignatures.clientAddress,
    userAgent: practiceDocumentSignatures.userAgent,
  },
);

/** A ledger entry's payment reference and its reason (an adjustment's, a reversal's; decision 073). */
export const ledgerEntriesEncrypted = new EncryptedColumns(ledgerEntries, ledgerEntries.id, {
  reference: ledgerEntries.reference,
  reason: ledgerEntries.reason,
});

/**
 * Every encrypted column in the database: the start-up pass and `npm run keys:rotate` walk these. Clinical notes,
 * recordings and attachments add theirs here (and the CHECK constraints in their migration).
 */
export const ENCRYPTED_TABLES: readonly EncryptedColumns<string>[] = [
  patientsEncrypted,
  ledgerEntriesEncrypted,
  accessRequestsEncrypted,
  storedTextFindingsEncrypted,
  appointmentsEncrypted,
  waitlistEntriesEncrypted,
  videoParticipantsEncrypted,
  videoGuestsEncrypted,
  notesEncrypted,
  noteVersionsEncrypted,
  noteUnlocksEncrypted,
  noteAddendaEncrypted,
  measuresEncrypted,
  diagnosesEncrypted,
  diagnosisRevisionsEncrypted,
  medicationsEncrypted,
  medicationEventsEncrypted,
  allergiesEncrypted,
  treatmentPlanVersionsEncrypted,
  safetyAlertsEncrypted,
  recordCorrectionsEncrypted,
  conversationsEncrypted,
  messagesEncrypted,
  messageAttachmentsEncrypted,
  emergencyAccessGrantsEncrypted,
  practiceDocumentVersionsEncrypted,
  practiceDocumentSignaturesEncrypted,
  intakesEncrypted,
];
