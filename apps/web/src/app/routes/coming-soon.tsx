import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

import { CONTACT_EMAIL, CrisisStrip, PublicPage } from '../../components/public-site/index.ts';
import classes from '../../components/public-site/public-site.module.css';
import { usePageTitle } from '../../hooks/use-page-title.ts';

const ITEMS = ['insurance', 'programs', 'providers', 'research'] as const;

/** `/coming-soon`: what the practice does not offer yet, said plainly. */
function ComingSoonRoute() {
  const { t } = useTranslation('public');
  usePageTitle(t('comingSoon.title'));
  return (
    <PublicPage>
      <article className={classes.article}>
        <h1>{t('comingSoon.title')}</h1>
        <p className={classes.lead}>{t('comingSoon.lead')}</p>
        {ITEMS.map((key) => (
          <section key={key} aria-labelledby={`soon-${key}`}>
            <h2 id={`soon-${key}`}>{t(`comingSoon.items.${key}.title`)}</h2>
            <p>{t(`comingSoon.items.${key}.body`)}</p>
          </section>
        ))}
        <p>
          {t('comingSoon.contact')} <a href={`mailto:${CONTACT_EMAIL}`}>{CONTACT_EMAIL}</a>
        </p>
        <p>
          <Link className={classes.secondaryButton} to="/">
            {t('backHome')}
          </Link>
        </p>
      </article>
      <CrisisStrip />
    </PublicPage>
  );
}

export { ComingSoonRoute as Component };
