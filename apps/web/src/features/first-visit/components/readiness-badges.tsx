import { Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { ToneBadge } from '../../../components/tone-badge.tsx';
import type { PatientReadiness } from '../api/first-visit-api.ts';
import { usePatientReadiness } from '../api/first-visit-api.ts';

/** "Intake incomplete" / "Intake to review" and "Consent missing" for one patient (nothing when all is done). */
export function ReadinessBadges({ readiness }: { readiness: PatientReadiness | undefined }) {
  const { t } = useTranslation('first-visit');
  if (!readiness || (!readiness.intakeBadge && !readiness.consentMissing)) return null;
  return (
    <Group gap={4} wrap="wrap" data-testid="readiness-badges">
      {readiness.intakeBadge === 'incomplete' ? (
        <ToneBadge tone="orange">{t('badges.intakeIncomplete')}</ToneBadge>
      ) : null}
      {readiness.intakeBadge === 'to-review' ? <ToneBadge tone="blue">{t('badges.intakeToReview')}</ToneBadge> : null}
      {readiness.consentMissing ? <ToneBadge tone="red">{t('badges.consentMissing')}</ToneBadge> : null}
    </Group>
  );
}

/** The chart header's badges of one patient. */
export function PatientReadinessBadges({ patientId }: { patientId: string }) {
  const readiness = usePatientReadiness([patientId]);
  return <ReadinessBadges readiness={readiness.data?.get(patientId)} />;
}
