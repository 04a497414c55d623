import { useTranslation } from 'react-i18next';

import { CrisisStrip, PublicPage } from '../../../components/public-site/index.ts';
import classes from '../../../components/public-site/public-site.module.css';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useAppConfigValue } from '../../../lib/page-bootstrap.ts';

/** `/home`: About the practice. */
export function AboutPage() {
  const { t } = useTranslation(['public', 'common']);
  const config = useAppConfigValue();
  const practiceName = config?.practiceName ?? t('common:brandFallback');
  usePageTitle(t('about.title'));
  const services = t('about.services', { returnObjects: true });
  return (
    <PublicPage>
      <article className={classes.article}>
        <h1>{t('about.title')}</h1>
        <p className={classes.lead}>{t('about.lead', { practiceName })}</p>
        <p>{t('about.body1')}</p>
        <p>{t('about.body2')}</p>
        <p>{t('about.body3')}</p>
        <h2>{t('about.servicesTitle')}</h2>
        <ul>
          {(Array.isArray(services) ? services : []).map((service: string) => (
            <li key={service}>{service}</li>
          ))}
        </ul>
        <p>
          <a className={classes.primaryButton} href="/login">
            {t('about.cta')}
          </a>
        </p>
      </article>
      <CrisisStrip />
    </PublicPage>
  );
}
