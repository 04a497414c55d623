import { ACCESS_REQUEST_PATHS, PATIENT_SERVICES } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import { CrisisStrip, PublicPage } from '../../../components/public-site/index.ts';
import classes from '../../../components/public-site/public-site.module.css';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useAppConfigValue } from '../../../lib/page-bootstrap.ts';

/**
 * `/home`: About the practice. Its services are the patient request form's option set, so the site never says a
 * service the form offers is not offered (decision 048).
 */
export function AboutPage() {
  const { t } = useTranslation(['public', 'common']);
  const config = useAppConfigValue();
  const practiceName = config?.practiceName ?? t('common:brandFallback');
  usePageTitle(t('about.title'));
  return (
    <PublicPage>
      <article className={classes.article}>
        <h1>{t('about.title')}</h1>
        <p className={classes.lead}>{t('about.lead', { practiceName })}</p>
        <p>{t('about.body1')}</p>
        <p>{t('about.body2')}</p>
        <p>{t('about.body3')}</p>
        <section id="services" aria-labelledby="services-title">
          <h2 id="services-title">{t('about.servicesTitle')}</h2>
          <p>{t('about.servicesIntro')}</p>
          <ul>
            {PATIENT_SERVICES.map((service) => (
              <li key={service}>
                <strong>{t(`about.services.${service}.name`)}</strong>: {t(`about.services.${service}.body`)}
              </li>
            ))}
          </ul>
        </section>
        <p>
          <a className={classes.primaryButton} href={ACCESS_REQUEST_PATHS.patient}>
            {t('about.cta')}
          </a>
        </p>
      </article>
      <CrisisStrip />
    </PublicPage>
  );
}
