import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { CrisisStrip, PublicPage } from '../../components/public-site/index.ts';
import classes from '../../components/public-site/public-site.module.css';
import { usePageTitle } from '../../hooks/use-page-title.ts';
import { useAppConfig } from '../../lib/auth.ts';

/** `/home`: About the practice. */
function AboutRoute() {
  const { t } = useTranslation(['public', 'common']);
  const { data: config } = useAppConfig();
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
          <Link className={classes.primaryButton} to="/login">
            {t('about.cta')}
          </Link>
        </p>
      </article>
      <CrisisStrip />
    </PublicPage>
  );
}

export { AboutRoute as Component };
