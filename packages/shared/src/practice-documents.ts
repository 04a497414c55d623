import { z } from 'zod';
import { fieldMessage, messageSection } from './field-messages.ts';
import { RecordIdSchema, textSchema } from './text.ts';

/**
 * The practice's documents and their signatures (issue 28, decision 066): the telehealth informed consent, the
 * Notice of Privacy Practices acknowledgement, the financial and cancellation policies and any document of the
 * practice's own. Each has a title and a Markdown body in English and (optionally) Spanish, kept as versions; a
 * patient signs the current version by typing their full name and agreeing; staff record a paper signature.
 */

/** The kinds of document. All but `custom` exist at most once (the flows built on them name them). */
export const PRACTICE_DOCUMENT_KINDS = [
  'telehealth-consent',
  'privacy-notice',
  'financial-policy',
  'cancellation-policy',
  'custom',
] as const;
export type PracticeDocumentKind = (typeof PRACTICE_DOCUMENT_KINDS)[number];

/** Where a patient stands with a document (the portal's list and the chart's panel). */
export const PRACTICE_DOCUMENT_STATUSES = [
  // Must sign, never signed.
  'to-sign',
  // A valid signature (electronic or a paper copy recorded).
  'signed',
  // Signed before, but a newer version asks for a new signature.
  'newer-version',
  // For reading only: the document asks for no signature.
  'read-only',
] as const;
export type PracticeDocumentStatus = (typeof PRACTICE_DOCUMENT_STATUSES)[number];

/** How a signature was given. */
export const PRACTICE_SIGNATURE_METHODS = ['electronic', 'paper'] as const;
export type PracticeSignatureMethod = (typeof PRACTICE_SIGNATURE_METHODS)[number];

export const PRACTICE_DOCUMENT_TITLE_MAX = 200;
export const PRACTICE_DOCUMENT_BODY_MAX = 60_000;
export const PRACTICE_SIGNATURE_NAME_MAX = 200;

/** The download of a signed copy (plain HTTP, session cookie): `${PRACTICE_DOCUMENTS_PATH}/signatures/<id>/pdf`. */
export const PRACTICE_DOCUMENTS_PATH = '/api/practice-documents';
export function signedCopyPath(signatureId: string): string {
  return `${PRACTICE_DOCUMENTS_PATH}/signatures/${encodeURIComponent(signatureId)}/pdf`;
}

/** The documents' messages (`practiceDocumentMessages.*`). */
export const PRACTICE_DOCUMENT_MESSAGES = {
  cannotManage: 'Administrator access required.',
  cannotView: 'You do not have permission to view these documents',
  cannotSign: 'Only the patient can sign their documents.',
  cannotRecordPaper: 'Only the patient’s provider or an administrator can record a paper signature.',
  notFound: 'Document not found',
  signatureNotFound: 'Signed copy not found',
  chooseKind: 'Please choose the kind of document',
  kindTaken: 'The practice already has this document. Edit it instead.',
  titleRequired: 'Please enter the title',
  bodyRequired: 'Please write the text',
  chooseResign: 'Please say whether patients must sign again',
  notCurrentVersion: 'A newer version of this document exists. Read it again before signing.',
  notForSigning: 'This document does not need a signature.',
  alreadySigned: 'You have already signed this version.',
  nameRequired: 'Please type your full name',
  mustAgree: 'Please tick “I agree” to sign',
  dateInvalid: 'Please enter a valid date',
  dateInFuture: 'The date cannot be in the future',
  notActive: 'This document is not in use.',
  noPatientRecord: 'Your account is not linked to a patient record yet.',
} as const;

export const practiceDocumentMessage = messageSection('practiceDocumentMessages', PRACTICE_DOCUMENT_MESSAGES);

const TitleSchema = z
  .string({ error: practiceDocumentMessage.error('titleRequired') })
  .pipe(textSchema({ label: 'Title', kind: 'short', max: PRACTICE_DOCUMENT_TITLE_MAX }));
const BodySchema = z
  .string({ error: practiceDocumentMessage.error('bodyRequired') })
  .pipe(textSchema({ label: 'Text', kind: 'free', max: PRACTICE_DOCUMENT_BODY_MAX }));

