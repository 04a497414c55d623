import { DEFAULT_PRACTICE_TIME_ZONE } from '@telehealth/shared';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppConfig } from '../lib/auth.ts';
import { browserTimeZone, type ClinicZone } from '../lib/practice-dates.ts';

/**
 * How this reader sees clinic times (decision 050): the practice's zone, the device's and the language, for the
 * `formatClinic*` and `formatVisitTime` helpers of lib/practice-dates.ts.
 */
export function useClinicZone(): ClinicZone {
  const { i18n } = useTranslation();
  const { data: config } = useAppConfig();
  const zone = config?.practiceTimeZone ?? DEFAULT_PRACTICE_TIME_ZONE;
  const language = i18n.language;
  return useMemo(() => ({ zone, viewerZone: browserTimeZone(), language }), [zone, language]);
}
