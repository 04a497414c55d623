// The public site (`/`, `/home`, `/coming-soon`) as the server sends it to a visitor: its own small page,
// without the single-page app's router, form library, query cache or schemas, so the first visit is quick.
// Its links are plain links: /login and the signed-in screens load the single-page app (index.html).
import './site-main.css';

import type { AppConfig } from '@telehealth/shared';
import { StrictMode, type ComponentType } from 'react';
import { createRoot } from 'react-dom/client';
import { I18nextProvider } from 'react-i18next';

import { AboutPage, ComingSoonPage, LandingPage } from './features/public-site/index.ts';
import { createI18n } from './lib/i18n-core.ts';
import { AppConfigContext, readPageBootstrap } from './lib/page-bootstrap.ts';
import common from './locales/en/common.json';
import publicSite from './locales/en/public.json';
import screens from './locales/en/screens.json';

const PAGES: Record<string, ComponentType> = {
  '/': LandingPage,
  '/home': AboutPage,
  '/coming-soon': ComingSoonPage,
};

/** The configuration the server wrote into the page; without it (a bare build file) the page has defaults. */
function bootstrapConfig(): AppConfig | undefined {
  const bootstrap = readPageBootstrap();
  if (typeof bootstrap !== 'object' || bootstrap === null || !('config' in bootstrap)) return undefined;
  return bootstrap.config as AppConfig;
}

const { i18n, ready } = createI18n({ common, public: publicSite, screens });
const config = bootstrapConfig();
const Page = PAGES[window.location.pathname] ?? LandingPage;

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

// Another language's texts arrive first, so the page does not flash English.
void ready
  .catch(() => undefined)
  .then(() => {
    createRoot(container).render(
      <StrictMode>
        <I18nextProvider i18n={i18n}>
          <AppConfigContext value={config}>
            <Page />
          </AppConfigContext>
        </I18nextProvider>
      </StrictMode>,
    );
    // The content did not exist when the browser looked for the address's #section.
    const target = window.location.hash.slice(1);
    if (target) requestAnimationFrame(() => document.getElementById(target)?.scrollIntoView());
  });
