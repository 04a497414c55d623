import { useTranslation } from 'react-i18next';

import classes from './public-site.module.css';

const LANGUAGES = ['en', 'es'] as const;

/** English / Español. The choice is remembered (lib/i18n.ts) and sets `<html lang>`. */
export function LanguageSwitcher() {
  const { t, i18n } = useTranslation('public');
  const current = i18n.resolvedLanguage ?? i18n.language;
  return (
    <div className={classes.languages} role="group" aria-label={t('language.label')}>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          lang={language}
          className={classes.languageButton}
          aria-pressed={current === language}
          onClick={() => {
            void i18n.changeLanguage(language);
          }}
        >
          {t(`language.${language}`)}
        </button>
      ))}
    </div>
  );
}
