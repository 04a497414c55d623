import { DASHBOARD_HEADINGS, MESSAGES, PATIENT_LABELS, PATIENT_MESSAGES, ROLE_LABELS } from '@telehealth/shared';
import i18next, { type BackendModule, type ReadCallback, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

import accessRequest from '../locales/en/access-request.json';
import accessReview from '../locales/en/access-review.json';
import account from '../locales/en/account.json';
import auth from '../locales/en/auth.json';
import common from '../locales/en/common.json';
import dashboard from '../locales/en/dashboard.json';
import errors from '../locales/en/errors.json';
import patients from '../locales/en/patients.json';
import providers from '../locales/en/providers.json';
import publicSite from '../locales/en/public.json';
import screens from '../locales/en/screens.json';
import session from '../locales/en/session.json';

/**
 * The English texts the server and the browser share live in @telehealth/shared; they are the `shared`
 * namespace here so a translation can override them like any other text (locales/es/shared.json).
 */
const sharedEn = {
  messages: MESSAGES,
  roles: ROLE_LABELS,
  dashboardHeadings: DASHBOARD_HEADINGS,
  patientMessages: PATIENT_MESSAGES,
  patientLabels: PATIENT_LABELS,
} as const;

/** English is bundled: it is the fallback for every other language and the first paint must not wait. */
export const englishResources = {
  common,
  auth,
  dashboard,
  session,
  errors,
  screens,
  patients,
  providers,
  'access-request': accessRequest,
  public: publicSite,
  'access-review': accessReview,
  account,
  shared: sharedEn,
} as const;

export const DEFAULT_NAMESPACE = 'common';
export const NAMESPACES = Object.keys(englishResources) as (keyof typeof englishResources)[];

/**
 * Every other language is a folder of JSON files beside `en` (src/locales/es/common.json, ...), found at
 * build time and loaded on demand: adding a language is adding its files.
 */
const otherLocaleFiles = import.meta.glob<{ default: ResourceKey }>(['../locales/*/*.json', '!../locales/en/*.json']);

function parseLocalePath(path: string): { language: string; namespace: string } | null {
  const match = /\/locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!match?.[1] || !match[2]) return null;
  return { language: match[1], namespace: match[2] };
}

export const SUPPORTED_LANGUAGES: readonly string[] = [
  'en',
  ...new Set(
    Object.keys(otherLocaleFiles)
      .map((path) => parseLocalePath(path)?.language)
      .filter((language): language is string => language !== undefined),
  ),
];

const lazyLocaleBackend: BackendModule = {
  type: 'backend',
  callbackApi: true,
  init() {},
  read(language: string, namespace: string, callback: ReadCallback) {
    const loader = Object.entries(otherLocaleFiles).find(([path]) => {
      const parsed = parseLocalePath(path);
      return parsed?.language === language && parsed.namespace === namespace;
    })?.[1];
    if (!loader) {
      // A namespace not translated yet falls back to English.
      callback(null, {});
      return;
    }
    loader().then(
      (module) => {
        callback(null, module.default);
      },
      (error: unknown) => {
        callback(error instanceof Error ? error : new Error(String(error)), null);
      },
    );
  },
};

export const i18n = i18next.createInstance();

/** Where the language a visitor chose is remembered (the switcher on the public pages writes it). */
export const LANGUAGE_STORAGE_KEY = 'telehealth.language';

function storedLanguage(): string {
  try {
    const stored = typeof localStorage === 'undefined' ? null : localStorage.getItem(LANGUAGE_STORAGE_KEY);
    return stored && SUPPORTED_LANGUAGES.includes(stored) ? stored : 'en';
  } catch {
    return 'en';
  }
}

void i18n
  .use(lazyLocaleBackend)
  .use(initReactI18next)
  .init({
    lng: storedLanguage(),
    fallbackLng: 'en',
    supportedLngs: SUPPORTED_LANGUAGES,
    ns: NAMESPACES,
    defaultNS: DEFAULT_NAMESPACE,
    resources: { en: englishResources },
    partialBundledLanguages: true,
    // React escapes what it renders; escaping again would show entities.
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });

i18n.on('languageChanged', (language) => {
  if (typeof document !== 'undefined') document.documentElement.lang = language;
  try {
    if (typeof localStorage !== 'undefined') localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
  } catch {
    // Private mode without storage: the choice lasts for this page only.
  }
});
if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;
