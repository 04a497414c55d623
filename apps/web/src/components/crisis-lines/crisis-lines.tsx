import { CRISIS_LINE, EMERGENCY_LINE } from '@telehealth/shared';
import { Trans, useTranslation } from 'react-i18next';

import classes from './crisis-lines.module.css';

/**
 * The crisis line (988) and emergency line (911) as tap-to-call links. A safety feature: it needs no network
 * call and is rendered on every public screen. Plain HTML and CSS, so it looks the same on the public site's
 * pages (no component library) and in the app.
 */
export function CrisisLines({ withTitle = true, className }: { withTitle?: boolean; className?: string }) {
  const { t } = useTranslation();
  return (
    <aside aria-label={t('crisis.title')} className={className ? `${classes.box} ${className}` : classes.box}>
      {withTitle ? <p className={classes.title}>{t('crisis.title')}</p> : null}
      <p className={classes.text}>
        <Trans
          t={t}
          i18nKey="crisis.lines"
          values={{ crisisLine: CRISIS_LINE, emergencyLine: EMERGENCY_LINE }}
          components={{
            crisis: (
              <a
                href={`tel:${CRISIS_LINE}`}
                className={classes.crisis}
                aria-label={t('crisis.callCrisis', { number: CRISIS_LINE })}
              />
            ),
            emergency: (
              <a
                href={`tel:${EMERGENCY_LINE}`}
                className={classes.emergency}
                aria-label={t('crisis.callEmergency', { number: EMERGENCY_LINE })}
              />
            ),
          }}
        />
      </p>
    </aside>
  );
}
