// A document load of this path gets the public site's own small page (site.html, src/site-main.tsx); this
// route serves it when the single-page app itself navigates here.
export { LandingPage as Component } from '../../features/public-site/index.ts';
