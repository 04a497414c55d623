export { CrisisStrip } from './crisis-strip.tsx';
export { CONTACT_EMAIL } from './contact.ts';
export { LanguageSwitcher } from './language-switcher.tsx';
export { PublicPage } from './public-page.tsx';
