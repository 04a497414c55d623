import i18next, { type BackendModule, type i18n as I18n, type ReadCallback, type ResourceKey } from 'i18next';
import { initReactI18next } from 'react-i18next';

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

export const DEFAULT_NAMESPACE = 'common';

/**
 * Sets up the page's i18next instance (the library's default one: a page has one language, and code shared by
 * the public site and the single-page app, such as lib/error-text.ts, uses it without knowing which page
 * it runs in) with `englishResources` bundled (English is the fallback of every other language, and the first
 * paint must not wait for it) and every other language loaded on demand. `ready` settles once the chosen
 * language's texts are in, so a page can wait for them instead of flashing English first.
 */
export function createI18n(englishResources: Record<string, ResourceKey>): { i18n: I18n; ready: Promise<unknown> } {
  const i18n = i18next;
  const ready = i18n
    .use(lazyLocaleBackend)
    .use(initReactI18next)
    .init({
      lng: storedLanguage(),
      fallbackLng: 'en',
      supportedLngs: SUPPORTED_LANGUAGES,
      ns: Object.keys(englishResources),
      defaultNS: DEFAULT_NAMESPACE,
      resources: { en: englishResources },
      partialBundledLanguages: true,
      // React escapes what it renders; escaping again would show entities.
      interpolation: { escapeValue: false },
      returnNull: false,
      react: { useSuspense: false },
    });

  // `{{label, lowercase}}`: a label inside an English sentence (lib/shared-texts.ts).
  i18n.services.formatter?.add('lowercase', (value: unknown, lng: string | undefined) =>
    String(value).toLocaleLowerCase(lng),
  );

  i18n.on('languageChanged', (language) => {
    if (typeof document !== 'undefined') document.documentElement.lang = language;
    try {
      if (typeof localStorage !== 'undefined') localStorage.setItem(LANGUAGE_STORAGE_KEY, language);
    } catch {
      // Private mode without storage: the choice lasts for this page only.
    }
  });
  if (typeof document !== 'undefined') document.documentElement.lang = i18n.language;
  return { i18n, ready };
}
