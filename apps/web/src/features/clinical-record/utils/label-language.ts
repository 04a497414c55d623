import type { LabelLanguage } from '@telehealth/shared';

/** The shared labels' language for the page's language (Spanish for any `es-*`, English otherwise). */
export function labelLanguage(language: string): LabelLanguage {
  return language.startsWith('es') ? 'es' : 'en';
}
