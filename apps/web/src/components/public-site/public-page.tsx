import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

import { useAppConfigValue } from '../../lib/page-bootstrap.ts';
import { EmergencyBanner } from '../emergency-banner/index.ts';
import classes from './public-site.module.css';
import { SiteFooter } from './site-footer.tsx';
import { SiteHeader } from './site-header.tsx';

/** The frame of the public site: top navigation, the emergency banner (when on), the page and the footer. */
export function PublicPage({ children, banner = false }: { children: ReactNode; banner?: boolean }) {
  const { t } = useTranslation();
  const config = useAppConfigValue();
  const practiceName = config?.practiceName ?? t('brandFallback');
  return (
    <div className={classes.page}>
      <SiteHeader practiceName={practiceName} />
      {banner ? <EmergencyBanner /> : null}
      <main id="main-content" tabIndex={-1} className={classes.main}>
        {children}
      </main>
      <SiteFooter practiceName={practiceName} />
    </div>
  );
}
