import { ACCESS_REQUEST_PATHS } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { useAppConfigValue } from '../../lib/page-bootstrap.ts';
import { telHref } from '../../lib/tel-href.ts';
import classes from './emergency-banner.module.css';

/**
 * The emergency-support banner: free community support after a local tragic event. Shown while configuration
 * switches it on (appConfig.emergencyBanner.enabled). The crisis lines 988 and 911 never depend on it: they are
 * rendered statically beside it.
 *
 * Its buttons (decision 048): Call dials the clinic's phone (CLINIC_PHONE, the fictional one in demo mode), left
 * out without one; Schedule opens BOOKING_URL in a new tab, and without a booking page it becomes "Request an
 * appointment", the patient request form (the practice's own way in), left out where that form already is.
 */
export function EmergencyBanner({ onRequestForm = false }: { onRequestForm?: boolean }) {
  const { t } = useTranslation('public');
  const config = useAppConfigValue();
  if (!config?.emergencyBanner.enabled) return null;
  const { heading, body } = config.emergencyBanner;
  const requestLink = !config.bookingUrl && !onRequestForm;

  return (
    <section className={classes.banner} aria-labelledby="emergency-banner-heading" data-testid="emergency-banner">
      <div className={classes.text}>
        <h2 className={classes.heading} id="emergency-banner-heading">
          {heading ?? t('banner.heading')}
        </h2>
        <p className={classes.body}>{body ?? t('banner.body')}</p>
        <p className={classes.notice}>{t('banner.freeNotice')}</p>
      </div>
      {config.clinicPhone || config.bookingUrl || requestLink ? (
        <div className={classes.actions}>
          {config.clinicPhone ? (
            <a className={classes.call} href={telHref(config.clinicPhone)}>
              {t('banner.call', { phone: config.clinicPhone })}
            </a>
          ) : null}
          {config.bookingUrl ? (
            <a className={classes.schedule} href={config.bookingUrl} target="_blank" rel="noopener">
              {t('banner.schedule')}
              <span className={classes.srOnly}> {t('banner.newTab')}</span>
            </a>
          ) : requestLink ? (
            <a className={classes.schedule} href={ACCESS_REQUEST_PATHS.patient}>
              {t('banner.request')}
            </a>
          ) : null}
        </div>
      ) : null}
    </section>
  );
}
