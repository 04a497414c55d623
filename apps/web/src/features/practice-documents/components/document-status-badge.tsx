import type { PracticeDocumentStatus } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { ToneBadge, type Tone } from '../../../components/tone-badge.tsx';

const TONE: Record<PracticeDocumentStatus, Tone> = {
  'to-sign': 'orange',
  'newer-version': 'yellow',
  signed: 'green',
  'read-only': 'gray',
};

/** Where a patient stands with a document, in words and colour. */
export function DocumentStatusBadge({ status }: { status: PracticeDocumentStatus }) {
  const { t } = useTranslation('practice-documents');
  return (
    <ToneBadge tone={TONE[status]} data-testid="document-status">
      {t(`status.${status}`)}
    </ToneBadge>
  );
}
