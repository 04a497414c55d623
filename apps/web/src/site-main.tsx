// The public site (`/`, `/home`, `/coming-soon`, `/login` and the request forms) as the server sends it to a
// visitor: its own small page, without the single-page app's router, component library or query cache, so the
// first visit is quick. Its links are plain links; signing in loads the single-page app (index.html). Decisions
// 012, 013 and 048.
import './site-main.css';

import { ACCESS_REQUEST_PATHS, SIGN_IN_PATH, type AppConfig } from '@telehealth/shared';
import type { ResourceKey } from 'i18next';
import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';

import { AboutPage, ComingSoonPage, LandingPage, LoadFailedPage } from './features/public-site/index.ts';
import { createI18n } from './lib/i18n-core.ts';
import { AppConfigContext, readPageBootstrap } from './lib/page-bootstrap.ts';
import common from './locales/en/common.json';
import publicSite from './locales/en/public.json';
import screens from './locales/en/screens.json';

interface SitePage {
  Page: ComponentType;
  /** English texts the page needs beyond the site's own. */
  englishResources?: Record<string, ResourceKey>;
}

const landing = (): SitePage => ({ Page: LandingPage });
const signIn = async (): Promise<SitePage> => {
  const login = await import('./site-login.tsx');
  return { Page: login.SiteLoginPage, englishResources: login.englishResources };
};

/** The informational pages are part of this file's code; the sign-in page (forms, schemas) loads on its own. */
const PAGES: Record<string, () => SitePage | Promise<SitePage>> = {
  '/': landing,
  '/home': () => ({ Page: AboutPage }),
  '/coming-soon': () => ({ Page: ComingSoonPage }),
  // The request forms are modes of the sign-in page, each at its own address (decision 048).
  [SIGN_IN_PATH]: signIn,
  [ACCESS_REQUEST_PATHS.provider]: signIn,
  [ACCESS_REQUEST_PATHS.patient]: signIn,
};

/** The configuration the server wrote into the page; without it (a bare build file) the page has defaults. */
function bootstrapConfig(): AppConfig | undefined {
  const bootstrap = readPageBootstrap();
  if (typeof bootstrap !== 'object' || bootstrap === null || !('config' in bootstrap)) return undefined;
  return bootstrap.config as AppConfig;
}

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

// A page whose code did not arrive still says so, with the crisis lines: never a blank page.
const { Page, englishResources } = await Promise.resolve((PAGES[window.location.pathname] ?? landing)()).catch(
  (): SitePage => ({ Page: LoadFailedPage }),
);
const { i18n, ready } = createI18n({ common, public: publicSite, screens, ...englishResources });
// Another language's texts arrive first, so the page does not flash English.
await ready.catch(() => undefined);

createRoot(container).render(
  <StrictMode>
    <I18nextProvider i18n={i18n}>
      <AppConfigContext value={bootstrapConfig()}>
        <Page />
      </AppConfigContext>
    </I18nextProvider>
  </StrictMode>,
);
// The content did not exist when the browser looked for the address's #section.
const target = window.location.hash.slice(1);
if (target) requestAnimationFrame(() => document.getElementById(target)?.scrollIntoView());
