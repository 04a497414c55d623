export { CrisisStrip } from './crisis-strip.tsx';
export { LanguageSwitcher } from './language-switcher.tsx';
export { PublicPage } from './public-page.tsx';
