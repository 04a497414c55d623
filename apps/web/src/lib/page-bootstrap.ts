import { PAGE_BOOTSTRAP_META, type AppConfig } from '@telehealth/shared';
import { createContext, useContext } from 'react';

/**
 * What the server wrote into the page (`<meta name="app-bootstrap">`): the practice's configuration and
 * whether the page was fetched with a live session. Null without it (the Vite dev server serves the bare
 * HTML). Not validated here, so the public site's small bundle carries no schema library; the single-page
 * app validates it (lib/auth.ts).
 */
export function readPageBootstrap(): unknown {
  const content = document.querySelector(`meta[name="${PAGE_BOOTSTRAP_META}"]`)?.getAttribute('content');
  if (!content) return null;
  try {
    return JSON.parse(content) as unknown;
  } catch {
    return null;
  }
}

/**
 * The practice's configuration for components shared by the public site and the single-page app (banner,
 * header, page titles): each of the two provides it its own way. Undefined while it is not known yet.
 */
export const AppConfigContext = createContext<AppConfig | undefined>(undefined);

export function useAppConfigValue(): AppConfig | undefined {
  return useContext(AppConfigContext);
}
