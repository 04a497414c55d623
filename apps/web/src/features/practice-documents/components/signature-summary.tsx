import { Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { useClinicZone } from '../../../hooks/use-clinic-zone.ts';
import { formatCalendarDate, formatClinicDateTime } from '../../../lib/practice-dates.ts';
import type { PracticeDocumentSignature } from '../api/practice-documents-api.ts';

/** How a signature is said: "Signed Nov 28, 2026, 10:15 AM as Marta Signer (version 3)" or a paper copy's record. */
export function SignatureSummary({ signature }: { signature: PracticeDocumentSignature }) {
  const { t } = useTranslation('practice-documents');
  const clinic = useClinicZone();
  if (signature.method === 'paper') {
    return (
      <Text size="sm" c="dimmed">
        {t('signature.paper', {
          date: formatCalendarDate(signature.paperSignedOn ?? '', clinic.language),
          name: signature.recordedByName ?? t('signature.someone'),
          version: signature.version,
        })}
      </Text>
    );
  }
  return (
    <Text size="sm" c="dimmed">
      {t('signature.electronic', {
        date: formatClinicDateTime(signature.signedAt, clinic),
        name: signature.typedName ?? '',
        version: signature.version,
      })}
    </Text>
  );
}
