export { WaitlistOfferScreen } from './components/offer-screen.tsx';
export { WaitlistScreen } from './components/waitlist-screen.tsx';