/** The English title and body are required; the Spanish ones are optional (blank: the English is shown). */
const documentTexts = {
  titleEn: TitleSchema.refine((t) => t !== '', { error: practiceDocumentMessage.error('titleRequired') }),
  bodyEn: BodySchema.refine((t) => t !== '', { error: practiceDocumentMessage.error('bodyRequired') }),
  titleEs: TitleSchema.nullish().transform((t) => (t ? t : null)),
  bodyEs: BodySchema.nullish().transform((t) => (t ? t : null)),
  requiresSignature: z.boolean({ error: fieldMessage.error('chooseYesNo') }),
  active: z.boolean({ error: fieldMessage.error('chooseYesNo') }),
};

/** createPracticeDocument: a new document and its first version. */
export const CreatePracticeDocumentInputSchema = z.object({
  kind: z.enum(PRACTICE_DOCUMENT_KINDS, { error: practiceDocumentMessage.error('chooseKind') }),
  ...documentTexts,
});
export type CreatePracticeDocumentInput = z.input<typeof CreatePracticeDocumentInputSchema>;

/**
 * updatePracticeDocument: the document as the administrator saves it. Changed texts make a new version; then
 * `resignRequired` says whether patients who signed an earlier version must sign again (it must be given).
 */
export const UpdatePracticeDocumentInputSchema = z.object({
  id: RecordIdSchema,
  ...documentTexts,
  resignRequired: z
    .boolean({ error: practiceDocumentMessage.error('chooseResign') })
    .nullish()
    .transform((v) => v ?? null),
});
export type UpdatePracticeDocumentInput = z.input<typeof UpdatePracticeDocumentInputSchema>;

/** signPracticeDocument: the version read, the full name typed, and "I agree" ticked. */
export const SignPracticeDocumentInputSchema = z.object({
  versionId: RecordIdSchema,
  /** The patient's own record (optional: the one linked to the account). */
  patientId: RecordIdSchema.nullish().transform((id) => id || null),
  typedName: z
    .string({ error: practiceDocumentMessage.error('nameRequired') })
    .pipe(textSchema({ label: 'Full name', kind: 'short', max: PRACTICE_SIGNATURE_NAME_MAX }))
    .refine((n) => n !== '', { error: practiceDocumentMessage.error('nameRequired') }),
  agreed: z
    .boolean({ error: practiceDocumentMessage.error('mustAgree') })
    .refine((a) => a, { error: practiceDocumentMessage.error('mustAgree') }),
});
export type SignPracticeDocumentInput = z.input<typeof SignPracticeDocumentInputSchema>;

/** recordPaperSignature: the patient signed a paper copy of the document's current version on `signedOn`. */
export const RecordPaperSignatureInputSchema = z.object({
  patientId: RecordIdSchema,
  documentId: RecordIdSchema,
  signedOn: z.string({ error: practiceDocumentMessage.error('dateInvalid') }).transform((raw, ctx) => {
    const value = raw.trim();
    const date = /^\d{4}-\d{2}-\d{2}$/.test(value) ? new Date(`${value}T00:00:00Z`) : null;
    if (!date || Number.isNaN(date.getTime()) || date.toISOString().slice(0, 10) !== value || value < '1900-01-01') {
      ctx.addIssue({ code: 'custom', ...practiceDocumentMessage.issue('dateInvalid') });
      return z.NEVER;
    }
    // A day ahead of UTC at most: the practice's today may already be tomorrow in UTC terms.
    if (date.getTime() > Date.now() + 86_400_000) {
      ctx.addIssue({ code: 'custom', ...practiceDocumentMessage.issue('dateInFuture') });
      return z.NEVER;
    }
    return value;
  }),
});
export type RecordPaperSignatureInput = z.input<typeof RecordPaperSignatureInputSchema>;

/**
 * Whether a signature of version `signedVersion` still holds when the document's versions that asked patients to
 * sign again are `resignVersions` (the first version always counts as one): it holds unless a later version did.
 */
export function signatureHolds(signedVersion: number, resignVersions: readonly number[]): boolean {
  return resignVersions.every((v) => v <= signedVersion);
}

/** The text of a version in a language, falling back to English. */
export function documentTextIn(
  version: { titleEn: string; titleEs: string | null; bodyEn: string; bodyEs: string | null },
  language: string,
): { title: string; body: string; language: 'en' | 'es' } {
  if (language.startsWith('es') && version.bodyEs) {
    return { title: version.titleEs ?? version.titleEn, body: version.bodyEs, language: 'es' };
  }
  return { title: version.titleEn, body: version.bodyEn, language: 'en' };
}
