import type { PracticeDocumentsService } from '../practice-documents/practice-documents.service.ts';
import type { SettingsService } from '../settings/settings.service.ts';

/**
 * The telehealth consent gate of video visits (decision 069): with the practice setting `videoConsentRequired` on,
 * a patient joins (or is let in to) a visit only with a valid signature of the practice's active telehealth
 * consent (electronic or recorded on paper). The provider and guests are never asked: the consent is the patient's.
 * Every path to a visit asks here: the token request, the signalling socket's join, and the provider's admit.
 */
export class VideoConsentGate {
  readonly #settings: Pick<SettingsService, 'current'>;
  readonly #documents: Pick<PracticeDocumentsService, 'hasValidSignature'>;

  constructor(options: {
    settings: Pick<SettingsService, 'current'>;
    documents: Pick<PracticeDocumentsService, 'hasValidSignature'>;
  }) {
    this.#settings = options.settings;
    this.#documents = options.documents;
  }

  /** True when the patient of a visit must sign the telehealth consent before joining it. */
  async blocks(patientId: string): Promise<boolean> {
    if (!this.#settings.current().videoConsentRequired) return false;
    return !(await this.#documents.hasValidSignature(patientId, 'telehealth-consent'));
  }
}
