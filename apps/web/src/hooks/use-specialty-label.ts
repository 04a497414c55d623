import type { Specialty } from '@telehealth/shared';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * A provider's specialty in the reader's language. The names are the access-request form's options (one list,
 * translated once); a value outside the shared list, which only old data could hold, is shown as stored.
 */
export function useSpecialtyLabel(): (specialty: string) => string {
  const { t } = useTranslation('access-request');
  return useCallback(
    (specialty: string) => t(`options.specialty.${specialty as Specialty}`, { defaultValue: specialty }),
    [t],
  );
}
