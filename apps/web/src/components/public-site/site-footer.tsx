import { CRISIS_LINE, EMERGENCY_LINE } from '@telehealth/shared';
import { useTranslation } from 'react-i18next';

import classes from './public-site.module.css';

/** The public pages' footer; the crisis lines are static text and links (no network call). */
export function SiteFooter({ practiceName }: { practiceName: string }) {
  const { t } = useTranslation('public');
  return (
    <footer className={classes.footer}>
      <div className={classes.footerInner}>
        <nav aria-label={t('footer.about')} className={classes.footerLinks}>
          <a href="/home">{t('footer.about')}</a>
          <a href="/coming-soon">{t('footer.comingSoon')}</a>
          <a href="/login">{t('footer.login')}</a>
        </nav>
        <p>
          {t('footer.notEmergency')} <a href={`tel:${CRISIS_LINE}`}>{CRISIS_LINE}</a> ·{' '}
          <a href={`tel:${EMERGENCY_LINE}`}>{EMERGENCY_LINE}</a>
        </p>
        <p>{t('footer.rights', { year: new Date().getFullYear(), practiceName })}</p>
      </div>
    </footer>
  );
}
