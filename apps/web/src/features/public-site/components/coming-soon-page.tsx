import { useTranslation } from 'react-i18next';

import { CrisisStrip, PublicPage } from '../../../components/public-site/index.ts';
import classes from '../../../components/public-site/public-site.module.css';
import { usePageTitle } from '../../../hooks/use-page-title.ts';
import { useAppConfigValue } from '../../../lib/page-bootstrap.ts';

/** Each is a menu item's destination (`/coming-soon#<key>`). */
const ITEMS = ['insurance', 'providers', 'research'] as const;

/**
 * `/coming-soon`: what the practice does not offer yet, said plainly; never a service the request forms offer
 * (those are on /home#services; decision 048).
 */
export function ComingSoonPage() {
  const { t } = useTranslation('public');
  const contactEmail = useAppConfigValue()?.contactEmail;
  usePageTitle(t('comingSoon.title'));
  return (
    <PublicPage>
      <article className={classes.article}>
        <h1>{t('comingSoon.title')}</h1>
        <p className={classes.lead}>{t('comingSoon.lead')}</p>
        <p>
          <a href="/home#services">{t('comingSoon.servicesLink')}</a>
        </p>
        {ITEMS.map((key) => (
          <section key={key} id={key} aria-labelledby={`soon-${key}`}>
            <h2 id={`soon-${key}`}>{t(`comingSoon.items.${key}.title`)}</h2>
            <p>{t(`comingSoon.items.${key}.body`)}</p>
          </section>
        ))}
        {contactEmail ? (
          <p>
            {t('comingSoon.contact')} <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
          </p>
        ) : null}
        <p>
          <a className={classes.secondaryButton} href="/">
            {t('backHome')}
          </a>
        </p>
      </article>
      <CrisisStrip />
    </PublicPage>
  );
}
