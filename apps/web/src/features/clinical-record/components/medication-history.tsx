import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

import { formatCalendarDate } from '../../../lib/practice-dates.ts';
import type { Medication } from '../api/medications-api.ts';
import { labelLanguage } from '../utils/label-language.ts';
import { sigOf } from '../utils/sig.ts';

/** A medication's events, newest first: what changed, when, the dose it set, why, and who recorded it. */
export function MedicationHistory({ medication }: { medication: Medication }) {
  const { t, i18n } = useTranslation('clinical-record');
  const language = labelLanguage(i18n.language);
  return (
    <Stack
      gap={6}
      component="ol"
      style={{ paddingLeft: 18, margin: 0 }}
      aria-label={t('medications.historyOf', { name: medication.drugName })}
    >
      {[...medication.events].reverse().map((event) => (
        <Stack gap={0} component="li" key={event.id}>
          <Text size="sm" fw={600}>
            {formatCalendarDate(event.effectiveDate, i18n.language)}: {t(`medications.events.${event.kind}`)}
            {event.doseAmount !== null
              ? ` — ${[event.strength, sigOf(event, language)].filter(Boolean).join(', ')}`
              : ''}
          </Text>
          {event.reason ? (
            <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
              {event.reason}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed">
            {t('medications.recordedBy', { name: event.recordedByName })}
            {event.noteId ? ` · ${t('medications.fromNote')}` : ''}
          </Text>
        </Stack>
      ))}
    </Stack>
  );
}
