export { AboutPage } from './components/about-page.tsx';
export { ComingSoonPage } from './components/coming-soon-page.tsx';
export { LandingPage } from './components/landing-page.tsx';
export { LoadFailedPage } from './components/load-failed-page.tsx';
