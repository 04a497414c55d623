import { CRISIS_LINE, EMERGENCY_LINE } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import classes from './public-site.module.css';

/** 988 and 911 as tap-to-call links, rendered statically on the public pages (a safety feature). */
export function CrisisStrip() {
  const { t } = useTranslation('public');
  return (
    <aside className={classes.crisis} aria-label={t('crisis.title')}>
      <strong>{t('crisis.title')}</strong>
      <a href={`tel:${CRISIS_LINE}`} className={classes.crisisLink}>
        {t('crisis.call988')}
      </a>
      <a href={`tel:${EMERGENCY_LINE}`} className={classes.emergencyLink}>
        {t('crisis.call911')}
      </a>
    </aside>
  );
}
