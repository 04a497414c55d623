import { useTranslation } from 'react-i18next';

import { CrisisStrip, PublicPage } from '../../../components/public-site/index.ts';
import classes from '../../../components/public-site/public-site.module.css';
import { usePageTitle } from '../../../hooks/use-page-title.ts';

/** Shown when a page's own code did not arrive: what happened, what to do, and the crisis lines regardless. */
export function LoadFailedPage() {
  const { t } = useTranslation('public');
  usePageTitle(t('loadFailed.title'));
  return (
    <PublicPage>
      <article className={classes.article}>
        <h1>{t('loadFailed.title')}</h1>
        <p className={classes.lead}>{t('loadFailed.body')}</p>
        <p>
          <button
            type="button"
            className={classes.primaryButton}
            onClick={() => {
              window.location.reload();
            }}
          >
            {t('loadFailed.reload')}
          </button>
        </p>
      </article>
      <CrisisStrip />
    </PublicPage>
  );
}
